package dev.hotpath.loadgen.scenario;

import dev.hotpath.loadgen.Answer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A canned response, as a check sees one: a status and a body, no {@code Location}. */
record StubAnswer(int status, byte[] body) implements Answer {
    static StubAnswer of(int status, String body) {
        return new StubAnswer(status, body.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public boolean locationEquals(byte[] expected) {
        return false;
    }

    @Override
    public String location() {
        return null;
    }

    @Override
    public boolean bodyEquals(byte[] expected) {
        return Arrays.equals(body, expected);
    }

    @Override
    public byte[] bodyArray() {
        return body;
    }

    @Override
    public int bodyLength() {
        return body.length;
    }

    @Override
    public String bodyText(int max) {
        String text = new String(body, StandardCharsets.UTF_8);
        return text.length() <= max ? text : text.substring(0, max) + "...";
    }
}
