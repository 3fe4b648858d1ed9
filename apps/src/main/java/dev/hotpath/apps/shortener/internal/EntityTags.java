package dev.hotpath.apps.shortener.internal;

import dev.hotpath.http.HeaderName;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Entity tags for the shortener's cacheable answers (the web page's files, QR codes, the OpenAPI
 * document) and the {@code If-None-Match} test of RFC 9110 §13.1.2 that turns a repeat fetch into a
 * {@code 304} without a body.
 */
final class EntityTags {
    static final HeaderName IF_NONE_MATCH = HeaderName.of("If-None-Match");

    private EntityTags() {
    }

    /** A strong tag for {@code content}: the first 96 bits of its SHA-256, quoted. */
    static String of(byte[] content) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(content);
            return '"' + HexFormat.of().formatHex(digest, 0, 12) + '"';
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /** A strong tag for the text {@code content} (UTF-8). */
    static String of(String content) {
        return of(content.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Whether an {@code If-None-Match} value (null when absent) names {@code tag}: {@code *}, or a
     * comma-separated list holding it, compared weakly ({@code W/} ignored) as the RFC asks for this
     * header.
     */
    static boolean matches(String ifNoneMatch, String tag) {
        if (ifNoneMatch == null) {
            return false;
        }
        if (ifNoneMatch.strip().equals("*")) {
            return true;
        }
        for (String candidate : ifNoneMatch.split(",")) {
            String opaque = candidate.strip();
            if (opaque.startsWith("W/")) {
                opaque = opaque.substring(2);
            }
            if (opaque.equals(tag)) {
                return true;
            }
        }
        return false;
    }
}
