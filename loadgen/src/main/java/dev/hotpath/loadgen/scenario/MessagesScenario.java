package dev.hotpath.loadgen.scenario;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.hotpath.loadgen.Answer;
import dev.hotpath.loadgen.Readback;
import dev.hotpath.loadgen.RunConfig;
import dev.hotpath.loadgen.Scenario;
import dev.hotpath.loadgen.Workload;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Messages service creates ({@code docs/MESSAGES.md}): {@code POST --path} (default {@code /message}),
 * each a fresh valid message of its own (from this run's sender to one of 1,000 recipients, a text
 * with its sequence number and non-ASCII characters, so UTF-8 is checked end to end).
 *
 * <p>An answer is right when it is 201 with exactly the keys {@code id, from, to, message, created_at}
 * in that order, all strings: the fields sent, a UUIDv7 id in canonical lowercase form that no earlier
 * answer gave (a duplicate is a mismatch), and {@code created_at} as {@code YYYY-MM-DDTHH:MM:SS.mmmZ}.
 * After the run every acknowledged id is asked for with {@code GET /messages/{id}} and must answer 200
 * with the same message and the same {@code created_at}: an acknowledged message that is missing or
 * different fails the run.
 *
 * <p>{@code --path /message-fast} (the stream path) acknowledges before the message is stored: an answer
 * is right when it is {@code 202} with the same message object, and after the run the acknowledged ids
 * are re-read in passes ({@link #readback()}) until each is found or the drain deadline has passed; one
 * still missing then fails the run.
 */
public final class MessagesScenario implements Scenario {
    /** Recipients the messages go to, in turn. */
    static final int RECIPIENTS = 1000;
    private static final String[] KEYS = {"id", "from", "to", "message", "created_at"};

    /** The route that acknowledges with 202 before the message is stored. */
    public static final String FAST_PATH = "/message-fast";
    /** How long after the run the re-reads of the fast path may still not find a message, by default. */
    public static final Duration DEFAULT_DRAIN_DEADLINE = Duration.ofSeconds(30);

    private final String path;
    private final boolean fast;
    private final int expectedStatus;
    private final Duration drainDeadline;
    private final String runId = Long.toString(System.nanoTime(), 36);
    private final AtomicLong sequence = new AtomicLong();
    private final AcknowledgedMessages acknowledged = new AcknowledgedMessages();
    private Target target;

    /** @param path where messages are posted: {@code /message} (the direct path) or another route of the contract */
    public MessagesScenario(String path) {
        this(path, DEFAULT_DRAIN_DEADLINE);
    }

    /**
     * @param path where messages are posted; {@link #FAST_PATH} expects 202 and re-reads in passes
     * @param drainDeadline how long after the run the fast path's messages may take to become readable
     */
    public MessagesScenario(String path, Duration drainDeadline) {
        if (drainDeadline.isNegative() || drainDeadline.isZero()) {
            throw new IllegalArgumentException("drain deadline must be positive, got " + drainDeadline);
        }
        this.path = path;
        this.fast = FAST_PATH.equals(path);
        this.expectedStatus = fast ? 202 : 201;
        this.drainDeadline = drainDeadline;
    }

    @Override
    public String name() {
        return "messages";
    }

    /** How many messages were acknowledged so far. */
    public int acknowledged() {
        return acknowledged.size();
    }

    private String from() {
        return "bench-" + runId;
    }

    private static String to(long seq) {
        return "user" + seq % RECIPIENTS;
    }

    private String text(long seq) {
        return "hotpath bench message " + seq + " of run " + runId + " \u00e9\u4e2d\ud83d\ude00";
    }

    @Override
    public Workload prepare(RunConfig config) {
        target = Target.of(config);
        byte[] head = Requests.ascii("POST " + path + " HTTP/1.1\r\nHost: " + target.authority()
            + "\r\nContent-Type: application/json\r\nContent-Length: ");
        return new Workload() {
            @Override
            public long next(SplittableRandom random) {
                return sequence.getAndIncrement();
            }

            @Override
            public void write(long tag, ByteBuf out) {
                byte[] body = ("{\"from\":\"" + from() + "\",\"to\":\"" + to(tag) + "\",\"message\":\"" + text(tag) + "\"}")
                    .getBytes(StandardCharsets.UTF_8);
                out.writeBytes(head).writeBytes(Requests.ascii(body.length + "\r\n\r\n")).writeBytes(body);
            }

            @Override
            public Outcome check(long tag, Answer response) {
                if (response.status() != expectedStatus) {
                    return Outcome.UNEXPECTED_STATUS;
                }
                long now = System.nanoTime();
                Parsed m = parse(response, tag);
                return m != null && acknowledged.add(m.high, m.low, tag, m.createdAt, now) ? Outcome.OK : Outcome.MISMATCH;
            }

            @Override
            public String describe(long tag, Answer response) {
                Parsed m = response.status() == expectedStatus ? parse(response, tag) : null;
                if (m != null) {
                    long first = acknowledged.tagOf(m.high, m.low);
                    return "id " + m.id + " was given twice (for messages " + first + " and " + tag + ")";
                }
                return "POST " + path + " of message " + tag + ": status " + response.status() + ", body "
                    + response.bodyText(300);
            }
        };
    }

    @Override
    public Workload verification() {
        if (fast) {
            return null;
        }
        AcknowledgedMessages.Snapshot snapshot = acknowledged.snapshot();
        AtomicInteger next = new AtomicInteger();
        byte[] prefix = Requests.ascii("GET /messages/");
        byte[] suffix = Requests.getSuffix(target);
        return new Workload() {
            @Override
            public long next(SplittableRandom random) {
                int i = next.getAndIncrement();
                return i < snapshot.tags().length ? i : NO_MORE;
            }

            private String idOf(long i) {
                return Uuid7.text(snapshot.highs()[(int) i], snapshot.lows()[(int) i]);
            }

            @Override
            public void write(long i, ByteBuf out) {
                out.writeBytes(prefix).writeBytes(Requests.ascii(idOf(i))).writeBytes(suffix);
            }

            @Override
            public Outcome check(long i, Answer response) {
                if (response.status() != 200) {
                    return Outcome.UNEXPECTED_STATUS;
                }
                Parsed m = parse(response, snapshot.tags()[(int) i]);
                return m != null && m.high == snapshot.highs()[(int) i] && m.low == snapshot.lows()[(int) i]
                    && m.createdAt == snapshot.createdAts()[(int) i] ? Outcome.OK : Outcome.MISMATCH;
            }

            @Override
            public String describe(long i, Answer response) {
                return "acknowledged message " + idOf(i) + " (message " + snapshot.tags()[(int) i] + ") now answers "
                    + response.status() + ", body " + response.bodyText(300);
            }
        };
    }

    @Override
    public Readback readback() {
        return fast ? new MessagesReadback() : null;
    }

    /**
     * The fast path's re-reads: every pass asks for each message not found yet, in the order of their
     * acknowledgements; 404 is "not stored yet" (pending), 200 with the same message found, anything else
     * counted as in a verification (and not re-read again).
     */
    private final class MessagesReadback implements Readback {
        private static final byte PENDING = 0;
        private static final byte FOUND = 1;
        private static final byte FAILED = 2;

        private AcknowledgedMessages.Snapshot snapshot;
        private int[] order;
        private byte[] state;
        private long[] sentAt;
        private long[] missedAt;
        private long[] foundAt;

        private void init() {
            if (snapshot == null) {
                snapshot = acknowledged.snapshot();
                order = snapshot.byAcknowledgement();
                int n = order.length;
                state = new byte[n];
                sentAt = new long[n];
                missedAt = new long[n];
                foundAt = new long[n];
            }
        }

        @Override
        public Duration deadline() {
            return drainDeadline;
        }

        @Override
        public Workload nextPass() {
            init();
            int[] pending = java.util.Arrays.stream(order).filter(i -> state[i] == PENDING).toArray();
            if (pending.length == 0) {
                return null;
            }
            AtomicInteger next = new AtomicInteger();
            byte[] prefix = Requests.ascii("GET /messages/");
            byte[] suffix = Requests.getSuffix(target);
            return new Workload() {
                @Override
                public long next(SplittableRandom random) {
                    int k = next.getAndIncrement();
                    return k < pending.length ? pending[k] : NO_MORE;
                }

                @Override
                public void write(long i, ByteBuf out) {
                    sentAt[(int) i] = System.nanoTime();
                    out.writeBytes(prefix).writeBytes(Requests.ascii(idOf((int) i))).writeBytes(suffix);
                }

                @Override
                public Outcome check(long l, Answer response) {
                    int i = (int) l;
                    long now = System.nanoTime();
                    if (response.status() == 404) {
                        missedAt[i] = sentAt[i];
                        return Outcome.PENDING;
                    }
                    state[i] = FAILED;
                    if (response.status() != 200) {
                        return Outcome.UNEXPECTED_STATUS;
                    }
                    Parsed m = parse(response, snapshot.tags()[i]);
                    if (m == null || m.high != snapshot.highs()[i] || m.low != snapshot.lows()[i]
                        || m.createdAt != snapshot.createdAts()[i]) {
                        return Outcome.MISMATCH;
                    }
                    foundAt[i] = now;
                    state[i] = FOUND;
                    return Outcome.OK;
                }

                @Override
                public String describe(long i, Answer response) {
                    return "acknowledged message " + describeMessage((int) i) + " answers " + response.status()
                        + ", body " + response.bodyText(300);
                }
            };
        }

        private String idOf(int i) {
            return Uuid7.text(snapshot.highs()[i], snapshot.lows()[i]);
        }

        private String describeMessage(int i) {
            return idOf(i) + " (message " + snapshot.tags()[i] + ")";
        }

        private long count(byte wanted) {
            init();
            long n = 0;
            for (byte b : state) {
                n += b == wanted ? 1 : 0;
            }
            return n;
        }

        @Override
        public long acknowledged() {
            init();
            return order.length;
        }

        @Override
        public long found() {
            return count(FOUND);
        }

        @Override
        public long missing() {
            return count(PENDING);
        }

        @Override
        public String firstMissing() {
            init();
            for (int i : order) {
                if (state[i] == PENDING) {
                    return describeMessage(i);
                }
            }
            return null;
        }

        @Override
        public long[] lagNanos() {
            init();
            return java.util.Arrays.stream(order).filter(i -> state[i] == FOUND)
                .mapToLong(i -> foundAt[i] - snapshot.ackedAts()[i]).toArray();
        }

        @Override
        public long resolutionNanos() {
            init();
            long worst = 0;
            for (int i = 0; i < state.length; i++) {
                if (state[i] == FOUND && missedAt[i] != 0) {
                    worst = Math.max(worst, foundAt[i] - missedAt[i]);
                }
            }
            return worst;
        }
    }

    /** A message answer's id and {@code created_at}, once every key and value checked out. */
    private record Parsed(String id, long high, long low, long createdAt) {
    }

    /** The answer as message {@code tag}, or null when it is not exactly that message object. */
    private Parsed parse(Answer response, long tag) {
        String[] values = new String[KEYS.length];
        try (JsonParser p = Links.JSON.createParser(response.bodyArray(), 0, response.bodyLength())) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            for (int i = 0; i < KEYS.length; i++) {
                if (p.nextToken() != JsonToken.FIELD_NAME || !p.currentName().equals(KEYS[i])
                    || p.nextToken() != JsonToken.VALUE_STRING) {
                    return null;
                }
                values[i] = p.getText();
            }
            if (p.nextToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
                return null;
            }
        } catch (IOException e) {
            return null;
        }
        long[] id = Uuid7.parse(values[0]);
        long createdAt = createdAtMillis(values[4]);
        boolean sent = values[1].equals(from()) && values[2].equals(to(tag)) && values[3].equals(text(tag));
        return id != null && createdAt >= 0 && sent ? new Parsed(values[0], id[0], id[1], createdAt) : null;
    }

    /** {@code YYYY-MM-DDTHH:MM:SS.mmmZ} in epoch milliseconds, or -1 for any other shape. */
    static long createdAtMillis(String text) {
        if (text.length() != 24 || text.charAt(10) != 'T' || text.charAt(19) != '.' || text.charAt(23) != 'Z') {
            return -1;
        }
        try {
            return LocalDateTime.parse(text.substring(0, 23)).toInstant(ZoneOffset.UTC).toEpochMilli();
        } catch (DateTimeParseException e) {
            return -1;
        }
    }
}
