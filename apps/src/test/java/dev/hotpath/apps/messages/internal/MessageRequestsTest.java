package dev.hotpath.apps.messages.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MessageRequestsTest {
    private static NewMessage parse(String body) throws Refusal.Refused {
        return MessageRequests.parse(body.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void readsTheThreeFieldsInAnyOrder() throws Exception {
        assertThat(parse("{\"message\":\"Hello\",\"to\":\"bob\",\"from\":\"alice\"}"))
            .isEqualTo(new NewMessage("alice", "bob", "Hello"));
    }

    @Test
    void keepsTextExactlyAsSent() throws Exception {
        assertThat(parse("{\"from\":\" Al\\u00efce \",\"to\":\"\\ud83d\\ude00\",\"message\":\"line\\nnext\\ttab \\u0000\"}"))
            .isEqualTo(new NewMessage(" Alïce ", "😀", "line\nnext\ttab \u0000"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "''|malformed_json|the body is empty: send one JSON object",
        "{|malformed_json|the body is not valid JSON: Unexpected end-of-input: expected close marker for Object",
        "{\"from\":\"a\",\"to\":\"b\",\"message\":\"c\"} {}|malformed_json|content after the JSON value: send one JSON object",
        "{\"from\":\"a\",\"to\":\"b\",\"message\":\"c\"}x|malformed_json|",
        "{\"x\":1, oops|malformed_json|",
        "[1]|invalid_message|the body must be a JSON object",
        "\"text\"|invalid_message|the body must be a JSON object",
        "{\"from\":\"a\",\"to\":\"b\",\"message\":\"c\",\"extra\":1}|unknown_field|unknown field \"extra\": only from, to and message are accepted",
        "{\"From\":\"a\",\"to\":\"b\",\"message\":\"c\"}|unknown_field|unknown field \"From\": only from, to and message are accepted",
        "{\"to\":\"b\",\"message\":\"c\"}|invalid_message|from is required",
        "{\"from\":\"a\",\"message\":\"c\"}|invalid_message|to is required",
        "{\"from\":\"a\",\"to\":\"b\"}|invalid_message|message is required",
        "{\"from\":\"a\",\"from\":\"a\",\"to\":\"b\",\"message\":\"c\"}|invalid_message|from is given more than once",
        "{\"from\":1,\"to\":\"b\",\"message\":\"c\"}|invalid_message|from must be a string",
        "{\"from\":\"a\",\"to\":null,\"message\":\"c\"}|invalid_message|to must be a string",
        "{\"from\":\"a\",\"to\":\"b\",\"message\":[\"c\"]}|invalid_message|message must be a string",
        "{\"from\":\"\",\"to\":\"b\",\"message\":\"c\"}|invalid_message|from must not be empty",
        "{\"from\":\"a\",\"to\":\"b\\u0007\",\"message\":\"c\"}|invalid_message|to must not contain control characters",
        "{\"from\":\"a\",\"to\":\"b\",\"message\":\"\\ud800\"}|invalid_message|message must be valid Unicode text (it has a lone surrogate)",
    })
    void refusesWithTheExactCode(String body, String code, String text) {
        assertThatThrownBy(() -> parse(body)).isInstanceOfSatisfying(Refusal.Refused.class, refused -> {
            assertThat(refused.refusal().code()).isEqualTo(code);
            if (text != null) {
                assertThat(refused.getMessage()).isEqualTo(text);
            }
        });
    }

    @Test
    void malformedJsonWinsOverAnUnknownFieldBeforeIt() {
        assertThatThrownBy(() -> parse("{\"extra\":1,\"from\":}")).isInstanceOfSatisfying(Refusal.Refused.class,
            refused -> assertThat(refused.refusal()).isEqualTo(Refusal.MALFORMED_JSON));
    }

    @Test
    void nestingDeeperThanTheParserAllowsIsMalformedJsonEvenInAnUnknownField() {
        String deep = "{\"x\":" + "[".repeat(1001) + "]".repeat(1001) + ",\"from\":\"a\",\"to\":\"b\",\"message\":\"c\"}";
        assertThatThrownBy(() -> parse(deep)).isInstanceOfSatisfying(Refusal.Refused.class, refused -> {
            assertThat(refused.refusal()).isEqualTo(Refusal.MALFORMED_JSON);
            assertThat(refused.getMessage())
                .isEqualTo("the body is not valid JSON: it nests deeper or runs longer than the parser allows");
        });
    }

    @Test
    void aBodyInUtf16IsMalformedJson() {
        byte[] body = "{\"from\":\"a\",\"to\":\"b\",\"message\":\"c\"}".getBytes(StandardCharsets.UTF_16LE);
        assertThatThrownBy(() -> MessageRequests.parse(body)).isInstanceOfSatisfying(Refusal.Refused.class, refused -> {
            assertThat(refused.refusal()).isEqualTo(Refusal.MALFORMED_JSON);
            assertThat(refused.getMessage())
                .isEqualTo("the body is not valid JSON: not UTF-8: UTF-16 and UTF-32 are refused");
        });
    }

    @Test
    void bytesThatAreNotUtf8AreMalformedJson() {
        byte[] body = "{\"from\":\"a\",\"to\":\"b\",\"message\":\"\u00ff\"}".getBytes(StandardCharsets.ISO_8859_1);
        assertThatThrownBy(() -> MessageRequests.parse(body)).isInstanceOfSatisfying(Refusal.Refused.class,
            refused -> assertThat(refused.refusal()).isEqualTo(Refusal.MALFORMED_JSON));
    }

    @Test
    void lengthsCountCodePointsNotUtf16Units() throws Exception {
        String sixtyFourEmoji = "😀".repeat(64);
        assertThat(parse("{\"from\":\"" + sixtyFourEmoji + "\",\"to\":\"b\",\"message\":\"" + "é".repeat(1000) + "\"}").from())
            .isEqualTo(sixtyFourEmoji);
        assertThatThrownBy(() -> parse("{\"from\":\"a\",\"to\":\"" + "😀".repeat(65) + "\",\"message\":\"c\"}"))
            .hasMessage("to must be at most 64 characters, was 65");
        assertThatThrownBy(() -> parse("{\"from\":\"a\",\"to\":\"b\",\"message\":\"" + "x".repeat(1001) + "\"}"))
            .hasMessage("message must be at most 1000 characters, was 1001");
    }

    @Test
    void anUnknownFieldNameCutInsideASurrogatePairStaysValidJson() {
        String name = "a".repeat(63) + "😀";
        Refusal.Refused refused = org.junit.jupiter.api.Assertions.assertThrows(Refusal.Refused.class,
            () -> parse("{\"" + name + "\":1}"));
        String body = new String(refused.response().wire(), StandardCharsets.UTF_8);
        assertThat(body).endsWith("{\"error\":\"unknown_field\",\"message\":\"unknown field \\\"" + "a".repeat(63)
            + "?...\\\": only from, to and message are accepted\"}");
    }
}
