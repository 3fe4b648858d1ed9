package dev.hotpath.apps.users.internal;

/**
 * A user a create request asks for, its fields within the contract's ranges, as UTF-8 bytes: both
 * stores write them as bytes (SQLite binds them, a user's JSON is written from them,
 * {@link UserRowJson}), so a string per field would be decoded from the body only to be encoded again.
 * The arrays are the user's own; nothing changes them.
 */
public record NewUser(byte[] name, byte[] email) {
    static final int MAX_NAME = 100;
    static final int MIN_EMAIL = 3;
    static final int MAX_EMAIL = 254;

    /**
     * Checks both fields: present, valid text, their lengths in characters, an {@code @} inside the
     * email.
     *
     * @param name the name's UTF-8 bytes, or null when the request has none
     * @param email the email's, or null
     * @param loneSurrogate whether either, as the request spelled it, held a lone surrogate: JSON can
     *     spell one ({@code "\ud800"}), UTF-8 cannot, so a store would keep something else than what
     *     was acknowledged
     */
    static NewUser of(byte[] name, byte[] email, boolean loneSurrogate) throws UserJson.Invalid {
        if (name == null || email == null) {
            throw new UserJson.Invalid(false, "name and email are required");
        }
        if (loneSurrogate) {
            throw new UserJson.Invalid(false, "name and email must be valid Unicode text (a lone surrogate is not)");
        }
        int nameLength = characters(name);
        if (nameLength < 1 || nameLength > MAX_NAME) {
            throw new UserJson.Invalid(false, "name must be 1 to " + MAX_NAME + " characters");
        }
        int emailLength = characters(email);
        if (emailLength < MIN_EMAIL || emailLength > MAX_EMAIL || email[0] == '@' || email[email.length - 1] == '@'
            || !contains(email, (byte) '@')) {
            throw new UserJson.Invalid(false, "email must be " + MIN_EMAIL + " to " + MAX_EMAIL
                + " characters with an @ that is neither first nor last");
        }
        return new NewUser(name, email);
    }

    /** Characters (code points) in valid UTF-8: every byte but a continuation byte starts one. */
    private static int characters(byte[] utf8) {
        int count = 0;
        for (byte b : utf8) {
            if ((b & 0xC0) != 0x80) {
                count++;
            }
        }
        return count;
    }

    private static boolean contains(byte[] bytes, byte b) {
        for (byte each : bytes) {
            if (each == b) {
                return true;
            }
        }
        return false;
    }
}
