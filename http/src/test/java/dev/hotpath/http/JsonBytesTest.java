package dev.hotpath.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonBytesTest {
    @Test
    void writesEscapedUtf8() {
        byte[] bytes = JsonBytes.write(json -> {
            json.writeStartObject();
            json.writeStringField("text", "a \"quote\", a \\ and \u00e9\n");
            json.writeNumberField("n", 42);
            json.writeEndObject();
        });
        assertThat(new String(bytes, StandardCharsets.UTF_8))
            .isEqualTo("{\"text\":\"a \\\"quote\\\", a \\\\ and \u00e9\\n\",\"n\":42}");
    }

    @Test
    void answersWithTheStatusAndAJsonContentType() {
        Response response = JsonBytes.response(201, json -> json.writeBoolean(true));
        assertThat(response.status()).isEqualTo(201);
        String wire = new String(response.wire(), StandardCharsets.US_ASCII);
        assertThat(wire).contains("Content-Type: application/json\r\n").endsWith("\r\n\r\ntrue");
    }

    @Test
    void aBatchWritesEachValueAsWriteWouldWithNothingBetweenThem() {
        JsonBytes.Body object = json -> {
            json.writeStartObject();
            json.writeStringField("name", "\u00e9 \"x\"");
            json.writeEndObject();
        };
        JsonBytes.Body array = json -> {
            json.writeStartArray();
            json.writeNumber(1);
            json.writeNumber(2);
            json.writeEndArray();
        };
        try (JsonBytes.Batch batch = new JsonBytes.Batch()) {
            assertThat(batch.write(object)).isEqualTo(JsonBytes.write(object));
            assertThat(batch.write(array)).isEqualTo(JsonBytes.write(array));
            assertThat(batch.write(json -> json.writeString("three"))).isEqualTo("\"three\"".getBytes(StandardCharsets.UTF_8));
            assertThat(batch.write(object)).isEqualTo(JsonBytes.write(object));
        }
    }

    /** Each answer holds its own value only, encoded as {@link Response#of} encodes the same bytes. */
    @Test
    void aBatchAnswersEachValueFromItsBufferWithNothingOfTheOthers() {
        JsonBytes.Body longer = json -> json.writeString("x".repeat(300));
        try (JsonBytes.Batch batch = new JsonBytes.Batch()) {
            Response first = batch.response(200, longer);
            Response second = batch.response(201, json -> json.writeNumber(7));
            assertThat(first.wire()).isEqualTo(Response.of(200, "application/json", JsonBytes.write(longer)).wire());
            assertThat(new String(second.wire(), StandardCharsets.US_ASCII))
                .isEqualTo("Content-Type: application/json\r\nContent-Length: 1\r\n\r\n7");
            assertThat(second.status()).isEqualTo(201);
            assertThatThrownBy(() -> batch.response(204, json -> json.writeNumber(8))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a 204 response has no body");
            assertThat(new String(batch.response(200, json -> json.writeNumber(9)).wire(), StandardCharsets.US_ASCII))
                .endsWith("\r\n\r\n9");
            assertThatThrownBy(() -> batch.response(200, json -> {
            })).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> batch.response(200, json -> json.writeNumber(1)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("earlier value");
        }
    }

    @Test
    void aBatchRefusesABodyThatIsNotOneCompleteValueAndEveryCallAfterIt() {
        for (JsonBytes.Body bad : List.<JsonBytes.Body>of(
            json -> {
                json.writeNumber(1);
                json.writeNumber(2);
            },
            json -> {
                json.writeStartObject();
                json.writeNumberField("a", 1);
            },
            json -> {
            },
            json -> {
                json.writeString("done");
                throw new IllegalArgumentException("after the value");
            })) {
            assertThatThrownBy(() -> JsonBytes.write(bad)).isInstanceOf(RuntimeException.class);
            try (JsonBytes.Batch batch = new JsonBytes.Batch()) {
                assertThatThrownBy(() -> batch.write(bad)).isInstanceOf(RuntimeException.class);
                assertThatThrownBy(() -> batch.write(json -> json.writeString("ok")))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("earlier value");
            }
        }
    }
}
