package dev.hotpath.apps.users.internal;

import dev.hotpath.apps.internal.JsonText;
import dev.hotpath.store.RowQuery;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;

/**
 * Users' JSON written from rows' UTF-8 text, copied from where SQLite holds it
 * ({@link RowQuery.Rows#copyText}), byte for byte what {@link UserJson.AnswerWriter} writes for the same text,
 * so that the SQLite store answers exactly as the in-memory one. Read through JDBC, a page cost about
 * 4 KB of garbage (each text column a buffer view, an array and a string, then jackson's output and
 * its copies); written here, a row costs nothing.
 *
 * <p>The escaping is jackson-core's UTF-8 generator's, as {@link UserJson} uses it: JSON's
 * two-character escapes, {@code \\u00XX} with uppercase hex for the other control characters, a
 * character past the Basic Multilingual Plane as its two surrogates escaped ({@code \\uD83D\\uDE00}),
 * and every other character's UTF-8 bytes as they are. Text that is ASCII with nothing to escape (the
 * common case: {@code user-7@example.com}) is checked a word at a time and copied whole. Text that is
 * not valid UTF-8 (no row this app writes has any, but another tool may write into the file) is read
 * as JDBC reads it, each bad sequence a U+FFFD, and that row is written by the generator.
 *
 * <p>A new user's answer is written the same way from the request's bytes ({@link NewUser}), so the
 * {@code 201} of a create and every later read of that user are the same bytes in both stores.
 *
 * <p>One per writing thread: it keeps the buffer rows are written into ({@link JsonText}), which
 * grows to the largest page and stays (up to 1 MiB).
 */
final class UserRowJson {
    private static final byte[] ID = ascii("{\"id\":");
    private static final byte[] NAME = ascii(",\"name\":");
    private static final byte[] EMAIL = ascii(",\"email\":");
    private static final byte[] CREATED_AT = ascii(",\"created_at\":");
    private static final byte[] HEX = ascii("0123456789ABCDEF");
    private static final byte[] PRELOADED_NAME = ascii(UserStore.PRELOADED_NAME_PREFIX);
    private static final byte[] PRELOADED_EMAIL_DOMAIN = ascii(UserStore.PRELOADED_EMAIL_DOMAIN);
    private static final byte[] PRELOADED_AT = ascii(UserJson.PRELOADED_AT);

    /**
     * Writes the rare row whose text is not valid UTF-8; made by the first such row, since making it
     * loads jackson-core, about 1.6 MB of start-up garbage (async-profiler) for a server whose rows
     * are all UTF-8.
     */
    private UserJson.AnswerWriter generator;
    private final JsonText json = new JsonText(4096);
    private final CreatedRow created = new CreatedRow();

    /** Starts over: what was written is dropped. */
    void clear() {
        json.clear();
    }

    /** The bytes written since {@link #clear}: {@code bytes()[0, size())}. */
    byte[] bytes() {
        return json.bytes();
    }

    int size() {
        return json.size();
    }

    /** Writes the comma between two users of a page. */
    void comma() {
        json.appendByte(',');
    }

    /**
     * Writes a new user's JSON from the request's bytes, the same bytes the user's row reads as, into
     * this writer's buffer, which is cleared first: {@link #bytes()}{@code [0, }{@link #size()}{@code )}.
     */
    void created(long id, NewUser user, byte[] createdAt) {
        clear();
        created.point(user, createdAt);
        try {
            user(id, created, 1);
        } catch (SQLException e) {
            throw new IllegalStateException("a row in hand failed to read", e); // CreatedRow throws none
        }
    }

    /**
     * Writes preloaded user {@code id}'s JSON into this writer's buffer, cleared first: named
     * {@link UserStore#PRELOADED_NAME_PREFIX} and its id, with that name and
     * {@link UserStore#PRELOADED_EMAIL_DOMAIN} as its email, created {@link UserJson#PRELOADED_AT}. All
     * ASCII with nothing to escape, so written as it stands, with no string or array per user.
     */
    void preloaded(long id) {
        clear();
        json.append(ID);
        json.appendDecimal(id);
        json.append(NAME);
        json.appendByte('"');
        json.append(PRELOADED_NAME);
        json.appendDecimal(id);
        json.appendByte('"');
        json.append(EMAIL);
        json.appendByte('"');
        json.append(PRELOADED_NAME);
        json.appendDecimal(id);
        json.append(PRELOADED_EMAIL_DOMAIN);
        json.appendByte('"');
        json.append(CREATED_AT);
        json.appendByte('"');
        json.append(PRELOADED_AT);
        json.appendByte('"');
        json.appendByte('}');
    }

    /**
     * Writes {@code {"id":..,"name":..,"email":..,"created_at":..}} from the current row of
     * {@code row}, whose name, email and {@code created_at} are the text of columns
     * {@code firstText} to {@code firstText + 2}; each is {@code NOT NULL} in the schema.
     */
    void user(long id, RowQuery.Rows row, int firstText) throws SQLException {
        int start = json.size();
        if (!fields(id, row, firstText)) {
            json.truncate(start);
            if (generator == null) {
                generator = new UserJson.AnswerWriter();
            }
            json.append(generator.json(id, decoded(row, firstText), decoded(row, firstText + 1), decoded(row, firstText + 2)));
        }
    }

    /** Writes the user; false, part way, when a column is not valid UTF-8. */
    private boolean fields(long id, RowQuery.Rows row, int firstText) throws SQLException {
        json.append(ID);
        json.appendDecimal(id);
        json.append(NAME);
        if (!string(row, firstText)) {
            return false;
        }
        json.append(EMAIL);
        if (!string(row, firstText + 1)) {
            return false;
        }
        json.append(CREATED_AT);
        if (!string(row, firstText + 2)) {
            return false;
        }
        json.appendByte('}');
        return true;
    }

    /** A JSON string of the column's text; false when it is not valid UTF-8. */
    private boolean string(RowQuery.Rows row, int column) throws SQLException {
        return json.appendStringIfPlainAscii(row, column) || escaped(json.pending(), json.pendingLength());
    }

    /** Writes {@code text[0, length)} as a JSON string, escaped as jackson does; false when it is not valid UTF-8. */
    private boolean escaped(byte[] text, int length) {
        json.appendByte('"');
        for (int i = 0; i < length; ) {
            byte b = text[i];
            if (b >= 0) {
                json.appendEscaped(b, HEX);
                i++;
                continue;
            }
            int sequence = Utf8.sequenceLength(text, i, length);
            if (sequence < 0) {
                return false;
            }
            if (sequence == 4) {
                int codePoint = (b & 0x07) << 18 | (text[i + 1] & 0x3F) << 12 | (text[i + 2] & 0x3F) << 6 | text[i + 3] & 0x3F;
                json.appendUnicodeEscape(Character.highSurrogate(codePoint), HEX);
                json.appendUnicodeEscape(Character.lowSurrogate(codePoint), HEX);
            } else {
                json.append(text, i, sequence);
            }
            i += sequence;
        }
        json.appendByte('"');
        return true;
    }

    /** The column's text as sqlite-jdbc's {@code getString} gives it: UTF-8 decoded, each bad sequence a U+FFFD. */
    private static String decoded(RowQuery.Rows row, int column) throws SQLException {
        int length = row.textLength(column);
        if (length < 0) {
            throw new IllegalStateException("column " + column + " read as NULL where the schema has NOT NULL text");
        }
        byte[] text = new byte[length];
        row.copyText(column, text, 0);
        return new String(text, StandardCharsets.UTF_8);
    }

    /**
     * A new user in hand as the text columns of a row (name, email, {@code created_at}): one per writer,
     * pointed at each user in turn. Not a {@link dev.hotpath.apps.internal.RowInHand}, whose columns are
     * whole arrays: a {@link NewUser}'s fields are the first bytes of arrays it reuses.
     */
    private static final class CreatedRow implements RowQuery.Rows {
        private NewUser user;
        private byte[] createdAt;

        void point(NewUser user, byte[] createdAt) {
            this.user = user;
            this.createdAt = createdAt;
        }

        @Override
        public int textLength(int column) {
            return switch (column) {
                case 1 -> user.nameLength();
                case 2 -> user.emailLength();
                case 3 -> createdAt.length;
                default -> throw new IllegalArgumentException("no text in column " + column);
            };
        }

        @Override
        public void copyText(int column, byte[] into, int at) {
            byte[] text = switch (column) {
                case 1 -> user.name();
                case 2 -> user.email();
                case 3 -> createdAt;
                default -> throw new IllegalArgumentException("no text in column " + column);
            };
            System.arraycopy(text, 0, into, at, textLength(column));
        }

        @Override
        public boolean next() {
            throw new UnsupportedOperationException("one row, in hand");
        }

        @Override
        public long getLong(int column) {
            throw new UnsupportedOperationException("column " + column + " of a new user is text");
        }

        @Override
        public void close() {
        }
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
