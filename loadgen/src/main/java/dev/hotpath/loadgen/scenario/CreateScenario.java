package dev.hotpath.loadgen.scenario;

import dev.hotpath.loadgen.Answer;
import dev.hotpath.loadgen.RunConfig;
import dev.hotpath.loadgen.Scenario;
import dev.hotpath.loadgen.Workload;
import io.netty.buffer.ByteBuf;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Durable creates: {@code POST /api/links}, each with a URL of its own. An answer must be 201 with a
 * link object whose {@code long_url} is the URL sent, whose code no earlier answer gave (a duplicate is
 * a mismatch), and a {@code Location} of {@code /api/links/<that code>}. After the run, every
 * acknowledged link is asked for again and must redirect to its URL without a body: an acknowledged
 * write that is not there fails the run.
 *
 * <p>With a limit the scenario sends that many creates in all (warm-up included) and then nothing: in
 * saturate mode the run ends when they are answered, so a test can ask for an exact number however
 * fast the target is, with {@code --duration} as the bound.
 */
public final class CreateScenario implements Scenario {
    private final String apiKey;
    private final int expectedRedirect;
    private final long limit;
    private final String runId = Long.toString(System.nanoTime(), 36);
    private final AtomicLong sequence = new AtomicLong();
    private final AcknowledgedCodes acknowledged = new AcknowledgedCodes();
    private Target target;

    public CreateScenario(String apiKey, int expectedRedirect) {
        this(apiKey, expectedRedirect, Long.MAX_VALUE);
    }

    /** @param limit creates sent in all, at least 1; {@link Long#MAX_VALUE} for as many as the run takes */
    public CreateScenario(String apiKey, int expectedRedirect, long limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("the number of creates must be at least 1, was " + limit);
        }
        this.apiKey = apiKey;
        this.expectedRedirect = expectedRedirect;
        this.limit = limit;
    }

    @Override
    public String name() {
        return "create";
    }

    /** How many creates were acknowledged so far. */
    public int acknowledged() {
        return acknowledged.size();
    }

    private String urlOf(long seq) {
        return "https://example.com/hotpath-bench/" + runId + "/" + seq;
    }

    @Override
    public Workload prepare(RunConfig config) {
        target = Target.of(config);
        return new Workload() {
            @Override
            public long next(SplittableRandom random) {
                long next = sequence.getAndIncrement();
                return next < limit ? next : NO_MORE;
            }

            @Override
            public void write(long tag, ByteBuf out) {
                out.writeBytes(Requests.postJson(target, "/api/links", apiKey, "{\"url\":\"" + urlOf(tag) + "\"}"));
            }

            @Override
            public Outcome check(long tag, Answer response) {
                if (response.status() != 201) {
                    return Outcome.UNEXPECTED_STATUS;
                }
                Links.Link link = Links.parseLink(response.bodyArray(), response.bodyLength());
                if (link == null || !link.longUrl().equals(urlOf(tag))
                    || !Links.locationOf(link.code()).equals(response.location())) {
                    return Outcome.MISMATCH;
                }
                return acknowledged.add(link.code(), tag) ? Outcome.OK : Outcome.MISMATCH;
            }

            @Override
            public String describe(long tag, Answer response) {
                Links.Link link = Links.parseLink(response.bodyArray(), response.bodyLength());
                if (response.status() == 201 && link != null && link.longUrl().equals(urlOf(tag))) {
                    if (!Links.locationOf(link.code()).equals(response.location())) {
                        return "POST /api/links for " + urlOf(tag) + " answered Location " + response.location()
                            + " for code " + link.code();
                    }
                    return "code " + link.code() + " was given twice (for " + urlOf(acknowledged.sequenceOf(link.code()))
                        + " and " + urlOf(tag) + ")";
                }
                return "POST /api/links for " + urlOf(tag) + ": status " + response.status() + ", body "
                    + response.bodyText(200);
            }
        };
    }

    @Override
    public Workload verification() {
        AcknowledgedCodes.Snapshot snapshot = acknowledged.snapshot();
        String[] codes = snapshot.codes();
        long[] seqs = snapshot.sequences();
        AtomicInteger next = new AtomicInteger();
        byte[] prefix = Requests.getPrefix();
        byte[] suffix = Requests.getSuffix(target);
        return new Workload() {
            @Override
            public long next(SplittableRandom random) {
                int i = next.getAndIncrement();
                return i < codes.length ? i : NO_MORE;
            }

            @Override
            public void write(long tag, ByteBuf out) {
                out.writeBytes(prefix).writeBytes(Requests.ascii("/" + codes[(int) tag])).writeBytes(suffix);
            }

            @Override
            public Outcome check(long tag, Answer response) {
                if (response.status() != expectedRedirect) {
                    return Outcome.UNEXPECTED_STATUS;
                }
                return Links.redirectsTo(response, Requests.ascii(urlOf(seqs[(int) tag]))) ? Outcome.OK : Outcome.MISMATCH;
            }

            @Override
            public String describe(long tag, Answer response) {
                return "acknowledged link " + codes[(int) tag] + " -> " + urlOf(seqs[(int) tag]) + " now answers "
                    + response.status() + " to " + response.location() + ", body " + response.bodyText(200);
            }
        };
    }
}
