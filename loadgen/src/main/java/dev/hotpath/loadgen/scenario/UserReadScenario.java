package dev.hotpath.loadgen.scenario;

import dev.hotpath.loadgen.Answer;
import dev.hotpath.loadgen.RunConfig;
import dev.hotpath.loadgen.Scenario;
import dev.hotpath.loadgen.Workload;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * S2 of the engine comparison ({@code users-get}): {@code GET /api/users/{id}} with a bearer token,
 * ids uniform over the preloaded 1 to 10,000. Every answer must be 200 with exactly the user's JSON,
 * byte for byte. The tag is the id.
 *
 * <p>Cost: {@link #prepare} builds every id's digits and expected body once (about 1.2 MB for the
 * 10,000 users), so writing a request is three copies and checking one is a byte comparison in place:
 * nothing is allocated per request.
 */
public final class UserReadScenario implements Scenario {
    /** The token every server of the comparison accepts unless told otherwise. */
    public static final String DEFAULT_TOKEN = "test-token-aaaaaaaaaaaaaaaaaaaa";

    private final String token;

    /** @param token the bearer token the server was started with */
    public UserReadScenario(String token) {
        this.token = token;
    }

    @Override
    public String name() {
        return "users-get";
    }

    @Override
    public Workload prepare(RunConfig config) {
        Target target = Target.of(config);
        byte[][] ids = new byte[Users.PRELOADED + 1][];
        byte[][] bodies = new byte[Users.PRELOADED + 1][];
        for (int id = 1; id <= Users.PRELOADED; id++) {
            ids[id] = Requests.ascii(Integer.toString(id));
            bodies[id] = Users.preloaded(id).getBytes(StandardCharsets.UTF_8);
        }
        byte[] prefix = Requests.ascii("GET /api/users/");
        byte[] suffix = Requests.getSuffix(target, token);
        return new Workload() {
            @Override
            public long next(SplittableRandom random) {
                return 1 + random.nextInt(Users.PRELOADED);
            }

            @Override
            public void write(long tag, ByteBuf out) {
                out.writeBytes(prefix).writeBytes(ids[(int) tag]).writeBytes(suffix);
            }

            @Override
            public Outcome check(long tag, Answer response) {
                if (response.status() != 200) {
                    return Outcome.UNEXPECTED_STATUS;
                }
                return response.bodyEquals(bodies[(int) tag]) ? Outcome.OK : Outcome.MISMATCH;
            }

            @Override
            public String describe(long tag, Answer response) {
                return "GET /api/users/" + tag + " expected 200 " + Users.preloaded(tag) + ", got " + response.status()
                    + " " + response.bodyText(200);
            }
        };
    }
}
