package dev.hotpath.loadgen.scenario;

import dev.hotpath.loadgen.Answer;
import dev.hotpath.loadgen.RunConfig;
import dev.hotpath.loadgen.Scenario;
import dev.hotpath.loadgen.Workload;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * S3 and S4 of the engine comparison ({@code users-mix}; the two differ in the server's store, not in
 * the load): the rest (80%) reads as {@link UserReadScenario} sends and checks them,
 * {@value #PAGE_PERCENT}% {@code GET /api/users?limit=20}, which must be 200 with exactly users 1 to
 * 20 and {@code "next":20}, and {@value #CREATE_PERCENT}% {@code POST /api/users} with a name and email
 * of their own, which must be 201 with one user object: an id above the preloaded ones that no other
 * answer of the run gave, the name and email sent, and a {@code created_at} in whole UTC seconds.
 * The kind rides in the top bits of the tag.
 *
 * <p>Cost: reads and pages compare bytes built once; a create allocates its request and is parsed with
 * Jackson, and its id is kept in {@link AcknowledgedCodes} (packed in a long, no object per create) to
 * refuse an id given twice.
 */
public final class UsersMixScenario implements Scenario {
    static final int PAGE_PERCENT = 15;
    static final int CREATE_PERCENT = 5;
    private static final int KIND_SHIFT = 56;
    private static final long INNER = (1L << KIND_SHIFT) - 1;
    private static final int READ = 0;
    private static final int PAGE = 1;
    private static final int CREATE = 2;

    private final UserReadScenario reads;
    private final String token;
    private final String runId = Long.toString(System.nanoTime(), 36);
    private final AtomicLong sequence = new AtomicLong();
    private final AcknowledgedCodes createdIds = new AcknowledgedCodes();

    /** @param token the bearer token the server was started with */
    public UsersMixScenario(String token) {
        this.reads = new UserReadScenario(token);
        this.token = token;
    }

    @Override
    public String name() {
        return "users-mix";
    }

    private String nameOf(long seq) {
        return "bench-" + runId + "-" + seq;
    }

    private String emailOf(long seq) {
        return nameOf(seq) + "@example.com";
    }

    @Override
    public Workload prepare(RunConfig config) {
        Workload read = reads.prepare(config);
        Target target = Target.of(config);
        byte[] pageRequest = Requests.ascii("GET /api/users?limit=" + Users.PAGE + Requests.text(Requests.getSuffix(target, token)));
        byte[] pageBody = Users.firstPage().getBytes(StandardCharsets.UTF_8);
        return new Workload() {
            @Override
            public long next(SplittableRandom random) {
                int roll = random.nextInt(100);
                if (roll < CREATE_PERCENT) {
                    return (long) CREATE << KIND_SHIFT | sequence.getAndIncrement();
                }
                if (roll < CREATE_PERCENT + PAGE_PERCENT) {
                    return (long) PAGE << KIND_SHIFT;
                }
                return read.next(random);
            }

            @Override
            public void write(long tag, ByteBuf out) {
                switch (kind(tag)) {
                    case CREATE -> out.writeBytes(Requests.postJson(target, "/api/users", token,
                        "{\"name\":\"" + nameOf(tag & INNER) + "\",\"email\":\"" + emailOf(tag & INNER) + "\"}"));
                    case PAGE -> out.writeBytes(pageRequest);
                    default -> read.write(tag, out);
                }
            }

            @Override
            public Outcome check(long tag, Answer response) {
                return switch (kind(tag)) {
                    case CREATE -> {
                        if (response.status() != 201) {
                            yield Outcome.UNEXPECTED_STATUS;
                        }
                        long id = Users.createdId(response, nameOf(tag & INNER), emailOf(tag & INNER));
                        yield id > 0 && createdIds.add(Long.toString(id), tag & INNER) ? Outcome.OK : Outcome.MISMATCH;
                    }
                    case PAGE -> response.status() != 200 ? Outcome.UNEXPECTED_STATUS
                        : response.bodyEquals(pageBody) ? Outcome.OK : Outcome.MISMATCH;
                    default -> read.check(tag, response);
                };
            }

            @Override
            public String describe(long tag, Answer response) {
                return switch (kind(tag)) {
                    case CREATE -> describeCreate(tag & INNER, response);
                    case PAGE -> "GET /api/users?limit=" + Users.PAGE + " expected 200 with users 1 to " + Users.PAGE
                        + " and \"next\":" + Users.PAGE + ", got " + response.status() + " " + response.bodyText(400);
                    default -> read.describe(tag, response);
                };
            }
        };
    }

    private String describeCreate(long seq, Answer response) {
        long id = Users.createdId(response, nameOf(seq), emailOf(seq));
        String request = "POST /api/users for " + nameOf(seq);
        if (response.status() == 201 && id > 0) {
            return request + " answered id " + id + ", already given for " + nameOf(createdIds.sequenceOf(Long.toString(id)));
        }
        return request + " expected 201 with an id above " + Users.PRELOADED + ", that name and email and created_at "
            + TimeText.SECONDS + ", got " + response.status() + " " + response.bodyText(200);
    }

    private static int kind(long tag) {
        return (int) (tag >>> KIND_SHIFT);
    }
}
