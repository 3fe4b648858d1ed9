package dev.hotpath.http.internal;

import dev.hotpath.http.BodySink;
import dev.hotpath.http.ContentType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Objects;

/**
 * The one streamed answer ({@link dev.hotpath.http.Responder#stream}) a loop's direct handler is
 * writing, reused for every such answer: its head is already encoded, in place in the outbound buffer
 * or, for an answer that must queue behind an unfinished one, in the {@code Response} made at its end;
 * this counts the body's bytes against the declared length and writes them where they go (nowhere for
 * {@code HEAD}). Confined to the loop's thread.
 */
final class StreamedBody implements BodySink {
    int status;
    ContentType type;
    int flags;
    FilterExchange exchange;
    /** The outbound buffer the head was encoded into, or null when the answer queues. */
    ByteBuf outbound;
    /** Where the answer starts in {@link #outbound}: where a body left short is cut. */
    int cutAt;
    /** Where the body's bytes go: {@link #outbound}, an array of the answer's own when it queues, or null for HEAD in place. */
    private ByteBuf target;
    private int declared;
    private int written;
    private boolean open;

    /** Starts an answer encoded in place, its head already in {@code outbound} from {@code cutAt}. */
    void beginInPlace(ByteBuf outbound, int cutAt, boolean headRequest, int declared) {
        this.outbound = outbound;
        this.cutAt = cutAt;
        begin(headRequest ? null : outbound, declared);
    }

    /**
     * Starts an answer that queues: its body is gathered into an array of exactly {@code declared}
     * bytes, for {@code HEAD} too (the queued {@code Response} then sends only its head, with the length
     * the body has).
     */
    void beginQueued(int declared) {
        this.outbound = null;
        begin(Unpooled.buffer(declared, declared), declared);
    }

    private void begin(ByteBuf target, int declared) {
        this.target = target;
        this.declared = declared;
        this.written = 0;
        this.open = true;
    }

    /** Closes the body to writes: true when it holds exactly the declared bytes. */
    boolean end() {
        open = false;
        return written == declared;
    }

    /** The gathered body of a queued answer; valid after {@link #end}. */
    byte[] gathered() {
        return target.array();
    }

    int written() {
        return written;
    }

    int declared() {
        return declared;
    }

    /** Drops the references to the connection's buffer and exchange once the answer is done. */
    void clear() {
        outbound = null;
        target = null;
        exchange = null;
        type = null;
    }

    @Override
    public BodySink write(byte[] bytes, int from, int length) {
        Objects.checkFromIndexSize(from, length, bytes.length);
        claim(length);
        if (target != null) {
            target.writeBytes(bytes, from, length);
        }
        return this;
    }

    @Override
    public BodySink writeByte(int b) {
        claim(1);
        if (target != null) {
            target.writeByte(b);
        }
        return this;
    }

    @Override
    public BodySink writeDecimal(long value) {
        if (value < 0) {
            throw new IllegalArgumentException("negative: " + value);
        }
        int digits = BodySink.decimalLength(value);
        claim(digits);
        if (target != null) {
            ResponseEncoder.writeDecimal(target, value, digits);
        }
        return this;
    }

    private void claim(int bytes) {
        if (!open) {
            throw new IllegalStateException("the body is written outside its handler call");
        }
        if (bytes > declared - written) {
            throw new IllegalStateException("the body would pass its declared " + declared + " bytes");
        }
        written += bytes;
    }
}
