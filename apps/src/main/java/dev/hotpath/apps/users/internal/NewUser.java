package dev.hotpath.apps.users.internal;

/**
 * A user a create request asks for, its fields within the contract's ranges, as UTF-8 bytes: both
 * stores write them as bytes (SQLite binds them, a user's JSON is written from them,
 * {@link UserRowJson}), so a string per field would be decoded from the body only to be encoded again.
 *
 * <p>Reused: each field is kept in an array of its own, {@code name()[0, nameLength())}, which grows
 * to the longest field it held and stays. A thread's {@link CreateBodyReader} fills one for every
 * body, and a create queued for SQLite copies it into one of its own ({@link SqliteUsers}), so a
 * create makes no array: the two fields' arrays and this object were about 90 bytes a create, half of
 * what S4's creates left behind (async-profiler, docs/BENCHMARKS.md). Not thread-safe.
 */
public final class NewUser {
    static final int MAX_NAME = 100;
    static final int MIN_EMAIL = 3;
    static final int MAX_EMAIL = 254;

    private byte[] name = new byte[32];
    private byte[] email = new byte[64];
    /** A field's length in bytes, -1 while the request has not given it. */
    private int nameLength = -1;
    private int emailLength = -1;

    /** The name's UTF-8 bytes: the first {@link #nameLength()} of this array, which the user owns. */
    byte[] name() {
        return name;
    }

    int nameLength() {
        return nameLength;
    }

    /** The email's UTF-8 bytes: the first {@link #emailLength()} of this array, which the user owns. */
    byte[] email() {
        return email;
    }

    int emailLength() {
        return emailLength;
    }

    /** Forgets both fields, for the next request's. */
    void clear() {
        nameLength = -1;
        emailLength = -1;
    }

    /** The name is {@code utf8[from, from + length)}, copied. */
    void setName(byte[] utf8, int from, int length) {
        if (name.length < length) {
            name = new byte[Math.max(length, 2 * name.length)];
        }
        System.arraycopy(utf8, from, name, 0, length);
        nameLength = length;
    }

    /** The email is {@code utf8[from, from + length)}, copied. */
    void setEmail(byte[] utf8, int from, int length) {
        if (email.length < length) {
            email = new byte[Math.max(length, 2 * email.length)];
        }
        System.arraycopy(utf8, from, email, 0, length);
        emailLength = length;
    }

    /** Takes {@code other}'s fields, copied. */
    void copy(NewUser other) {
        setName(other.name, 0, other.nameLength);
        setEmail(other.email, 0, other.emailLength);
    }

    /**
     * Checks both fields: present, valid text, their lengths in characters, an {@code @} inside the
     * email.
     *
     * @param loneSurrogate whether either, as the request spelled it, held a lone surrogate: JSON can
     *     spell one ({@code "\ud800"}), UTF-8 cannot, so a store would keep something else than what
     *     was acknowledged
     */
    void check(boolean loneSurrogate) throws UserJson.Invalid {
        if (nameLength < 0 || emailLength < 0) {
            throw new UserJson.Invalid(false, "name and email are required");
        }
        if (loneSurrogate) {
            throw new UserJson.Invalid(false, "name and email must be valid Unicode text (a lone surrogate is not)");
        }
        int nameCharacters = characters(name, nameLength);
        if (nameCharacters < 1 || nameCharacters > MAX_NAME) {
            throw new UserJson.Invalid(false, "name must be 1 to " + MAX_NAME + " characters");
        }
        int emailCharacters = characters(email, emailLength);
        if (emailCharacters < MIN_EMAIL || emailCharacters > MAX_EMAIL || email[0] == '@' || email[emailLength - 1] == '@'
            || !contains(email, emailLength, (byte) '@')) {
            throw new UserJson.Invalid(false, "email must be " + MIN_EMAIL + " to " + MAX_EMAIL
                + " characters with an @ that is neither first nor last");
        }
    }

    /** Characters (code points) in valid UTF-8 {@code utf8[0, length)}: every byte but a continuation byte starts one. */
    private static int characters(byte[] utf8, int length) {
        int count = 0;
        for (int i = 0; i < length; i++) {
            if ((utf8[i] & 0xC0) != 0x80) {
                count++;
            }
        }
        return count;
    }

    private static boolean contains(byte[] bytes, int length, byte b) {
        for (int i = 0; i < length; i++) {
            if (bytes[i] == b) {
                return true;
            }
        }
        return false;
    }
}
