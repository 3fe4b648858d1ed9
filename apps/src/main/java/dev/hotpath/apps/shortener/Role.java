package dev.hotpath.apps.shortener;

import java.util.Locale;

/**
 * What a node of the scale-out mode serves ({@code --role}). A read node answers redirects, health,
 * readiness and metrics, and refuses every API route with a JSON error naming its role; a write node
 * and an {@code all} node serve everything, and only they migrate the schema and create the first key.
 */
public enum Role {
    ALL, READ, WRITE;

    /** Whether this node serves the API (creates, deletes, link reads, stats). */
    public boolean servesApi() {
        return this != READ;
    }

    /** {@code all}, {@code read} or {@code write}, as on the command line. */
    public String flag() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @throws IllegalArgumentException for anything but {@code all}, {@code read} or {@code write} */
    public static Role parse(String flag) {
        for (Role role : values()) {
            if (role.flag().equals(flag)) {
                return role;
            }
        }
        throw new IllegalArgumentException("--role must be all, read or write, was " + flag);
    }
}
