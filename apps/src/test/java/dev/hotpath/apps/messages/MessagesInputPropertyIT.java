package dev.hotpath.apps.messages;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.hotpath.http.HttpServer;
import dev.hotpath.http.ServerConfig;
import dev.hotpath.http.testing.RawHttpClient;
import dev.hotpath.http.testing.RawResponse;
import dev.hotpath.http.testing.SeededCases;
import dev.hotpath.store.Durability;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Whatever a client sends to {@code POST /message}, the answer is {@code 201} for exactly the bodies
 * the contract accepts, echoing and storing the text exactly, and the exact 4xx code for the rest:
 * never a 5xx. Seeded generators (fixed seed, the failing input in the message): strings whose length
 * sits around each limit, made of ASCII, two-byte, three-byte and four-byte (surrogate pair)
 * characters, control characters, quotes, backslashes and now and then a lone surrogate; valid
 * objects with extra fields mixed in; and garbage built from JSON fragments. At the end the table
 * holds exactly the acknowledged messages.
 *
 * <p>Against each store: PostgreSQL must keep every text exactly as SQLite does (U+0000 included).
 */
@ParameterizedClass
@EnumSource(TestStore.class)
class MessagesInputPropertyIT {
    private static final long SEED = 20261201L;
    private static final int CASES = 400;
    private static final JsonFactory JSON = new JsonFactory();
    private static final String[] PIECES = {"a", "Z", "7", " ", "é", "ß", "中", "😀", "𝄞", "\"", "\\", "/", "\n", "\t",
        "\u0000", "\u0007", "\u007f", "\u0085", "\u2028"};
    private static final int[] NAME_LENGTHS = {0, 1, 2, 63, 64, 65};
    private static final int[] MESSAGE_LENGTHS = {0, 1, 2, 999, 1000, 1001};
    private static final String[] FRAGMENTS = {"{", "}", "[", "]", ",", ":", "\"from\"", "\"to\"", "\"message\"",
        "\"x\"", "\"alice\"", "null", "true", "1e400", "-0", "\"\\ud800\"", "\"\\u00\"", "\"\\q\"", " ", "/*", "'a'", "\u00ff"};

    @TempDir
    static Path dir;
    private static TestStore.Place store;
    private static MessagesApp app;
    private static HttpServer server;
    private static RawHttpClient client;
    private static int acknowledged;

    /** The store arrives through the constructor, so the class-level set-up below can take it too. */
    MessagesInputPropertyIT(TestStore kind) {
        assertThat(store.kind()).isEqualTo(kind);
    }

    @BeforeParameterizedClassInvocation
    static void start(TestStore kind) {
        store = kind.fresh(dir.resolve(kind.name()));
        acknowledged = 0;
        PrometheusRegistry registry = new PrometheusRegistry();
        app = MessagesApp.open(store.config(Durability.NORMAL, 64, Clock.systemUTC()), registry);
        server = HttpServer.start(ServerConfig.of(new InetSocketAddress("127.0.0.1", 0)), app.routes());
        client = RawHttpClient.connect(server.port());
    }

    @AfterParameterizedClassInvocation
    static void stop() throws Exception {
        client.close();
        server.close();
        app.close();
        assertThat(store.count()[0]).as("rows stored against messages acknowledged").isEqualTo(acknowledged);
    }

    private static RawResponse post(byte[] body) {
        byte[] head = ("POST /message HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: "
            + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] request = new byte[head.length + body.length];
        System.arraycopy(head, 0, request, 0, head.length);
        System.arraycopy(body, 0, request, head.length, body.length);
        RawResponse response = client.send(request).read();
        if (response.status() == 201) {
            acknowledged++;
        }
        return response;
    }

    @Test
    void textAroundEveryLimitIsStoredExactlyOrRefusedAsInvalidMessage() {
        SeededCases.check(SEED, CASES, random -> List.of(text(random, NAME_LENGTHS), text(random, NAME_LENGTHS),
                text(random, MESSAGE_LENGTHS)), MessagesInputPropertyIT::show, fields -> {
            Map<String, String> sent = new LinkedHashMap<>();
            sent.put("from", fields.get(0));
            sent.put("to", fields.get(1));
            sent.put("message", fields.get(2));
            RawResponse response = post(object(sent, List.of()).getBytes(StandardCharsets.UTF_8));
            boolean valid = validName(fields.get(0)) && validName(fields.get(1)) && validText(fields.get(2), 1000);
            if (!valid) {
                assertError(response, 400, "invalid_message");
                return;
            }
            assertThat(response.status()).as(response.bodyText()).isEqualTo(201);
            Map<String, String> answer = fieldsOf(response.body());
            assertThat(answer.keySet()).containsExactly("id", "from", "to", "message", "created_at");
            assertThat(answer).containsAllEntriesOf(sent);
            RawResponse read = client.send("GET /messages/" + answer.get("id") + " HTTP/1.1\r\nHost: a\r\n\r\n").read();
            assertThat(read.bodyText()).isEqualTo(response.bodyText());
        });
    }

    @Test
    void extraFieldsAreUnknownFieldAndRepeatedOnesInvalidMessage() {
        SeededCases.check(SEED + 1_000_000, CASES, random -> {
            List<String> extra = new ArrayList<>();
            int count = 1 + random.nextInt(3);
            for (int i = 0; i < count; i++) {
                extra.add(random.nextInt(3) == 0 ? List.of("from", "to", "message").get(random.nextInt(3))
                    : text(random, new int[] {0, 1, 5, 70}));
            }
            return extra;
        }, MessagesInputPropertyIT::show, extra -> {
            Map<String, String> valid = new LinkedHashMap<>();
            valid.put("from", "alice");
            valid.put("to", "bob");
            valid.put("message", "hi");
            RawResponse response = post(object(valid, extra).getBytes(StandardCharsets.UTF_8));
            boolean unknown = extra.stream().anyMatch(name -> !valid.containsKey(name));
            boolean loneSurrogate = extra.stream().anyMatch(name -> !validText(name, Integer.MAX_VALUE) && !name.isEmpty());
            if (loneSurrogate) {
                assertError(response, 400, "malformed_json"); // jackson refuses a lone surrogate in a field name
            } else {
                assertError(response, 400, unknown ? "unknown_field" : "invalid_message");
            }
        });
    }

    @Test
    void garbageIsNeverA5xx() {
        SeededCases.check(SEED + 2_000_000, CASES, random -> {
            StringBuilder body = new StringBuilder();
            int pieces = random.nextInt(16);
            for (int i = 0; i < pieces; i++) {
                body.append(FRAGMENTS[random.nextInt(FRAGMENTS.length)]);
            }
            return body.toString();
        }, body -> body, body -> {
            RawResponse response = post(body.getBytes(StandardCharsets.UTF_8));
            assertThat(response.status()).as(response.bodyText()).isIn(201, 400);
            if (response.status() == 400) {
                assertThat(response.bodyText()).matches("\\{\"error\":\"(malformed_json|invalid_message|unknown_field)\","
                    + "\"message\":\".+\"}");
            }
        });
    }

    /** A string of one of {@code lengths} code points drawn from {@link #PIECES}, now and then a lone surrogate. */
    private static String text(Random random, int[] lengths) {
        int length = lengths[random.nextInt(lengths.length)];
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; i++) {
            text.append(PIECES[random.nextInt(PIECES.length)]);
        }
        if (length > 0 && random.nextInt(20) == 0) {
            text.setCharAt(random.nextInt(text.length()), random.nextBoolean() ? '\ud800' : '\udc00');
        }
        return text.toString();
    }

    private static boolean validName(String name) {
        return validText(name, 64) && name.chars().noneMatch(c -> Character.isISOControl((char) c));
    }

    /** 1 to {@code max} code points, every surrogate paired. */
    private static boolean validText(String text, int max) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return false;
            }
        }
        int codePoints = text.codePointCount(0, text.length());
        return codePoints >= 1 && codePoints <= max;
    }

    /** A JSON object of {@code fields}, each of {@code extra} inserted at a place of its own with value {@code 1}. */
    private static String object(Map<String, String> fields, List<String> extra) {
        List<String> members = new ArrayList<>();
        fields.forEach((name, value) -> members.add(quote(name) + ":" + quote(value)));
        for (int i = 0; i < extra.size(); i++) {
            members.add((i * 7 + 3) % (members.size() + 1), quote(extra.get(i)) + ":" + (i % 2 == 0 ? "1" : "\"v\""));
        }
        return "{" + String.join(",", members) + "}";
    }

    /** JSON string text: quotes, backslashes and controls escaped, surrogates as escapes (a lone one included). */
    private static String quote(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean pair = Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1));
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20 || (Character.isSurrogate(c) && !pair && !(i > 0 && Character.isLowSurrogate(c)
                && Character.isHighSurrogate(text.charAt(i - 1))))) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }

    private static Map<String, String> fieldsOf(byte[] body) {
        Map<String, String> fields = new LinkedHashMap<>();
        try (JsonParser p = JSON.createParser(body)) {
            assertThat(p.nextToken()).isEqualTo(JsonToken.START_OBJECT);
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                assertThat(p.nextToken()).isEqualTo(JsonToken.VALUE_STRING);
                fields.put(name, p.getText());
            }
            assertThat(p.nextToken()).isNull();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return fields;
    }

    private static void assertError(RawResponse response, int status, String code) {
        assertThat(response.status()).as(response.bodyText()).isEqualTo(status);
        assertThat(response.bodyText()).startsWith("{\"error\":\"" + code + "\",\"message\":\"");
    }

    private static String show(List<String> strings) {
        List<String> shown = new ArrayList<>();
        for (String s : strings) {
            shown.add(quote(s) + " (" + s.length() + " UTF-16 units)");
        }
        return String.join(", ", shown);
    }
}
