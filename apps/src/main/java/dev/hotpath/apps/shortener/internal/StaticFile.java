package dev.hotpath.apps.shortener.internal;

import dev.hotpath.http.Handler;
import dev.hotpath.http.Request;
import dev.hotpath.http.Response;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * A file of the jar served as it is: read once at start into two constant answers, the {@code 200}
 * and the {@code 304} a browser gets when its copy is current ({@link #revalidated}). Each carries
 * {@link #SECURITY}, so the page and everything it loads run under the same policy.
 */
final class StaticFile implements Handler {
    /**
     * Headers on every file and QR code: scripts, styles, images and requests from this origin only
     * (no inline script, no other site), no framing, no content sniffing, no referrer.
     */
    static final String[][] SECURITY = {
        {"Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"},
        {"X-Content-Type-Options", "nosniff"},
        {"Referrer-Policy", "no-referrer"},
    };

    private final String tag;
    private final Response ok;
    private final Response notModified;

    private StaticFile(byte[] content, String contentType) {
        this.tag = EntityTags.of(content);
        this.ok = revalidated(Response.builder(200), tag).body(contentType, content);
        this.notModified = revalidated(Response.builder(304), tag).build();
    }

    /**
     * The resource {@code name} next to this class's package root ({@code dev/hotpath/apps/shortener/...}).
     *
     * @throws IllegalStateException when the jar does not hold it: a build defect, found at start
     */
    static StaticFile load(String name, String contentType) {
        try (InputStream in = StaticFile.class.getResourceAsStream("/dev/hotpath/apps/shortener/" + name)) {
            if (in == null) {
                throw new IllegalStateException("the jar holds no " + name);
            }
            return new StaticFile(in.readAllBytes(), contentType);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + name + " from the jar", e);
        }
    }

    /**
     * {@link #SECURITY}, then {@code Cache-Control: no-cache} and {@code ETag: tag}: a browser keeps the
     * answer but asks each time, and a current copy costs a {@code 304} of a few header bytes.
     */
    static Response.Builder revalidated(Response.Builder builder, String tag) {
        for (String[] header : SECURITY) {
            builder.header(header[0], header[1]);
        }
        return builder.header("Cache-Control", "no-cache").header("ETag", tag);
    }

    @Override
    public Response handle(Request request) {
        return EntityTags.matches(request.header(EntityTags.IF_NONE_MATCH), tag) ? notModified : ok;
    }
}
