package dev.hotpath.loadgen.scenario;

import dev.hotpath.loadgen.Answer;
import dev.hotpath.loadgen.RunConfig;
import dev.hotpath.loadgen.Scenario;
import dev.hotpath.loadgen.Workload;
import io.netty.buffer.ByteBuf;
import java.util.SplittableRandom;

/** {@code GET /ping} (or another path): every answer must be 200. The engine's baseline. */
public final class PingScenario implements Scenario {
    private final String path;

    public PingScenario(String path) {
        this.path = path;
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
                return response.status() == 200 ? Outcome.OK : Outcome.UNEXPECTED_STATUS;
            }
        };
    }
}
