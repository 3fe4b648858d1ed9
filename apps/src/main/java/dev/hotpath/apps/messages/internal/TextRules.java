package dev.hotpath.apps.messages.internal;

/**
 * What text a user name and a message may be, for the body of a create and the query of a list
 * alike. Lengths count Unicode code points (a surrogate pair is one), as a person counts characters.
 *
 * <ul>
 *   <li>A user name ({@code from}, {@code to}): 1 to {@value #MAX_NAME} code points, no control
 *       character (U+0000 to U+001F, U+007F to U+009F). Compared exactly: no trimming, no case or
 *       Unicode normalisation, so {@code "bob"} and {@code "Bob"} are two users.</li>
 *   <li>A message: 1 to {@value #MAX_MESSAGE} code points; anything else goes, line breaks and tabs
 *       included.</li>
 *   <li>Neither may hold a lone surrogate (JSON can spell one, {@code "\ud800"}): it has no UTF-8
 *       form, so the stored text would differ from the text acknowledged.</li>
 * </ul>
 */
public final class TextRules {
    public static final int MAX_NAME = 64;
    public static final int MAX_MESSAGE = 1_000;

    private TextRules() {
    }

    /** Why {@code value} is not a user name (the sentence names {@code field}), or null when it is one. */
    public static String nameProblem(String field, String value) {
        String problem = lengthProblem(field, value, MAX_NAME);
        if (problem != null) {
            return problem;
        }
        for (int i = 0; i < value.length(); i++) {
            if (Character.isISOControl(value.charAt(i))) {
                return field + " must not contain control characters";
            }
        }
        return null;
    }

    /** Why {@code value} is not a message text, or null when it is one. */
    public static String messageProblem(String value) {
        return lengthProblem("message", value, MAX_MESSAGE);
    }

    private static String lengthProblem(String field, String value, int max) {
        if (value.isEmpty()) {
            return field + " must not be empty";
        }
        int codePoints = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return field + " must be valid Unicode text (it has a lone surrogate)";
            }
            codePoints++;
        }
        if (codePoints > max) {
            return field + " must be at most " + max + " characters, was " + codePoints;
        }
        return null;
    }
}
