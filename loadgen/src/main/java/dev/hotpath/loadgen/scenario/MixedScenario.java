package dev.hotpath.loadgen.scenario;

import dev.hotpath.loadgen.Answer;
import dev.hotpath.loadgen.RunConfig;
import dev.hotpath.loadgen.Scenario;
import dev.hotpath.loadgen.Workload;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.util.SplittableRandom;

/**
 * The shortener's day: mostly redirects of seeded links, some authenticated creates, some misses
 * (by default 94 : 5 : 1, the mix behind "100 million requests a day"). Each request is checked as
 * its own scenario checks it (exact {@code Location}, no body; 201 with a fresh code and its
 * {@code Location}; a miss 404 with the API's {@code not_found} error object), and every acknowledged
 * create is verified after the run. The kind rides in the top bits of the tag.
 */
public final class MixedScenario implements Scenario {
    private static final int KIND_SHIFT = 56;
    private static final long INNER = (1L << KIND_SHIFT) - 1;
    private static final int REDIRECT = 0;
    private static final int CREATE = 1;
    private static final int MISS = 2;
    private static final int MISS_PATHS = 1024;

    private final RedirectScenario redirects;
    private final CreateScenario creates;
    private final int createPercent;
    private final int missPercent;

    /**
     * @param createPercent share of creates, 0..100
     * @param missPercent share of requests for codes that do not exist, 0..100; the rest are redirects
     */
    public MixedScenario(RedirectScenario redirects, CreateScenario creates, int createPercent, int missPercent) {
        if (createPercent < 0 || missPercent < 0 || createPercent + missPercent > 100) {
            throw new IllegalArgumentException("--create-percent and --miss-percent must be 0..100 and add up to at most 100");
        }
        this.redirects = redirects;
        this.creates = creates;
        this.createPercent = createPercent;
        this.missPercent = missPercent;
    }

    @Override
    public String name() {
        return "mixed";
    }

    @Override
    public Workload prepare(RunConfig config) throws IOException {
        Workload redirect = redirects.prepare(config);
        Workload create = creates.prepare(config);
        Target target = Target.of(config);
        byte[][] missRequests = new byte[MISS_PATHS][];
        for (int i = 0; i < MISS_PATHS; i++) {
            // A '-' is never in a generated code, and the run creates no alias.
            missRequests[i] = Requests.ascii("GET /hotpath-miss-" + i + " HTTP/1.1\r\nHost: " + target.authority() + "\r\n\r\n");
        }
        return new Workload() {
            @Override
            public long next(SplittableRandom random) {
                int roll = random.nextInt(100);
                if (roll < createPercent) {
                    return (long) CREATE << KIND_SHIFT | create.next(random);
                }
                if (roll < createPercent + missPercent) {
                    return (long) MISS << KIND_SHIFT | random.nextInt(MISS_PATHS);
                }
                return redirect.next(random);
            }

            @Override
            public void write(long tag, ByteBuf out) {
                switch (kind(tag)) {
                    case CREATE -> create.write(tag & INNER, out);
                    case MISS -> out.writeBytes(missRequests[(int) (tag & INNER)]);
                    default -> redirect.write(tag, out);
                }
            }

            @Override
            public Outcome check(long tag, Answer response) {
                return switch (kind(tag)) {
                    case CREATE -> create.check(tag & INNER, response);
                    case MISS -> response.status() != 404 ? Outcome.UNEXPECTED_STATUS
                        : "not_found".equals(Links.errorCode(response)) ? Outcome.OK : Outcome.MISMATCH;
                    default -> redirect.check(tag, response);
                };
            }

            @Override
            public String describe(long tag, Answer response) {
                return switch (kind(tag)) {
                    case CREATE -> create.describe(tag & INNER, response);
                    case MISS -> "GET of a code that does not exist: expected 404 not_found, got " + response.status()
                        + " " + response.bodyText(200);
                    default -> redirect.describe(tag, response);
                };
            }
        };
    }

    private static int kind(long tag) {
        return (int) (tag >>> KIND_SHIFT);
    }

    @Override
    public Workload verification() {
        return creates.verification();
    }
}
