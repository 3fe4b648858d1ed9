package dev.hotpath.loadgen.scenario;

import dev.hotpath.loadgen.Answer;
import dev.hotpath.loadgen.RunConfig;
import dev.hotpath.loadgen.Scenario;
import dev.hotpath.loadgen.Workload;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * {@code GET /ping} (or another path): every answer must be 200 with exactly the expected body
 * ({@code pong} by default): a server that answers the status right and the bytes wrong fails. The
 * engine's baseline; the check compares in place and allocates nothing.
 */
public final class PingScenario implements Scenario {
    private final String path;
    private final byte[] expectedBody;

    /** @param expectedBody the whole body every answer must carry, as UTF-8 */
    public PingScenario(String path, String expectedBody) {
        this.path = path;
        this.expectedBody = expectedBody.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String name() {
        return "ping";
    }

    @Override
    public Workload prepare(RunConfig config) {
        Target target = Target.of(config);
        byte[] request = Requests.ascii("GET " + path + " HTTP/1.1\r\nHost: " + target.authority() + "\r\n\r\n");
        return new Workload() {
            @Override
            public long next(SplittableRandom random) {
                return 0;
            }

            @Override
            public void write(long tag, ByteBuf out) {
                out.writeBytes(request);
            }

            @Override
            public Outcome check(long tag, Answer response) {
                if (response.status() != 200) {
                    return Outcome.UNEXPECTED_STATUS;
                }
                return response.bodyEquals(expectedBody) ? Outcome.OK : Outcome.MISMATCH;
            }
        };
    }
}
