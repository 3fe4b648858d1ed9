package dev.hotpath.apps.shortener.internal;

/**
 * A create request checked and normalized: what a {@code LinkStore} stores and publishes.
 *
 * @param url the normalized URL ({@link UrlNormalizer}), also the redirect's {@code Location}
 * @param name the alias or protected code, or null for a link reached by its generated code
 * @param expiresAt epoch millis, or -1 for none
 */
record NewLink(String url, String name, boolean isProtected, long createdAt, long expiresAt) {
}
