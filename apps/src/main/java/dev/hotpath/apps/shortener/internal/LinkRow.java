package dev.hotpath.apps.shortener.internal;

/**
 * One row of the scale-out mode's {@code links} table, as the API shows it.
 *
 * @param name the alias or protected code, or null
 * @param expiresAt epoch millis, or -1 for none
 * @param deletedAt epoch millis, or -1 for a live link
 */
record LinkRow(long id, String name, boolean isProtected, String url, long createdAt, long expiresAt, long deletedAt,
               long visits) {
    /** The row as a resolve needs it. */
    CachedLink toCached(int redirectStatus) {
        return CachedLink.of(id, name, url, expiresAt, deletedAt >= 0, redirectStatus);
    }
}
