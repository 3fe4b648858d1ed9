package dev.hotpath.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.http.HeaderName;
import dev.hotpath.http.ServerLimits;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The head's in-place reads give what the string rules they stand for give. */
class RequestHeadTest {
    @Test
    void declaresJsonOrNothingAsTheStringRuleDoes() {
        Object[][] cases = {
            {null, true}, {"application/json", true}, {"APPLICATION/Json", true}, {"application/json; charset=utf-8", true},
            {"application/json ;x=1", true}, {"application/json\t;", true}, {"application/json;", true},
            {"application/jsonx", false}, {"xapplication/json", false}, {"application/json-patch+json", false},
            {"text/plain", false}, {";", false}, {" ; application/json", false}, {"application/ json", false},
            {"application /json", false}, {"text/plain; x=application/json", false},
            {"\u00A0application/json", false}, {"application/json\u00A0", false}, {"\u00C1pplication/json", false},
            {"application/json\u00FF;q", false}};
        for (Object[] c : cases) {
            String type = (String) c[0];
            byte[] request = ("POST /a HTTP/1.1\r\nHost: a\r\n" + (type == null ? "" : "Content-Type: " + type + "\r\n")
                + "Content-Length: 0\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
            List<String> read = DecoderHarness.run(ServerLimits.DEFAULTS, List.of(request),
                head -> head.declaresJsonOrNothing() + " " + stringRule(head.header(HeaderName.CONTENT_TYPE)));
            assertThat(read).as("Content-Type: %s", type).containsExactly(c[1] + " " + c[1]);
        }
    }

    /** {@code Request.declaresJsonOrNothing}'s rule written on the field's string. */
    private static boolean stringRule(String type) {
        if (type == null) {
            return true;
        }
        int semicolon = type.indexOf(';');
        return (semicolon < 0 ? type : type.substring(0, semicolon)).trim().equalsIgnoreCase("application/json");
    }
}
