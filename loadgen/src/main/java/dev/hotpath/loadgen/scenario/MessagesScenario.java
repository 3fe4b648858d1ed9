package dev.hotpath.loadgen.scenario;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.hotpath.loadgen.Answer;
import dev.hotpath.loadgen.RunConfig;
import dev.hotpath.loadgen.Scenario;
import dev.hotpath.loadgen.Workload;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
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
 */
public final class MessagesScenario implements Scenario {
    /** Recipients the messages go to, in turn. */
    static final int RECIPIENTS = 1000;
    private static final String[] KEYS = {"id", "from", "to", "message", "created_at"};

    private final String path;
    private final String runId = Long.toString(System.nanoTime(), 36);
    private final AtomicLong sequence = new AtomicLong();
    private final AcknowledgedMessages acknowledged = new AcknowledgedMessages();
    private Target target;

    /** @param path where messages are posted: {@code /message} (the direct path) or another route of the contract */
    public MessagesScenario(String path) {
        this.path = path;
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
                if (response.status() != 201) {
                    return Outcome.UNEXPECTED_STATUS;
                }
                Parsed m = parse(response, tag);
                return m != null && acknowledged.add(m.high, m.low, tag, m.createdAt) ? Outcome.OK : Outcome.MISMATCH;
            }

            @Override
            public String describe(long tag, Answer response) {
                Parsed m = response.status() == 201 ? parse(response, tag) : null;
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
