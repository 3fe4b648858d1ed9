package dev.hotpath.http;

import java.util.Objects;

/**
 * A {@code Content-Type} field, checked and encoded once: what an answer whose body the handler writes
 * straight into the outbound buffer ({@link Responder#stream}) sends before its length. Make one per
 * media type at start-up and pass the same instance with every answer; {@link #JSON} is the common one.
 */
public final class ContentType {
    public static final ContentType JSON = of("application/json");

    private final String mediaType;
    private final byte[] field;

    private ContentType(String mediaType, byte[] field) {
        this.mediaType = mediaType;
        this.field = field;
    }

    /**
     * The field for {@code mediaType} (parameters included, as sent: {@code text/plain; charset=utf-8}).
     *
     * @throws IllegalArgumentException for a value with a control character, which could split a response
     */
    public static ContentType of(String mediaType) {
        Objects.requireNonNull(mediaType, "mediaType");
        return new ContentType(mediaType, Response.contentTypeField(mediaType));
    }

    public String mediaType() {
        return mediaType;
    }

    /** {@code Content-Type: <media type>\r\n}. Shared: do not modify. */
    public byte[] field() {
        return field;
    }

    @Override
    public String toString() {
        return mediaType;
    }
}
