package dev.hotpath.apps.users.internal;

/** A user a create request asks for, its fields within the contract's ranges. */
public record NewUser(String name, String email) {
    static final int MAX_NAME = 100;
    static final int MIN_EMAIL = 3;
    static final int MAX_EMAIL = 254;

    /**
     * Checks both fields (present, lengths in characters, an {@code @} inside the email, no lone
     * surrogate: JSON can spell one, {@code "\ud800"}, UTF-8 cannot, so a store would keep something
     * else than what was acknowledged).
     */
    static NewUser of(String name, String email) throws UserJson.Invalid {
        if (name == null || email == null) {
            throw new UserJson.Invalid(false, "name and email are required");
        }
        if (hasLoneSurrogate(name) || hasLoneSurrogate(email)) {
            throw new UserJson.Invalid(false, "name and email must be valid Unicode text (a lone surrogate is not)");
        }
        int nameLength = name.codePointCount(0, name.length());
        if (nameLength < 1 || nameLength > MAX_NAME) {
            throw new UserJson.Invalid(false, "name must be 1 to " + MAX_NAME + " characters");
        }
        int emailLength = email.codePointCount(0, email.length());
        int at = email.indexOf('@');
        if (emailLength < MIN_EMAIL || emailLength > MAX_EMAIL || at <= 0 || email.lastIndexOf('@') == email.length() - 1) {
            throw new UserJson.Invalid(false, "email must be " + MIN_EMAIL + " to " + MAX_EMAIL
                + " characters with an @ that is neither first nor last");
        }
        return new NewUser(name, email);
    }

    /** A high surrogate followed by a low one is a pair, one code point; any other surrogate is lone. */
    private static boolean hasLoneSurrogate(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return true;
            }
        }
        return false;
    }
}
