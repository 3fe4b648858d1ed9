package dev.hotpath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.http.testing.RawHttpClient;
import dev.hotpath.http.testing.RawResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What the messages process tests send and wait for: messages from {@code w} to {@code r}, and reads. */
final class MessagesTraffic {
    private static final Pattern ID = Pattern.compile("^\\{\"id\":\"([0-9a-f-]{36})\"");

    private MessagesTraffic() {
    }

    /** {@code POST path} of the message {@code text} from {@code w} to {@code r}; the answer. */
    static RawResponse post(RawHttpClient client, String path, String text) {
        byte[] body = ("{\"from\":\"w\",\"to\":\"r\",\"message\":\"" + text + "\"}").getBytes(StandardCharsets.UTF_8);
        String head = "POST " + path + " HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: "
            + body.length + "\r\n\r\n";
        byte[] request = new byte[head.length() + body.length];
        System.arraycopy(head.getBytes(StandardCharsets.US_ASCII), 0, request, 0, head.length());
        System.arraycopy(body, 0, request, head.length(), body.length);
        return client.send(request).read();
    }

    static RawResponse get(RawHttpClient client, String target) {
        return client.send("GET " + target + " HTTP/1.1\r\nHost: a\r\n\r\n").read();
    }

    /** The id of a message an answer shows. */
    static String id(RawResponse response) {
        Matcher m = ID.matcher(response.bodyText());
        assertThat(m.find()).as(response.bodyText()).isTrue();
        return m.group(1);
    }

    /** Posts {@code text} to {@code /message-fast}, which must answer 202, and records the answer by its id. */
    static void accept(RawHttpClient client, String text, Map<String, String> accepted) {
        RawResponse response = post(client, "/message-fast", text);
        assertThat(response.status()).as(response.bodyText()).isEqualTo(202);
        accepted.put(id(response), response.bodyText());
    }
}
