package dev.hotpath.bench.peers;

/**
 * A user of the users API: what every store keeps and {@link UserJson} writes. {@code createdAt} is
 * kept as the ISO-8601 text the API answers ({@code 2026-01-01T00:00:00Z}), so a read formats nothing.
 */
record User(long id, String name, String email, String createdAt) {
    /** How many users every store holds when it starts empty: ids 1 to this. */
    static final int PRELOADED = 10_000;

    /** The {@code created_at} of every preloaded user. */
    static final String PRELOADED_AT = "2026-01-01T00:00:00Z";

    /** The preloaded user with this id (1 to {@link #PRELOADED}), known byte for byte by the harness. */
    static User preloaded(long id) {
        return new User(id, "user-" + id, "user-" + id + "@example.com", PRELOADED_AT);
    }
}
