package dev.hotpath.loadgen.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResponseParserTest {
    private static final String REDIRECT = "HTTP/1.1 302 Found\r\nDate: x\r\nLocation: https://a.example/b\r\nContent-Length: 0\r\n\r\n";
    private static final String JSON = "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n{\"code\":\"ab\"}";
    private static final String CHUNKED = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
        + "5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nTrailer: x\r\n\r\n";
    private static final String INTERIM = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n";

    /** What each response of {@code wire} looked like, fed in pieces of the given sizes. */
    private static List<String> parse(String wire, int... cuts) {
        ResponseParser parser = new ResponseParser();
        ByteBuf in = Unpooled.buffer();
        List<String> seen = new ArrayList<>();
        byte[] bytes = wire.getBytes(StandardCharsets.ISO_8859_1);
        int at = 0;
        for (int i = 0; i <= cuts.length; i++) {
            int end = i < cuts.length ? cuts[i] : bytes.length;
            in.writeBytes(bytes, at, end - at);
            at = end;
            while (true) {
                ResponseParser.Result result = parser.parse(in);
                if (result == ResponseParser.Result.RESPONSE) {
                    ResponseView v = parser.view();
                    seen.add(v.status() + " " + v.location() + " " + v.bodyText(100) + (v.closes() ? " close" : ""));
                } else {
                    if (result == ResponseParser.Result.ERROR) {
                        seen.add("error: " + parser.error());
                    }
                    break;
                }
                if (!in.isReadable()) {
                    break;
                }
            }
            in.discardReadBytes();
        }
        in.release();
        return seen;
    }

    @Test
    void readsEveryKindOfResponseWholeAndSplitAtEveryByte() {
        String wire = REDIRECT + JSON + CHUNKED + INTERIM;
        List<String> expected = List.of("302 https://a.example/b ", "201 null {\"code\":\"ab\"}", "200 null hello world",
            "204 null ");
        assertThat(parse(wire)).isEqualTo(expected);
        for (int cut = 1; cut < wire.length(); cut++) {
            assertThat(parse(wire, cut)).as("split at %d", cut).isEqualTo(expected);
        }
        int[] everyByte = new int[wire.length() - 1];
        for (int i = 0; i < everyByte.length; i++) {
            everyByte[i] = i + 1;
        }
        assertThat(parse(wire, everyByte)).isEqualTo(expected);
    }

    @Test
    void notesThatTheServerWillClose() {
        assertThat(parse("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok")).containsExactly("200 null ok close");
        assertThat(parse("HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok")).containsExactly("200 null ok close");
    }

    @Test
    void refusesAmbiguousOrBrokenFraming() {
        assertThat(parse("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\nok").getFirst())
            .startsWith("error: both Content-Length and Transfer-Encoding");
        assertThat(parse("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nok").getFirst())
            .startsWith("error: invalid or conflicting Content-Length");
        assertThat(parse("HTTP/1.1 200 OK\r\n\r\nok").getFirst()).startsWith("error: no Content-Length and not chunked");
        assertThat(parse("HTTP/1.1 2x0 OK\r\n\r\n").getFirst()).startsWith("error: malformed status line");
        assertThat(parse("SSH-2.0-OpenSSH\r\n").getFirst()).startsWith("error: malformed status line");
        assertThat(parse("HTTP/1.1 200 OK\nContent-Length: 0\r\n\r\n").getFirst()).startsWith("error: line not ended by CRLF");
        assertThat(parse("HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n").getFirst()).startsWith("error: whitespace in a header name");
        assertThat(parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n").getFirst()).startsWith("error: unsupported Transfer-Encoding");
        assertThat(parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n").getFirst()).startsWith("error: malformed chunk size");
        assertThat(parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nokX\r\n").getFirst())
            .startsWith("error: chunk data not followed by CRLF");
        assertThat(parse("HTTP/1.1 200 OK\r\nX: " + "a".repeat(ResponseParser.MAX_LINE) + "\r\n\r\n").getFirst())
            .startsWith("error: line longer than");
    }
}
