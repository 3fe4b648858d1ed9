package dev.hotpath.apps.users.internal;

import dev.hotpath.http.Request;
import java.nio.charset.StandardCharsets;

/**
 * Reads a create request's body, one JSON object (RFC 8259) holding exactly {@code name} and
 * {@code email} as strings, straight from its bytes. jackson-core's parser made a parser, its I/O
 * context, a name table, contexts and buffers for every body, about 700 bytes a create with what it
 * read (async-profiler alloc under S3), which at a common rate was half of all the server allocated;
 * this makes nothing for a body without escapes (docs/ENGINES.md).
 *
 * <p>Strict as the parser it replaces: whitespace is space, tab, CR and LF only; no comments, single
 * quotes, bare names, trailing commas, leading zeros, {@code NaN}; strings are valid UTF-8 (RFC 3629)
 * without raw control characters, their escapes the eight single ones and {@code \}{@code uXXXX}; a
 * leading UTF-8 byte order mark is skipped (RFC 8259 §8.1 allows it, and jackson did); values nest
 * 1,000 deep at most and numbers have at most 1,000 digits (jackson's limits). Every value is
 * checked, including those of fields it refuses. Answers: {@code 400} for a body that is not exactly
 * one object or not valid JSON, or that repeats {@code name} or {@code email}; {@code 422} for a
 * missing, extra or non-string field, and for values out of range ({@link NewUser}). Where it differs
 * from jackson: a name repeated inside an extra field or another value, which jackson's duplicate
 * check answered {@code 400}, is {@code 422} (the field is refused anyway); a string holding an
 * overlong UTF-8 sequence, which jackson decoded as if it were valid ({@code C0 AF} became {@code /}
 * and was stored), or an encoded surrogate, which it decoded and then failed as a lone surrogate
 * ({@code 422}), is {@code 400} as invalid UTF-8.
 *
 * <p>One per reading thread (an event loop), reused for every body: a request's body is copied into
 * the reader's own array ({@link Request#copyBody}), which grows to the largest body read, and its
 * fields into the reader's own {@link NewUser}, which the next body refills. A copy of the body and a
 * reader per create were about 130 bytes (async-profiler under S4), the fields' arrays and their user
 * about 90 more.
 */
final class CreateBodyReader {
    /** Nesting depth, the top object being 1: jackson's limit, so the same bodies pass. */
    private static final int MAX_DEPTH = 1000;
    /** Digits in a number, integer, fraction and exponent together: jackson's limit too. */
    private static final int MAX_DIGITS = 1000;
    private static final String NOT_JSON = "the body is not valid JSON";

    /** What is read: {@code body[0, bodyEnd)}. */
    private byte[] body;
    private int bodyEnd;
    /** The array request bodies are copied into. */
    private byte[] copies = new byte[256];
    private int at;
    /** What the last body asked for; the next read starts it over. */
    private final NewUser user = new NewUser();
    /** Whether {@code name} or {@code email} spelled a lone surrogate ({@link NewUser#check}). */
    private boolean loneSurrogate;
    private boolean nameSeen;
    private boolean emailSeen;
    /** Why the fields are refused (422), once the whole body has proven valid JSON; the first reason found. */
    private String unexpected;

    /** Reads the request's body, copied into this reader's array; the user is this reader's, valid until its next read. */
    NewUser read(Request request) throws UserJson.Invalid {
        int bodyLength = request.bodyLength();
        if (copies.length < bodyLength) {
            copies = new byte[bodyLength];
        }
        request.copyBody(copies);
        return read(copies, bodyLength);
    }

    /** Reads {@code bytes[0, length)} as a create body; the user is this reader's, valid until its next read. */
    NewUser read(byte[] bytes, int length) throws UserJson.Invalid {
        body = bytes;
        bodyEnd = length;
        at = 0;
        user.clear();
        loneSurrogate = false;
        nameSeen = false;
        emailSeen = false;
        unexpected = null;
        readObject();
        user.check(loneSurrogate);
        return user;
    }

    private void readObject() throws UserJson.Invalid {
        if (bodyEnd >= 3 && (body[0] & 0xFF) == 0xEF && (body[1] & 0xFF) == 0xBB && (body[2] & 0xFF) == 0xBF) {
            at = 3;
        }
        skipWhitespace();
        if (at >= bodyEnd || body[at] != '{') {
            throw new UserJson.Invalid(true, "the body must be one JSON object");
        }
        at++;
        skipWhitespace();
        if (peek() == '}') {
            at++;
        } else {
            do {
                skipWhitespace();
                readMember();
                skipWhitespace();
            } while (endOfMember('}'));
        }
        skipWhitespace();
        if (at < bodyEnd) {
            throw new UserJson.Invalid(true, "nothing may follow the JSON object");
        }
        if (unexpected != null) {
            throw new UserJson.Invalid(false, unexpected);
        }
    }

    /** One {@code "key": value} of the top object, {@code at} on its opening quote. */
    private void readMember() throws UserJson.Invalid {
        if (peek() != '"') {
            throw malformed();
        }
        int keyStart = at;
        boolean escaped = skipString();
        int keyEnd = at;
        skipWhitespace();
        expect(':');
        skipWhitespace();
        String key = escaped ? decode(keyStart + 1, keyEnd - 1) : null;
        boolean isName = escaped ? key.equals("name") : is(keyStart + 1, keyEnd - 1, "name");
        boolean isEmail = !isName && (escaped ? key.equals("email") : is(keyStart + 1, keyEnd - 1, "email"));
        if (isName ? nameSeen : isEmail && emailSeen) {
            throw malformed(); // a repeated field: which one counts would be a guess
        }
        nameSeen |= isName;
        emailSeen |= isEmail;
        if ((isName || isEmail) && peek() == '"') {
            readString(isName);
            return;
        }
        skipValue(1);
        if (unexpected == null) {
            unexpected = isName || isEmail ? (isName ? "name" : "email") + " must be a string"
                : "unknown field " + (escaped ? key : decode(keyStart + 1, keyEnd - 1)) + " (only name and email)";
        }
    }

    /** After a member or element: true at a comma (another follows), false at {@code close}. */
    private boolean endOfMember(char close) throws UserJson.Invalid {
        byte b = next();
        if (b == ',') {
            return true;
        }
        if (b == close) {
            return false;
        }
        throw malformed();
    }

    /** Checks the value at {@code at} and moves past it. */
    private void skipValue(int depth) throws UserJson.Invalid {
        switch (peek()) {
            case '"' -> skipString();
            case '{' -> skipContainer(depth + 1, '}');
            case '[' -> skipContainer(depth + 1, ']');
            case 't' -> literal("true");
            case 'f' -> literal("false");
            case 'n' -> literal("null");
            default -> skipNumber();
        }
    }

    /** An object ({@code close} is the brace) or an array (the bracket), {@code at} on its opening one. */
    private void skipContainer(int depth, char close) throws UserJson.Invalid {
        if (depth > MAX_DEPTH) {
            throw malformed();
        }
        at++;
        skipWhitespace();
        if (peek() == close) {
            at++;
            return;
        }
        do {
            skipWhitespace();
            if (close == '}') {
                if (peek() != '"') {
                    throw malformed();
                }
                skipString();
                skipWhitespace();
                expect(':');
                skipWhitespace();
            }
            skipValue(depth);
            skipWhitespace();
        } while (endOfMember(close));
    }

    private void literal(String word) throws UserJson.Invalid {
        if (!is(at, at + word.length(), word)) {
            throw malformed();
        }
        at += word.length();
    }

    /**
     * {@code -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?}, at most {@link #MAX_DIGITS} digits; what
     * follows is its caller's to check.
     */
    private void skipNumber() throws UserJson.Invalid {
        if (peek() == '-') {
            at++;
        }
        int count;
        if (peek() == '0') {
            at++;
            count = 1;
        } else {
            count = digits();
        }
        if (at < bodyEnd && body[at] == '.') {
            at++;
            count += digits();
        }
        if (at < bodyEnd && (body[at] == 'e' || body[at] == 'E')) {
            at++;
            if (at < bodyEnd && (body[at] == '+' || body[at] == '-')) {
                at++;
            }
            count += digits();
        }
        if (count > MAX_DIGITS) {
            throw malformed();
        }
    }

    /** One or more decimal digits; how many. */
    private int digits() throws UserJson.Invalid {
        int start = at;
        while (at < bodyEnd && body[at] >= '0' && body[at] <= '9') {
            at++;
        }
        if (at == start) {
            throw malformed();
        }
        return at - start;
    }

    /**
     * The string at {@code at} (its opening quote) as UTF-8, its escapes resolved, into the user's name
     * or email; moves past it. Most strings have no escape, and their bytes are copied as they stand;
     * one with an escape (rare) is decoded into characters first, where a lone surrogate it spells can
     * be seen.
     */
    private void readString(boolean isName) throws UserJson.Invalid {
        int start = at + 1;
        boolean escaped = skipString();
        int end = at - 1;
        byte[] utf8 = body;
        if (escaped) {
            String text = decode(start, end);
            loneSurrogate |= hasLoneSurrogate(text);
            utf8 = text.getBytes(StandardCharsets.UTF_8);
            start = 0;
            end = utf8.length;
        }
        if (isName) {
            user.setName(utf8, start, end - start);
        } else {
            user.setEmail(utf8, start, end - start);
        }
    }

    /** A high surrogate followed by a low one is a pair, one code point; any other surrogate is lone. */
    static boolean hasLoneSurrogate(String text) {
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

    /**
     * Checks the string at {@code at} (its opening quote) and moves past its closing quote; whether it
     * holds an escape (without one, its bytes are its UTF-8 text as they stand).
     */
    private boolean skipString() throws UserJson.Invalid {
        at++;
        boolean escaped = false;
        while (true) {
            int b = next() & 0xFF;
            if (b == '"') {
                return escaped;
            }
            if (b == '\\') {
                escaped = true;
                switch (next()) {
                    case '"', '\\', '/', 'b', 'f', 'n', 'r', 't' -> {
                    }
                    case 'u' -> {
                        for (int i = 0; i < 4; i++) {
                            if (Character.digit(next(), 16) < 0) {
                                throw malformed();
                            }
                        }
                    }
                    default -> throw malformed();
                }
            } else if (b < 0x20) {
                throw malformed();
            } else if (b >= 0x80) {
                at += utf8Length(at - 1) - 1;
            }
        }
    }

    /** The bytes of the UTF-8 sequence that starts at {@code start} ({@link Utf8#sequenceLength}). */
    private int utf8Length(int start) throws UserJson.Invalid {
        int sequence = Utf8.sequenceLength(body, start, bodyEnd);
        if (sequence < 0) {
            throw malformed();
        }
        return sequence;
    }

    /** The text of the checked string content {@code body[start, end)}, its escapes resolved. */
    private String decode(int start, int end) {
        char[] text = new char[end - start]; // never more characters than bytes
        int length = 0;
        int i = start;
        while (i < end) {
            int b = body[i] & 0xFF;
            if (b == '\\') {
                byte escape = body[i + 1];
                if (escape == 'u') {
                    int unit = 0;
                    for (int digit = i + 2; digit < i + 6; digit++) {
                        unit = unit << 4 | Character.digit(body[digit], 16);
                    }
                    text[length++] = (char) unit;
                    i += 6;
                } else {
                    text[length++] = switch (escape) {
                        case 'b' -> '\b';
                        case 'f' -> '\f';
                        case 'n' -> '\n';
                        case 'r' -> '\r';
                        case 't' -> '\t';
                        default -> (char) escape; // " \ /
                    };
                    i += 2;
                }
            } else if (b < 0x80) {
                text[length++] = (char) b;
                i++;
            } else {
                int bytes = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2;
                int codePoint = b & (0xFF >> (bytes + 1));
                for (int k = 1; k < bytes; k++) {
                    codePoint = codePoint << 6 | body[i + k] & 0x3F;
                }
                length += Character.toChars(codePoint, text, length);
                i += bytes;
            }
        }
        return new String(text, 0, length);
    }

    /** Whether {@code body[from, to)} is the ASCII {@code word}. */
    private boolean is(int from, int to, String word) {
        if (to - from != word.length() || to > bodyEnd) {
            return false;
        }
        for (int i = 0; i < word.length(); i++) {
            if (body[from + i] != word.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private void skipWhitespace() {
        while (at < bodyEnd && (body[at] == ' ' || body[at] == '\t' || body[at] == '\n' || body[at] == '\r')) {
            at++;
        }
    }

    private void expect(char c) throws UserJson.Invalid {
        if (next() != c) {
            throw malformed();
        }
    }

    /** The byte at {@code at}; a body that ends here is not JSON. */
    private byte peek() throws UserJson.Invalid {
        if (at >= bodyEnd) {
            throw malformed();
        }
        return body[at];
    }

    private byte next() throws UserJson.Invalid {
        byte b = peek();
        at++;
        return b;
    }

    private static UserJson.Invalid malformed() {
        return new UserJson.Invalid(true, NOT_JSON);
    }
}
