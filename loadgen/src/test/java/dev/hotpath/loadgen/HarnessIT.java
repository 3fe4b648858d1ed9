package dev.hotpath.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.apps.messages.MessagesApp;
import dev.hotpath.apps.messages.MessagesConfig;
import dev.hotpath.apps.shortener.ShortenerApp;
import dev.hotpath.apps.shortener.ShortenerConfig;
import dev.hotpath.apps.social.SocialApp;
import dev.hotpath.apps.social.SocialConfig;
import dev.hotpath.apps.social.SocialSeed;
import dev.hotpath.apps.social.Tokens;
import dev.hotpath.http.HttpServer;
import dev.hotpath.http.ServerConfig;
import dev.hotpath.loadgen.scenario.CreateScenario;
import dev.hotpath.loadgen.scenario.MessagesScenario;
import dev.hotpath.loadgen.scenario.MixedScenario;
import dev.hotpath.loadgen.scenario.PingScenario;
import dev.hotpath.loadgen.scenario.RedirectScenario;
import dev.hotpath.loadgen.scenario.SocialScenario;
import dev.hotpath.store.Durability;
import dev.hotpath.store.SqliteDatabase;
import io.netty.buffer.ByteBuf;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The harness against servers that behave and servers that misbehave on purpose: it must fail closed. */
class HarnessIT {
    private static final String HOST = "127.0.0.1";
    /**
     * A bound on the generator's lateness that no stall of a loaded CI machine reaches: the runs that use
     * it test what is sent, answered and checked, and a GC pause or a descheduled thread must not fail
     * them. That a late generator fails a run is tested on its own
     * ({@code namesItselfAsTheBottleneckWhenItCannotKeepTheSchedule}).
     */
    private static final double ANY_LATENESS_MILLIS = 60_000;

    @TempDir
    Path dir;

    @Test
    void countsADeepPipelineExactlyAndPasses() throws Exception {
        try (ShortenerFixture server = new ShortenerFixture(ShortenerFixture.Fault.NONE)) {
            RunResult result = LoadRun.run(RunConfig.saturate(HOST, server.port(), 4, 64, Duration.ofMillis(500)),
                new PingScenario("/ping", "pong"), Progress.NONE);
            assertThat(result.verdict().reasons()).isEmpty();
            assertThat(result.verdict().pass()).isTrue();
            assertThat(result.measured().ok()).isEqualTo(server.requests.get()).isEqualTo(result.measured().attempted());
            assertThat(result.measured().ok() % 64).isZero();
            assertThat(result.measured().latency().count()).isEqualTo(result.measured().ok());
        }
    }

    @Test
    void tellsTheMeasuredPeriodItsStartAndEndOnceEachInOrder() throws Exception {
        try (ShortenerFixture server = new ShortenerFixture(ShortenerFixture.Fault.NONE)) {
            List<String> marks = new java.util.concurrent.CopyOnWriteArrayList<>();
            MeasuredPeriod period = new MeasuredPeriod() {
                @Override
                public void started() {
                    marks.add("started");
                }

                @Override
                public void ended() {
                    marks.add("ended");
                }
            };
            RunResult result = LoadRun.run(RunConfig.saturate(HOST, server.port(), 2, 1, Duration.ofMillis(300)),
                new PingScenario("/ping", "pong"), Progress.NONE, period);
            assertThat(result.verdict().pass()).isTrue();
            assertThat(marks).containsExactly("started", "ended");
        }
    }

    @Test
    void sendsExactlyOneRequestAtOnePerSecondForOneSecond() throws Exception {
        try (ShortenerFixture server = new ShortenerFixture(ShortenerFixture.Fault.NONE)) {
            RunResult result = LoadRun.run(RunConfig.rate(HOST, server.port(), 1, 4, Duration.ofSeconds(1))
                    .withMaxGeneratorLag(ANY_LATENESS_MILLIS), new PingScenario("/ping", "pong"), Progress.NONE);
            assertThat(result.planned()).isEqualTo(1);
            assertThat(result.measured().attempted()).isEqualTo(1);
            assertThat(server.requests.get()).isEqualTo(1);
            assertThat(result.verdict().reasons()).isEmpty();
        }
    }

    @Test
    void runsEachVirtualUserOnItsOwnConnectionOneRequestAtATime() throws Exception {
        try (ShortenerFixture server = new ShortenerFixture(ShortenerFixture.Fault.NONE)) {
            UsersModel model = new UsersModel(Duration.ofMillis(300), Duration.ZERO, Duration.ofSeconds(30), Duration.ofSeconds(30));
            RunResult result = LoadRun.run(RunConfig.users(HOST, server.port(), 50, Duration.ofMillis(500), model)
                .withMaxGeneratorLag(ANY_LATENESS_MILLIS), new PingScenario("/ping", "pong"), Progress.NONE);
            assertThat(result.verdict().reasons()).isEmpty();
            assertThat(result.measured().ok()).isEqualTo(50).isEqualTo(server.requests.get());
        }
    }

    @Test
    void failsAUsersRunOverItsErrorBudget() throws Exception {
        try (ShortenerFixture server = new ShortenerFixture(ShortenerFixture.Fault.ALL_500)) {
            UsersModel model = new UsersModel(Duration.ZERO, Duration.ZERO, Duration.ofSeconds(30), Duration.ofSeconds(30));
            RunConfig base = RunConfig.users(HOST, server.port(), 10, Duration.ofMillis(200), model);
            RunConfig config = new RunConfig(base.host(), base.port(), Mode.USERS, 0, 10, 1, 0, Duration.ZERO, base.duration(),
                base.drainTimeout(), 1, 1000.0, 500.0, 0.01, base.maxGeneratorLagMillis(), model);
            RunResult result = LoadRun.run(config, new PingScenario("/ping", "pong"), Progress.NONE);
            assertThat(result.measured().unexpectedStatus()).isEqualTo(10);
            assertThat(result.verdict().pass()).isFalse();
            assertThat(result.verdict().reasons()).anyMatch(r -> r.startsWith("error rate 1.0000 above --max-error-rate"));
        }
    }

    @Test
    void runsTheSocialJourneysAgainstTheRealSocialAppAndChecksEveryShape() throws Exception {
        Path db = dir.resolve("social.db");
        SocialSeed.generate(db, new SocialSeed.Size(30, 200), 4);
        byte[] secret = "twelve-dollar-challenge".getBytes(StandardCharsets.UTF_8);
        SocialApp app = SocialApp.open(
            new SocialConfig(db, secret, Durability.NORMAL, Clock.systemUTC(), false));
        HttpServer server = HttpServer.start(ServerConfig.of(new InetSocketAddress(HOST, 0)), app.routes());
        try {
            long now = System.currentTimeMillis() / 1000;
            List<String> tokens = new ArrayList<>();
            Tokens minter = new Tokens(secret);
            for (int user = 1; user <= 10; user++) {
                tokens.add(minter.mint(user, "bench_user_" + user, now, now + 3600));
            }
            UsersModel model = new UsersModel(Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO);
            RunResult result = LoadRun.run(RunConfig.users(HOST, server.port(), 20, Duration.ofSeconds(2), model)
                .withMaxGeneratorLag(ANY_LATENESS_MILLIS), new SocialScenario(tokens, SocialScenario.Mix.REALISTIC, 0.001),
                Progress.NONE);
            assertThat(result.verdict().reasons()).isEmpty();
            assertThat(result.measured().ok()).as("a user goes on past its first request").isGreaterThan(20);

            long postsBefore = count(db, "posts");
            long likesBefore = count(db, "likes");
            // The write-heavy mix likes every post read and posts every other loop: a few loops make both.
            RunResult closedLoop = LoadRun.run(RunConfig.saturate(HOST, server.port(), 8, 1, Duration.ofSeconds(2)),
                new SocialScenario(tokens, SocialScenario.Mix.WRITE_HEAVY, 1), Progress.NONE);
            assertThat(closedLoop.verdict().reasons()).isEmpty();
            assertThat(count(db, "posts")).as("the closed loop creates posts").isGreaterThan(postsBefore);
            assertThat(count(db, "likes")).as("and likes them").isGreaterThan(likesBefore);
        } finally {
            server.close(Duration.ofSeconds(5));
            app.close();
        }
        try (ShortenerFixture other = new ShortenerFixture(ShortenerFixture.Fault.NONE)) {
            UsersModel model = new UsersModel(Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO);
            RunResult wrongServer = LoadRun.run(RunConfig.users(HOST, other.port(), 2, Duration.ofMillis(300), model),
                new SocialScenario(List.of("a.eyJ1c2VybmFtZSI6InUifQ.c"), SocialScenario.Mix.REALISTIC, 0.001),
                Progress.NONE);
            assertThat(wrongServer.verdict().pass()).isFalse();
            assertThat(wrongServer.measured().unexpectedStatus()).isPositive();
        }
    }

    @Test
    void failsWhenTheScenarioItselfThrows() throws Exception {
        try (ShortenerFixture server = new ShortenerFixture(ShortenerFixture.Fault.NONE)) {
            java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
            Scenario broken = pingWithHook("broken", () -> {
                if (calls.incrementAndGet() > 3) {
                    throw new IllegalStateException("scenario bug");
                }
            });
            RunResult result = LoadRun.run(RunConfig.saturate(HOST, server.port(), 1, 1, Duration.ofSeconds(1)), broken,
                Progress.NONE);
            assertThat(result.measured().errors(ErrorKind.GENERATOR_ERROR)).isEqualTo(1);
            assertThat(result.verdict().pass()).isFalse();
            assertThat(result.firstError()).contains("scenario bug");
        }
    }

    @Test
    void spreadsConnectionsOverLoopbackSourceAddresses() {
        assertThat(LoadRun.sourceAddress(0).getHostAddress()).isEqualTo("127.0.0.2");
        assertThat(LoadRun.sourceAddress(19_999).getHostAddress()).isEqualTo("127.0.0.2");
        assertThat(LoadRun.sourceAddress(20_000).getHostAddress()).isEqualTo("127.0.0.3");
        assertThat(LoadRun.sourceAddress(100_000).getHostAddress()).isEqualTo("127.0.0.7");
    }

    @Test
    void failsWhenEveryAnswerIs500() throws Exception {
        try (ShortenerFixture server = new ShortenerFixture(ShortenerFixture.Fault.ALL_500)) {
            RunResult result = LoadRun.run(RunConfig.saturate(HOST, server.port(), 2, 1, Duration.ofMillis(200)),
                new PingScenario("/ping", "pong"), Progress.NONE);
            assertThat(result.verdict().pass()).isFalse();
            assertThat(result.measured().unexpectedStatus()).isEqualTo(server.faults.get()).isPositive();
            assertThat(result.verdict().reasons()).contains("no successful request");
            assertThat(result.firstError()).startsWith("unexpected status: status 500");
        }
    }

    @Test
    void catchesEveryWrongLocationOfOneInAThousand() throws Exception {
        try (ShortenerFixture server = new ShortenerFixture(ShortenerFixture.Fault.WRONG_LOCATION_EVERY_1000)) {
            RunResult result = LoadRun.run(RunConfig.saturate(HOST, server.port(), 8, 16, Duration.ofSeconds(2)),
                new RedirectScenario("key", 100, true, 302, null), Progress.NONE);
            assertThat(server.faults.get()).isPositive();
            assertThat(result.measured().mismatches() + result.warmup().mismatches()).isEqualTo(server.faults.get());
            assertThat(result.verdict().pass()).isFalse();
            assertThat(result.firstError()).contains("/wrong");
        }
    }

    @Test
    void failsWhenOnePingInAThousandAnswersPangInsteadOfPong() throws Exception {
        try (ShortenerFixture server = new ShortenerFixture(ShortenerFixture.Fault.PANG_EVERY_1000)) {
            RunResult result = LoadRun.run(RunConfig.saturate(HOST, server.port(), 4, 16, Duration.ofSeconds(1)),
                new PingScenario("/ping", "pong"), Progress.NONE);
            assertThat(server.faults.get()).isPositive();
            assertThat(result.measured().mismatches()).isEqualTo(server.faults.get());
            assertThat(result.verdict().pass()).isFalse();
            assertThat(result.firstError()).contains("pang");
        }
    }

    @Test
    void failsWhenOneRedirectInAThousandCarriesABody() throws Exception {
        try (ShortenerFixture server = new ShortenerFixture(ShortenerFixture.Fault.REDIRECT_BODY_EVERY_1000)) {
            RunResult result = LoadRun.run(RunConfig.saturate(HOST, server.port(), 8, 16, Duration.ofSeconds(1)),
                new RedirectScenario("key", 100, false, 302, null), Progress.NONE);
            assertThat(server.faults.get()).isPositive();
            assertThat(result.measured().mismatches()).isEqualTo(server.faults.get());
            assertThat(result.verdict().pass()).isFalse();
            assertThat(result.firstError()).contains("<a>moved</a>");
        }
    }

    @Test
    void failsWhenOneCreateInAHundredAnswersTheLocationOfAnotherLink() throws Exception {
        try (ShortenerFixture server = new ShortenerFixture(ShortenerFixture.Fault.WRONG_CREATED_LOCATION_EVERY_100)) {
            CreateScenario create = new CreateScenario("key", 302);
            RunResult result = LoadRun.run(RunConfig.saturate(HOST, server.port(), 4, 1, Duration.ofSeconds(1)), create,
                Progress.NONE);
            assertThat(server.faults.get()).isPositive();
            assertThat(result.measured().mismatches()).isEqualTo(server.faults.get());
            assertThat(result.verdict().pass()).isFalse();
            assertThat(result.firstError()).contains("answered Location /api/links/c1000 for code c100");
        }
    }

    @Test
    void failsWhenOneMissInAHundredIsNotTheApisNotFoundError() throws Exception {
        try (ShortenerFixture server = new ShortenerFixture(ShortenerFixture.Fault.FOREIGN_NOT_FOUND_EVERY_100)) {
            RunResult result = LoadRun.run(RunConfig.saturate(HOST, server.port(), 4, 4, Duration.ofSeconds(1)),
                new MixedScenario(new RedirectScenario("key", 100, false, 302, null), new CreateScenario("key", 302), 5, 30),
                Progress.NONE);
            assertThat(server.faults.get()).isPositive();
            assertThat(result.measured().mismatches()).isEqualTo(server.faults.get());
            assertThat(result.verdict().pass()).isFalse();
            assertThat(result.firstError()).contains("<h1>Not Found</h1>");
        }
    }

    @Test
    void failsWhenOneFeedInFiftyListsItsPostsOutOfOrder() throws Exception {
        try (SocialFixture server = new SocialFixture(50)) {
            RunResult result = LoadRun.run(RunConfig.saturate(HOST, server.port(), 8, 1, Duration.ofSeconds(1)),
                new SocialScenario(List.of("a.eyJ1c2VybmFtZSI6InUifQ.c"), SocialScenario.Mix.REALISTIC, 1), Progress.NONE);
            assertThat(server.faults.get()).isPositive();
            assertThat(result.measured().mismatches()).isEqualTo(server.faults.get());
            assertThat(result.verdict().pass()).isFalse();
            assertThat(result.firstError()).contains("GET /feed");
        }
    }

    @Test
    void failsWhenOneAcknowledgedMessageInAThousandIsNotStored() throws Exception {
        try (MessagesFixture server = new MessagesFixture(1000)) {
            MessagesScenario messages = new MessagesScenario("/message");
            RunResult result = LoadRun.run(RunConfig.saturate(HOST, server.port(), 4, 8, Duration.ofSeconds(1)), messages,
                Progress.NONE);
            assertThat(server.dropped.get()).as("messages dropped by the fixture").isPositive();
            assertThat(result.measured().mismatches()).isZero();
            assertThat(result.verification().unexpectedStatus()).isEqualTo(server.dropped.get());
            assertThat(result.verdict().pass()).isFalse();
            assertThat(result.firstError()).contains("now answers 404");
        }
    }

    @Test
    void passesAgainstAMessagesServerThatKeepsEveryMessage() throws Exception {
        try (MessagesFixture server = new MessagesFixture(0)) {
            MessagesScenario messages = new MessagesScenario("/message");
            RunResult result = LoadRun.run(RunConfig.saturate(HOST, server.port(), 4, 8, Duration.ofMillis(300)), messages,
                Progress.NONE);
            assertThat(result.verdict().reasons()).isEmpty();
            assertThat(result.verification().ok()).isEqualTo(messages.acknowledged()).isPositive();
        }
    }

    @Test
    void passesAgainstTheRealMessagesAppAndReadsBackEveryAcknowledgedMessage() throws Exception {
        PrometheusRegistry registry = new PrometheusRegistry();
        MessagesApp app = MessagesApp.open(new MessagesConfig(dir, Durability.NORMAL, MessagesConfig.MAX_BATCH,
            Clock.systemUTC()), registry);
        HttpServer server = HttpServer.start(ServerConfig.of(new InetSocketAddress(HOST, 0)).withMetrics(registry), app.routes());
        try {
            MessagesScenario messages = new MessagesScenario("/message");
            RunResult result = LoadRun.run(RunConfig.saturate(HOST, server.port(), 4, 8, Duration.ofMillis(500)), messages,
                Progress.NONE);
            assertThat(result.verdict().reasons()).isEmpty();
            assertThat(result.verification().ok()).isEqualTo(messages.acknowledged()).isEqualTo(result.measured().ok())
                .isPositive();
        } finally {
            server.close(Duration.ofSeconds(5));
            app.close();
        }
    }

    @Test
    void passesOnTheFastPathWhenMessagesBecomeReadableOnlyLaterAndReportsTheLag() throws Exception {
        try (MessagesFixture server = new MessagesFixture(0, 202, Duration.ofSeconds(5))) {
            MessagesScenario messages = new MessagesScenario("/message-fast", Duration.ofSeconds(60));
            RunResult result = LoadRun.run(RunConfig.saturate(HOST, server.port(), 2, 4, Duration.ofMillis(300)), messages,
                Progress.NONE);
            assertThat(result.verdict().reasons()).isEmpty();
            EndToEnd e = result.endToEnd();
            assertThat(e.found()).isEqualTo(e.acknowledged()).isEqualTo(messages.acknowledged())
                .isEqualTo(result.measured().ok()).isPositive();
            assertThat(e.missing()).isZero();
            assertThat(e.firstMissing()).isNull();
            assertThat(e.lag().count()).isEqualTo(e.found());
            // The last message acknowledged is readable 5 s after the fixture acknowledged it: the first pass
            // (a few hundred ms for a few thousand re-reads, even on a loaded machine) reaches it before then,
            // so it is found in a later pass, at least about 5 s after its 202.
            assertThat(e.passes()).isGreaterThanOrEqualTo(2);
            assertThat(e.lag().maxMillis()).isGreaterThan(4_000);
            assertThat(e.lag().millisAt(50)).isPositive().isLessThanOrEqualTo(e.lag().millisAt(99));
            assertThat(e.resolutionMillis()).isPositive();
            assertThat(result.verification().ok()).isEqualTo(e.found());
            assertThat(result.verification().unexpectedStatus() + result.verification().mismatches()).isZero();
            Locale before = Locale.getDefault();
            Locale.setDefault(Locale.GERMANY); // a decimal comma: the summary's figures must not follow it
            String summary;
            try {
                summary = ResultWriter.summary(result, result.verdict(), new ResultWriter.Provenance("cmd", "c", "m"));
            } finally {
                Locale.setDefault(before);
            }
            assertThat(summary)
                .contains("| End-to-end lag (acknowledged → found) | p50 ")
                .contains(String.format(Locale.ROOT, "%,d of %,d acknowledged", e.found(), e.acknowledged()))
                .containsPattern("max \\d+\\.\\d ms \\(upper bounds; re-read resolution \\d+\\.\\d ms\\)");
        }
    }

    @Test
    void failsOnTheFastPathWhenOneAcknowledgedMessageInAThousandIsNeverStored() throws Exception {
        try (MessagesFixture server = new MessagesFixture(1000, 202, Duration.ZERO)) {
            MessagesScenario messages = new MessagesScenario("/message-fast", Duration.ofMillis(500));
            RunResult result = LoadRun.run(RunConfig.saturate(HOST, server.port(), 4, 8, Duration.ofSeconds(1)), messages,
                Progress.NONE);
            assertThat(server.dropped.get()).as("messages dropped by the fixture").isPositive();
            assertThat(result.measured().problems()).isZero();
            EndToEnd e = result.endToEnd();
            assertThat(e.missing()).isEqualTo(server.dropped.get());
            assertThat(e.found()).isEqualTo(e.acknowledged() - server.dropped.get());
            assertThat(e.firstMissing()).startsWith(server.droppedIds.get(0));
            assertThat(result.verification().problems()).isZero();
            assertThat(result.verdict().pass()).isFalse();
            assertThat(result.verdict().reasons()).containsExactly(server.dropped.get()
                + " acknowledged writes still missing at the drain deadline of 0.5 s (first: " + e.firstMissing() + ")");
            assertThat(result.firstError()).contains(server.droppedIds.get(0));
        }
    }

    @Test
    void failsWhenTheFastPathAnswers201() throws Exception {
        try (MessagesFixture server = new MessagesFixture(0, 201, Duration.ZERO)) {
            RunResult result = LoadRun.run(RunConfig.saturate(HOST, server.port(), 2, 4, Duration.ofMillis(200)),
                new MessagesScenario("/message-fast"), Progress.NONE);
            assertThat(result.measured().unexpectedStatus()).isPositive().isEqualTo(result.measured().answered());
            assertThat(result.measured().ok()).isZero();
            assertThat(result.verdict().pass()).isFalse();
            assertThat(result.verdict().reasons()).contains(result.measured().unexpectedStatus() + " unexpected statuses");
            assertThat(result.firstError()).startsWith("unexpected status: POST /message-fast of message").contains("status 201");
        }
    }

    @Test
    void failsAgainstTheFastPathOfAMessagesAppWithoutAStream() throws Exception {
        PrometheusRegistry registry = new PrometheusRegistry();
        MessagesApp app = MessagesApp.open(new MessagesConfig(dir, Durability.NORMAL, 1, Clock.systemUTC()), registry);
        HttpServer server = HttpServer.start(ServerConfig.of(new InetSocketAddress(HOST, 0)), app.routes());
        try {
            RunResult result = LoadRun.run(RunConfig.saturate(HOST, server.port(), 1, 1, Duration.ofMillis(200)),
                new MessagesScenario("/message-fast"), Progress.NONE);
            assertThat(result.measured().unexpectedStatus()).isPositive().isEqualTo(result.measured().answered());
            assertThat(result.verdict().pass()).isFalse();
            assertThat(result.firstError()).contains("stream_unavailable");
        } finally {
            server.close(Duration.ofSeconds(5));
            app.close();
        }
    }

    @Test
    void createWithALimitSendsExactlyThatManyAndEndsTheRunOnceTheyAreAnswered() throws Exception {
        try (ShortenerFixture server = new ShortenerFixture(ShortenerFixture.Fault.NONE)) {
            CreateScenario create = new CreateScenario("key", 302, 1000);
            RunResult result = LoadRun.run(RunConfig.saturate(HOST, server.port(), 4, 2, Duration.ofSeconds(60)), create,
                Progress.NONE);
            assertThat(result.verdict().reasons()).isEmpty();
            assertThat(result.measured().attempted()).isEqualTo(1000);
            assertThat(result.measured().ok()).isEqualTo(1000);
            assertThat(create.acknowledged()).isEqualTo(1000);
            assertThat(result.verification().ok()).isEqualTo(1000);
            // The measured period is the time the creates took, not the 60 s bound, so req/s is theirs.
            assertThat(result.measuredSeconds()).isLessThan(60);
            assertThat(result.rps()).isEqualTo(1000 / result.measuredSeconds());
        }
    }

    @Test
    void failsOnDuplicateCodesFromCreate() throws Exception {
        try (ShortenerFixture server = new ShortenerFixture(ShortenerFixture.Fault.DUPLICATE_CODES)) {
            RunResult result = LoadRun.run(RunConfig.saturate(HOST, server.port(), 2, 1, Duration.ofMillis(300)),
                new CreateScenario("key", 302), Progress.NONE);
            assertThat(result.measured().mismatches()).isEqualTo(server.faults.get()).isPositive();
            assertThat(result.verdict().pass()).isFalse();
            assertThat(result.firstError()).contains("was given twice");
        }
    }

    @Test
    void reportsDropsLagAndTimeoutsAgainstAServerThatDoesNotAnswerInRateMode() throws Exception {
        try (ShortenerFixture server = new ShortenerFixture(ShortenerFixture.Fault.SILENT)) {
            RunConfig config = RunConfig.rate(HOST, server.port(), 100, 1, Duration.ofSeconds(1)).withQueue(2)
                .withDrainTimeout(Duration.ofMillis(200));
            RunResult result = LoadRun.run(config, new CreateScenario("key", 302), Progress.NONE);
            assertThat(result.planned()).isEqualTo(100);
            assertThat(result.measured().attempted()).isEqualTo(1);
            assertThat(result.measured().dropped()).isEqualTo(99);
            assertThat(result.measured().errors(ErrorKind.TIMEOUT)).isEqualTo(1);
            assertThat(result.verdict().pass()).isFalse();
            assertThat(result.verdict().reasons()).contains("99 requests dropped (per-connection queue full)",
                "attempted 1 of 100 planned requests", "1 timeout errors");
        }
    }

    /**
     * Rate mode, pipeline 1: the server holds its answer to the first create until the schedule has
     * ended, so the other nine arrivals wait in the connection's queue past the end. They were planned
     * before the end, so they are still sent (and answered), not dropped at the drain deadline.
     */
    @Test
    void sendsWhatIsStillQueuedWhenTheScheduleEnds() throws Exception {
        try (ShortenerFixture server = new ShortenerFixture(ShortenerFixture.Fault.HELD_UNTIL_RELEASED)) {
            MeasuredPeriod releaseAtTheEnd = new MeasuredPeriod() {
                @Override
                public void started() {
                }

                @Override
                public void ended() {
                    server.release();
                }
            };
            RunResult result = LoadRun.run(RunConfig.rate(HOST, server.port(), 10, 1, Duration.ofSeconds(1)),
                new CreateScenario("key", 302), Progress.NONE, releaseAtTheEnd);
            assertThat(result.planned()).isEqualTo(10);
            assertThat(result.measured().dropped()).as(result.verdict().reasons().toString()).isZero();
            assertThat(result.measured().attempted()).isEqualTo(10);
            assertThat(result.measured().ok()).isEqualTo(10);
        }
    }

    @Test
    void failsWhenTheServerClosesConnectionsAtRandom() throws Exception {
        try (ClosingServerFixture server = new ClosingServerFixture()) {
            RunResult result = LoadRun.run(RunConfig.saturate(HOST, server.port(), 8, 4, Duration.ofSeconds(1)),
                new PingScenario("/ping", "pong"), Progress.NONE);
            assertThat(server.closes.get()).isPositive();
            assertThat(result.measured().errors(ErrorKind.CONNECTION_CLOSED)).isPositive();
            assertThat(result.verdict().pass()).isFalse();
        }
    }

    @Test
    void failsWhenNothingListens() throws Exception {
        int port;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName(HOST))) {
            port = socket.getLocalPort();
        }
        RunResult result = LoadRun.run(RunConfig.saturate(HOST, port, 2, 1, Duration.ofMillis(100)),
            new PingScenario("/ping", "pong"), Progress.NONE);
        assertThat(result.measured().errors(ErrorKind.CONNECT_FAILED)).isEqualTo(2);
        assertThat(result.verdict().pass()).isFalse();
    }

    @Test
    void namesItselfAsTheBottleneckWhenItCannotKeepTheSchedule() throws Exception {
        Locale before = Locale.getDefault();
        Locale.setDefault(Locale.GERMANY); // a decimal comma: the verdict's figures must not follow it
        try (ShortenerFixture server = new ShortenerFixture(ShortenerFixture.Fault.NONE)) {
            Scenario slowGenerator = pingWithHook("slow-generator", () -> {
                long until = System.nanoTime() + 2_000_000;
                while (System.nanoTime() < until) {
                    Thread.onSpinWait();
                }
            });
            RunResult result = LoadRun.run(RunConfig.rate(HOST, server.port(), 1000, 4, Duration.ofSeconds(1)),
                slowGenerator, Progress.NONE);
            assertThat(result.verdict().pass()).isFalse();
            assertThat(result.verdict().reasons()).anyMatch(r -> r.startsWith("the generator is the bottleneck")
                && r.endsWith(" ms is over 5.00 ms"));
        } finally {
            Locale.setDefault(before);
        }
    }

    @Test
    void passesAgainstTheRealShortenerAndVerifiesEveryAcknowledgedCreate() throws Exception {
        PrometheusRegistry registry = new PrometheusRegistry();
        ShortenerApp app = ShortenerApp.open(new ShortenerConfig(dir, "http://127.0.0.1", "scrambled", Durability.NORMAL,
            100_000, 256, 302, Set.of(), null, true, Clock.systemUTC()), registry);
        HttpServer server = HttpServer.start(ServerConfig.of(new InetSocketAddress(HOST, 0)).withMetrics(registry), app.routes());
        try {
            String key = Files.readString(app.createdKeyFile()).strip();
            Path linksFile = dir.resolve("links.tsv");
            RunResult redirects = LoadRun.run(RunConfig.saturate(HOST, server.port(), 4, 8, Duration.ofMillis(500)),
                new RedirectScenario(key, 500, true, 302, linksFile), Progress.NONE);
            assertThat(redirects.verdict().reasons()).isEmpty();
            assertThat(redirects.measured().ok()).isPositive();
            assertThat(Files.readAllLines(linksFile)).hasSize(500);
            RunResult reused = LoadRun.run(RunConfig.saturate(HOST, server.port(), 4, 8, Duration.ofMillis(300)),
                new RedirectScenario("not-needed-when-reusing", 200, false, 302, linksFile), Progress.NONE);
            assertThat(reused.verdict().reasons()).isEmpty();
            assertThat(app.links()).isEqualTo(500);

            CreateScenario mixedCreates = new CreateScenario(key, 302);
            RunResult mixed = LoadRun.run(RunConfig.saturate(HOST, server.port(), 4, 4, Duration.ofMillis(500)),
                new MixedScenario(new RedirectScenario(key, 200, false, 302, linksFile), mixedCreates, 5, 10), Progress.NONE);
            assertThat(mixed.verdict().reasons()).isEmpty();
            assertThat(mixedCreates.acknowledged()).isPositive().isLessThan((int) mixed.measured().ok());
            assertThat(mixed.verification().ok()).isEqualTo(mixedCreates.acknowledged());

            CreateScenario create = new CreateScenario(key, 302);
            RunResult creates = LoadRun.run(RunConfig.saturate(HOST, server.port(), 4, 1, Duration.ofMillis(500)),
                create, Progress.NONE);
            assertThat(creates.verdict().reasons()).isEmpty();
            assertThat(creates.verification().ok()).isEqualTo(create.acknowledged()).isEqualTo(creates.measured().ok());

            Path out = ResultWriter.directoryFor(dir.resolve("results"), creates);
            ResultWriter.write(out, creates, new ResultWriter.Provenance("hotpath bench create", "abc", "test machine"));
            assertThat(Files.readString(out.resolve("result.json"))).contains("\"verdict\" : \"PASS\"", "\"checked\" : ",
                "\"generator_gc_pauses\" : {");
            assertThat(Files.readString(out.resolve("summary.md"))).startsWith("# PASS: create, saturate")
                .contains("| Generator GC pauses | ");
            assertThat(Files.readString(out.resolve("latency.hgrm"))).contains("Value     Percentile");
            assertThat(Files.readString(out.resolve("report.html"))).contains("<table class=\"summary\">", "PASS: create",
                "<script type=\"application/json\" class=\"chart-data\">");

            // A command that judges by more than the harness (the social score's rate check) saves its verdict.
            Verdict stricter = creates.verdict().with(List.of("the command's own check failed"));
            assertThat(creates.verdict().with(List.of())).isEqualTo(creates.verdict());
            Path judged = ResultWriter.directoryFor(dir.resolve("results"), creates);
            ResultWriter.write(judged, creates, stricter, new ResultWriter.Provenance("hotpath bench create", "abc", "test machine"));
            assertThat(Files.readString(judged.resolve("result.json"))).contains("\"verdict\" : \"FAIL\"",
                "the command's own check failed");
            assertThat(Files.readString(judged.resolve("summary.md"))).startsWith("# FAIL: create, saturate")
                .contains("the command's own check failed");
        } finally {
            server.close(Duration.ofSeconds(5));
            app.close();
        }
    }

    /** The ping scenario with {@code hook} run before choosing each request: to make a generator slow or broken. */
    private static Scenario pingWithHook(String name, Runnable hook) {
        return new Scenario() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public Workload prepare(RunConfig config) {
                Workload ping = new PingScenario("/ping", "pong").prepare(config);
                return new Workload() {
                    @Override
                    public long next(SplittableRandom random) {
                        hook.run();
                        return ping.next(random);
                    }

                    @Override
                    public void write(long tag, ByteBuf out) {
                        ping.write(tag, out);
                    }

                    @Override
                    public Outcome check(long tag, Answer response) {
                        return ping.check(tag, response);
                    }
                };
            }
        };
    }

    private static long count(Path db, String table) throws SQLException {
        try (Connection c = SqliteDatabase.open(db);
             ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
