package dev.hotpath.http.internal;

import dev.hotpath.http.HeaderName;
import dev.hotpath.http.ServerLimits;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Drives a {@link RequestDecoder} the way a connection does (cumulate, decode until it needs more,
 * accept the body with the server limit, consume each request) and describes each outcome as one line,
 * so tests compare what the decoder saw regardless of how the bytes were split.
 */
final class DecoderHarness {
    private static final HeaderName HOST = HeaderName.HOST;

    private DecoderHarness() {
    }

    /**
     * Feeds each piece as one read; returns one line per request, rejection, or unfinished request. Each
     * read is a buffer of exactly its length, so a decoder reading past what arrived throws.
     */
    static List<String> run(ServerLimits limits, List<byte[]> pieces) {
        return run(limits, pieces, DecoderHarness::describe);
    }

    /** {@link #run(ServerLimits, List)}, each request described by {@code describe} instead. */
    static List<String> run(ServerLimits limits, List<byte[]> pieces, Function<RequestHead, String> describe) {
        RequestDecoder decoder = new RequestDecoder(limits);
        RequestHead head = new RequestHead(limits);
        Object owner = new Object();
        List<String> outcomes = new ArrayList<>();
        ByteBuf cumulation = null;
        try {
            for (byte[] piece : pieces) {
                ByteBuf read = ByteBufAllocator.DEFAULT.buffer(piece.length, piece.length);
                read.writeBytes(piece);
                cumulation = cumulation == null ? read
                    : ByteToMessageDecoder.MERGE_CUMULATOR.cumulate(ByteBufAllocator.DEFAULT, cumulation, read);
                if (drain(decoder, head, owner, cumulation, limits, describe, outcomes)) {
                    return outcomes;
                }
            }
            if (cumulation != null && decoder.inRequest(cumulation)) {
                outcomes.add("incomplete " + decoder.state());
            }
            return outcomes;
        } finally {
            decoder.releaseBody();
            if (cumulation != null) {
                cumulation.release();
            }
        }
    }

    /** Returns true once the decoder rejected. */
    private static boolean drain(RequestDecoder decoder, RequestHead head, Object owner, ByteBuf in,
                                 ServerLimits limits, Function<RequestHead, String> describe, List<String> outcomes) {
        while (true) {
            int consumedBefore = in.readerIndex();
            RequestDecoder.Event event = decoder.decode(in, head, owner);
            if (in.readerIndex() < consumedBefore) { // past the end cannot happen: ByteBuf throws
                throw new AssertionError("decoder moved back from " + consumedBefore + " to " + in.readerIndex());
            }
            switch (event) {
                case NEED_MORE -> {
                    return false;
                }
                case HEAD -> {
                    Rejection r = decoder.acceptBody(limits.maxBodyBytes());
                    if (r != null) {
                        outcomes.add("rejected " + r + " " + r.status());
                        return true;
                    }
                }
                case REQUEST -> {
                    if (!head.isParseOf(owner, in, in.readerIndex())) {
                        decoder.reparse(in, head, owner);
                    }
                    decoder.attachBody(in, head);
                    outcomes.add(describe.apply(head));
                    head.release();
                    decoder.finishRequest(in);
                }
                case REJECTED -> {
                    Rejection r = decoder.rejection();
                    outcomes.add("rejected " + r + " " + r.status());
                    return true;
                }
            }
        }
    }

    static String describe(RequestHead head) {
        String host = head.header(HOST);
        String query = head.query();
        if (!java.util.Objects.equals(query, queryFromBytes(head))) {
            throw new AssertionError("query() " + query + " and the query's bytes " + queryFromBytes(head) + " differ");
        }
        byte[] body = head.bodyBytes();
        byte[] copied = new byte[body.length + 1]; // a byte past the body, which the copy must leave alone
        copied[body.length] = 'x';
        head.copyBody(copied);
        if (!java.util.Arrays.equals(copied, 0, body.length, body, 0, body.length) || copied[body.length] != 'x') {
            throw new AssertionError("copyBody and bodyBytes differ: " + escape(copied) + " against " + escape(body));
        }
        return "request " + head.method() + " path=" + (head.isAsteriskTarget() ? "*" : head.path())
            + " query=" + (query == null ? "-" : query) + " http=" + (head.isHttp10() ? "1.0" : "1.1")
            + " keep-alive=" + head.keepAlive() + " fields=" + head.fieldCount
            + " host=" + (host == null ? "-" : host) + " body=" + escape(body);
    }

    /** The query read byte by byte, as a handler that must not allocate reads it. */
    private static String queryFromBytes(RequestHead head) {
        int length = head.queryLength();
        if (length < 0) {
            return null;
        }
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = head.queryByte(i);
        }
        return new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    static String escape(byte[] bytes) {
        StringBuilder out = new StringBuilder();
        for (byte b : bytes) {
            if (b >= 0x20 && b < 0x7F && b != '\\') {
                out.append((char) b);
            } else {
                out.append(String.format("\\x%02x", b & 0xFF));
            }
        }
        return out.toString();
    }

    /** Decodes the corpus notation: newlines are layout only; \r \n \t \\ and \xHH are the bytes. */
    static byte[] unescape(String text) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n') {
                continue;
            }
            if (c != '\\') {
                out.write(c);
                continue;
            }
            char e = text.charAt(++i);
            switch (e) {
                case 'r' -> out.write('\r');
                case 'n' -> out.write('\n');
                case 't' -> out.write('\t');
                case '\\' -> out.write('\\');
                case 'x' -> {
                    out.write(Integer.parseInt(text.substring(i + 1, i + 3), 16));
                    i += 2;
                }
                default -> throw new IllegalArgumentException("unknown escape \\" + e);
            }
        }
        return out.toByteArray();
    }
}
