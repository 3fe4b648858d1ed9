package dev.hotpath.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonBodiesTest {
    private static final JsonFactory JSON = new JsonFactory();
    private static final String BODY = " {\"a\":\"é\"}";

    @Test
    void readsAUtf8Body() throws IOException {
        try (JsonParser parser = JsonBodies.parser(JSON, BODY.getBytes(StandardCharsets.UTF_8))) {
            assertThat(parser.nextToken()).isEqualTo(JsonToken.START_OBJECT);
            assertThat(parser.nextFieldName()).isEqualTo("a");
            assertThat(parser.nextTextValue()).isEqualTo("é");
        }
    }

    @Test
    void refusesTheSameBodyInUtf16AndUtf32WithOrWithoutAByteOrderMark() {
        List<Charset> others = List.of(StandardCharsets.UTF_16, StandardCharsets.UTF_16LE, StandardCharsets.UTF_16BE,
            Charset.forName("UTF-32LE"), Charset.forName("UTF-32BE"));
        for (Charset charset : others) {
            for (String body : List.of(BODY, "\uFEFF" + BODY, "{}")) {
                assertThatThrownBy(() -> JsonBodies.parser(JSON, body.getBytes(charset)).close())
                    .as("%s %s", charset, body).isInstanceOf(JsonParseException.class)
                    .hasMessage("not UTF-8: UTF-16 and UTF-32 are refused");
            }
        }
    }

    @Test
    void leavesAnEmptyOrOneByteBodyToTheParser() throws IOException {
        try (JsonParser parser = JsonBodies.parser(JSON, new byte[0])) {
            assertThat(parser.nextToken()).isNull();
        }
        try (JsonParser parser = JsonBodies.parser(JSON, "1".getBytes(StandardCharsets.UTF_8))) {
            assertThat(parser.nextToken()).isEqualTo(JsonToken.VALUE_NUMBER_INT);
        }
    }
}
