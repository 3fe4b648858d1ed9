package dev.hotpath.apps.internal;

import dev.hotpath.http.BodySink;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** A {@link BodySink} that keeps what is written: for reading an app's streamed answer without a server. */
public final class CollectedBody implements BodySink {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    public int size() {
        return bytes.size();
    }

    public byte[] toByteArray() {
        return bytes.toByteArray();
    }

    public String text() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Override
    public BodySink write(byte[] from, int offset, int length) {
        bytes.write(from, offset, length);
        return this;
    }

    @Override
    public BodySink writeByte(int b) {
        bytes.write(b);
        return this;
    }

    @Override
    public BodySink writeDecimal(long value) {
        bytes.writeBytes(Long.toString(value).getBytes(StandardCharsets.US_ASCII));
        return this;
    }
}
