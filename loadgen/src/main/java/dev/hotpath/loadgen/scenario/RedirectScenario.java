package dev.hotpath.loadgen.scenario;

import dev.hotpath.loadgen.Answer;
import dev.hotpath.loadgen.RunConfig;
import dev.hotpath.loadgen.Scenario;
import dev.hotpath.loadgen.Workload;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Seeds {@code links} links through the bulk API, then asks for them by code, uniformly or with Zipf
 * popularity (exponent 1: the k-th most popular link is asked for in proportion to 1/k). Every answer
 * must be the expected redirect status with exactly the link's URL as {@code Location} and an empty
 * body ({@code Content-Length: 0}, as the API defines it). Writing a request is three copies (prefix,
 * code, suffix); checking compares the header in place.
 */
public final class RedirectScenario implements Scenario {
    private final String apiKey;
    private final int links;
    private final boolean zipf;
    private final int expectedStatus;
    private final Path linksFile;

    /**
     * @param linksFile where the seeded links are kept (code, tab, URL per line), or null: when the file
     *     exists its first {@code links} links are used and nothing is seeded, else the seeded links are
     *     written there, so later runs against the same server reuse them
     */
    public RedirectScenario(String apiKey, int links, boolean zipf, int expectedStatus, Path linksFile) {
        this.apiKey = apiKey;
        this.links = links;
        this.zipf = zipf;
        this.expectedStatus = expectedStatus;
        this.linksFile = linksFile;
    }

    @Override
    public String name() {
        return "redirect";
    }

    @Override
    public Workload prepare(RunConfig config) throws IOException {
        Target target = Target.of(config);
        List<Links.Link> seeded = linksFile != null && Files.exists(linksFile) ? read() : seed(target);
        byte[][] paths = new byte[links][];
        byte[][] locations = new byte[links][];
        for (int i = 0; i < links; i++) {
            paths[i] = Requests.ascii("/" + seeded.get(i).code());
            locations[i] = Requests.ascii(seeded.get(i).longUrl());
        }
        double[] cumulative = zipf ? zipfCumulative(links) : null;
        byte[] prefix = Requests.getPrefix();
        byte[] suffix = Requests.getSuffix(target);
        return new Workload() {
            @Override
            public long next(SplittableRandom random) {
                return cumulative == null ? random.nextInt(links) : pick(cumulative, random.nextDouble());
            }

            @Override
            public void write(long tag, ByteBuf out) {
                out.writeBytes(prefix).writeBytes(paths[(int) tag]).writeBytes(suffix);
            }

            @Override
            public Outcome check(long tag, Answer response) {
                if (response.status() != expectedStatus) {
                    return Outcome.UNEXPECTED_STATUS;
                }
                return Links.redirectsTo(response, locations[(int) tag]) ? Outcome.OK : Outcome.MISMATCH;
            }

            @Override
            public String describe(long tag, Answer response) {
                return "GET " + Requests.text(paths[(int) tag]) + " expected " + expectedStatus + " to "
                    + Requests.text(locations[(int) tag]) + " without a body, got " + response.status() + " to "
                    + response.location() + (response.bodyLength() == 0 ? "" : " with body " + response.bodyText(200));
            }
        };
    }

    private List<Links.Link> seed(Target target) throws IOException {
        List<Links.Link> seeded = Links.seed(target, apiKey, links,
            i -> "https://example.com/hotpath-bench/" + i + "/a-typical-slug-of-moderate-length");
        if (linksFile != null) {
            StringBuilder lines = new StringBuilder();
            for (Links.Link link : seeded) {
                lines.append(link.code()).append('\t').append(link.longUrl()).append('\n');
            }
            Files.writeString(linksFile, lines);
        }
        return seeded;
    }

    private List<Links.Link> read() throws IOException {
        List<Links.Link> read = new ArrayList<>(links);
        for (String line : Files.readAllLines(linksFile)) {
            int tab = line.indexOf('\t');
            if (tab <= 0) {
                throw new IOException(linksFile + ": not a links file (code, tab, URL per line)");
            }
            read.add(new Links.Link(line.substring(0, tab), line.substring(tab + 1)));
            if (read.size() == links) {
                return read;
            }
        }
        throw new IOException(linksFile + " holds " + read.size() + " links, fewer than --links " + links);
    }

    /** cumulative[k] = P(rank <= k) under Zipf with exponent 1. */
    static double[] zipfCumulative(int n) {
        double[] cumulative = new double[n];
        double sum = 0;
        for (int k = 0; k < n; k++) {
            sum += 1.0 / (k + 1);
            cumulative[k] = sum;
        }
        for (int k = 0; k < n; k++) {
            cumulative[k] /= sum;
        }
        return cumulative;
    }

    /** The first rank whose cumulative probability reaches {@code u}. */
    static int pick(double[] cumulative, double u) {
        int low = 0;
        int high = cumulative.length - 1;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (cumulative[mid] < u) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }
}
