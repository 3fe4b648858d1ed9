package dev.hotpath.apps.social;

/**
 * The fixed schema of the social challenge ({@code docs/SOCIAL.md}): the rules forbid adding
 * or changing tables, columns or indexes, so this text is the contract's, byte for byte.
 */
public final class SocialSchema {
    public static final String DDL = """
        CREATE TABLE users (id INTEGER PRIMARY KEY, username TEXT NOT NULL UNIQUE,
          created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')));
        CREATE TABLE posts (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id),
          body TEXT NOT NULL CHECK (length(body) BETWEEN 1 AND 500),
          created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')));
        CREATE TABLE likes (user_id INTEGER NOT NULL REFERENCES users(id),
          post_id INTEGER NOT NULL REFERENCES posts(id),
          created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
          PRIMARY KEY (user_id, post_id));
        CREATE INDEX posts_created_at_id_idx ON posts (created_at DESC, id DESC);
        CREATE INDEX posts_user_id_idx ON posts (user_id);
        CREATE INDEX likes_post_id_idx ON likes (post_id);
        """;

    private SocialSchema() {
    }
}
