package dev.hotpath.cli;

import dev.hotpath.loadgen.Scenario;
import dev.hotpath.loadgen.scenario.PingScenario;
import dev.hotpath.loadgen.scenario.UserReadScenario;
import dev.hotpath.loadgen.scenario.UsersMixScenario;
import java.util.Arrays;

/**
 * The scenarios of {@code hotpath bench engines} ({@code docs/ENGINES.md}): the load each sends, how
 * deep each connection pipelines, whether the servers keep their users in SQLite, and whether a
 * constant-rate run at 0.7× of the measured saturation follows the saturation probe (p64 measures a
 * ceiling only).
 */
enum EngineScenario {
    S1("s1", "GET /ping", 1, false, true),
    S2("s2", "GET /api/users/{id} through access log, request id and bearer auth", 1, false, true),
    S3("s3", "80% read, 15% page, 5% create, users in memory", 1, false, true),
    S4("s4", "the S3 mix on SQLite", 1, true, true),
    P64("p64", "GET /ping, 64 pipelined per connection: the socket path's ceiling", 64, false, false);

    final String id;
    final String title;
    final int pipeline;
    final boolean sqlite;
    final boolean rateRun;

    EngineScenario(String id, String title, int pipeline, boolean sqlite, boolean rateRun) {
        this.id = id;
        this.title = title;
        this.pipeline = pipeline;
        this.sqlite = sqlite;
        this.rateRun = rateRun;
    }

    /** A fresh load of this scenario (scenarios keep what they created, so every run needs its own). */
    Scenario load(String token) {
        return switch (this) {
            case S1, P64 -> new PingScenario("/ping", "pong");
            case S2 -> new UserReadScenario(token);
            case S3, S4 -> new UsersMixScenario(token);
        };
    }

    /** The scenario called {@code id}, or null. */
    static EngineScenario of(String id) {
        return Arrays.stream(values()).filter(s -> s.id.equals(id)).findFirst().orElse(null);
    }
}
