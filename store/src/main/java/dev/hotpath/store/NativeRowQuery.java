package dev.hotpath.store;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;
import org.sqlite.SQLiteConnection;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * {@link RowQuery} through SQLite's C API ({@code sqlite3_prepare_v3}, {@code _step},
 * {@code _column_text}, ...), called with the JDK's foreign-function API on the handle of the
 * connection sqlite-jdbc opened: the same connection, so its page cache, transactions and busy timeout
 * are the ones JDBC uses on it. The handle ({@code sqlite3 *}) is sqlite-jdbc's own, kept in a private
 * field of its {@code NativeDB} (readable on the class path, where hotpath runs; on the module path the
 * driver does not open it), and read once per query; the driver's version is pinned, and were the
 * field gone, queries go through JDBC and the process says why once.
 *
 * <p>Only for connections opened for one thread ({@code SQLITE_OPEN_NOMUTEX}, as every server
 * connection of {@link SqliteDatabase} is): on those, binding and reading a column take no lock and
 * only touch memory SQLite holds (bound text is copied, and a column read as a type it is not stored
 * as is converted in place, a moment in SQLite's allocator), so they are made as critical calls, without the thread-state
 * transition a call that may block needs; stepping, which may read the disk or wait on a lock, is not.
 * A connection with SQLite's mutex gets the JDBC form ({@link RowQuery#prepare}). Nothing serializes
 * a query against its connection's closing: like the connection, it belongs to one thread, and its
 * owner closes it before the connection.
 */
final class NativeRowQuery extends RowQuery {
    private static final System.Logger LOG = System.getLogger(NativeRowQuery.class.getName());
    private static final int SQLITE_OK = 0;
    private static final int SQLITE_ROW = 100;
    private static final int SQLITE_DONE = 101;
    private static final int SQLITE_NULL = 5;
    private static final int SQLITE_NOMEM = 7;
    private static final int SQLITE_PREPARE_PERSISTENT = 0x01;
    /** The destructor argument that tells SQLite to copy bound text before the call returns. */
    private static final long SQLITE_TRANSIENT = -1;
    /** The smallest buffer bound text is staged in: a name or an email fits. */
    private static final int MIN_STAGING_BYTES = 256;
    private static final Api API = Api.load();

    private final Connection connection;
    private final MemorySegment database;
    private final NativeRows rows = new NativeRows();
    private MemorySegment statement;
    /**
     * Where bound text is staged for SQLite, which copies it at once: native memory, so a bind makes no
     * object; made by the first text bind, replaced by a larger one for a longer text, freed with the
     * query's last reference (an automatic arena: a query may be closed on another thread than the one
     * that bound it).
     */
    private MemorySegment staging;

    private NativeRowQuery(Connection connection, MemorySegment database, MemorySegment statement) {
        this.connection = connection;
        this.database = database;
        this.statement = statement;
    }

    /**
     * {@code sql} prepared natively, or null where the native form does not suit: a library without
     * SQLite's C API, or a connection that has SQLite's mutex.
     */
    static NativeRowQuery prepareIfSuited(Connection connection, String sql) throws SQLException {
        return suits(connection) ? prepare(connection, API.handle(connection), sql) : null;
    }

    /** Whether queries on {@code connection} run natively: the library has SQLite's C API, the connection no mutex. */
    static boolean suits(Connection connection) throws SQLException {
        if (API == null) {
            return false;
        }
        try {
            return ((MemorySegment) API.dbMutex.invokeExact(API.handle(connection))).equals(MemorySegment.NULL);
        } catch (SQLException e) {
            throw e;
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    /** {@code sql} prepared natively; for tests, which must know which form they run. */
    static NativeRowQuery prepareNatively(Connection connection, String sql) throws SQLException {
        NativeRowQuery query = prepareIfSuited(connection, sql);
        if (query == null) {
            throw new IllegalStateException("the native form does not suit this library or connection");
        }
        return query;
    }

    private static NativeRowQuery prepare(Connection connection, MemorySegment database, String sql) throws SQLException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            int rc = (int) API.prepare.invokeExact(database, arena.allocateFrom(sql), -1, SQLITE_PREPARE_PERSISTENT, out,
                MemorySegment.NULL);
            check(database, rc);
            MemorySegment statement = out.get(ValueLayout.ADDRESS, 0);
            if (statement.equals(MemorySegment.NULL)) {
                throw new SQLException("no statement in: " + sql);
            }
            return new NativeRowQuery(connection, database, statement);
        } catch (SQLException e) {
            throw e;
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    @Override
    public void bind(int index, long value) throws SQLException {
        MemorySegment statement = statement();
        rows.close(); // SQLite binds only a statement that is not part way through a run
        int rc;
        try {
            rc = (int) API.bindInt64.invokeExact(statement, index, value);
        } catch (Throwable e) {
            throw rethrow(e);
        }
        check(database, rc);
    }

    @Override
    public void bind(int index, byte[] utf8, int from, int length) throws SQLException {
        Objects.checkFromIndexSize(from, length, utf8.length);
        MemorySegment statement = statement();
        rows.close(); // as above
        MemorySegment text = staging(length);
        MemorySegment.copy(utf8, from, text, ValueLayout.JAVA_BYTE, 0, length);
        int rc;
        try {
            rc = (int) API.bindText.invokeExact(statement, index, text, length, SQLITE_TRANSIENT);
        } catch (Throwable e) {
            throw rethrow(e);
        }
        check(database, rc);
    }

    /** The staging buffer, at least {@code length} bytes (and never of none: SQLite reads a NULL address as a NULL value). */
    private MemorySegment staging(int length) {
        if (staging == null || staging.byteSize() < length) {
            staging = Arena.ofAuto().allocate(Math.max(length, staging == null ? MIN_STAGING_BYTES : 2 * staging.byteSize()));
        }
        return staging;
    }

    /** Steps the statement to its end: {@link NativeRows#next} resets it there, and on a failure, which it throws. */
    @Override
    public void execute() throws SQLException {
        MemorySegment statement = statement();
        rows.close();
        rows.start(statement);
        while (rows.next()) {
            // a row of a statement run for its effect is passed over
        }
    }

    @Override
    public Rows run() throws SQLException {
        MemorySegment statement = statement();
        rows.close(); // a run left open starts over
        rows.start(statement);
        return rows;
    }

    /**
     * The rows of the query's current run: the statement itself, stepped. The cursor is one object per
     * query, and text is copied out without a segment per column, so a run allocates nothing.
     */
    private final class NativeRows implements Rows {
        private MemorySegment running;
        /** The column {@link #textLength} last measured on the current row (0: none), its text's address and length. */
        private int measuredColumn;
        private long measuredText;
        private int measuredLength;

        void start(MemorySegment statement) {
            running = statement;
            measuredColumn = 0;
        }

        @Override
        public boolean next() throws SQLException {
            measuredColumn = 0;
            if (running == null) {
                return false;
            }
            int rc;
            try {
                rc = (int) API.step.invokeExact(running);
            } catch (Throwable e) {
                throw rethrow(e);
            }
            if (rc == SQLITE_ROW) {
                return true;
            }
            if (rc == SQLITE_DONE) {
                close();
                return false;
            }
            SQLException failure = failure(database, rc); // its message, before the reset may replace it
            close();
            throw failure;
        }

        @Override
        public long getLong(int column) {
            measuredColumn = 0; // no conversion SQLite makes for it moves text, but nothing is assumed
            try {
                return (long) API.columnInt64.invokeExact(row(), column - 1);
            } catch (Throwable e) {
                throw rethrow(e);
            }
        }

        /**
         * The text's length. Its address is asked first, as SQLite requires ({@code sqlite3_column_text}
         * converts the value to text, then {@code sqlite3_column_bytes} measures that); its type only
         * when SQLite gives no address (a NULL, an empty value, or an allocation that failed, which
         * is thrown): reading the text never turns a NULL into anything else, and a row with text
         * needs one call less.
         */
        @Override
        public int textLength(int column) throws SQLException {
            MemorySegment statement = row();
            if (measure(statement, column)) {
                return measuredLength;
            }
            int errorCode;
            try {
                if ((int) API.columnType.invokeExact(statement, column - 1) == SQLITE_NULL) {
                    return -1;
                }
                errorCode = (int) API.errcode.invokeExact(database);
            } catch (Throwable e) {
                throw rethrow(e);
            }
            if (errorCode == SQLITE_NOMEM) {
                throw failure(database, errorCode); // SQLite could not make the text: never an empty string
            }
            return 0;
        }

        /**
         * Copies from SQLite's memory, read through one segment that spans the address space: the
         * address is a plain integer from the call, so no segment is made per column. The column
         * {@link #textLength} just measured is copied from the address it was given, without asking
         * again (the text stays where it is until the rows move on); another is asked for.
         */
        @Override
        public void copyText(int column, byte[] into, int at) {
            MemorySegment statement = row();
            if (column == measuredColumn || measure(statement, column)) {
                MemorySegment.copy(API.addressSpace, ValueLayout.JAVA_BYTE, measuredText, into, at, measuredLength);
            }
        }

        /** Asks for the column's text, address then length, and keeps both: false when SQLite gives no address. */
        private boolean measure(MemorySegment statement, int column) {
            long text;
            int length;
            try {
                text = (long) API.columnText.invokeExact(statement, column - 1);
                length = (int) API.columnBytes.invokeExact(statement, column - 1);
            } catch (Throwable e) {
                throw rethrow(e);
            }
            if (text == 0) {
                return false;
            }
            measuredColumn = column;
            measuredText = text;
            measuredLength = length;
            return true;
        }

        private MemorySegment row() {
            if (running == null) {
                throw new IllegalStateException("no current row: the run is over");
            }
            return running;
        }

        /** Readies the statement for its next run; an error of this run was already thrown by its step. */
        @Override
        public void close() {
            measuredColumn = 0;
            if (running != null) {
                try {
                    int ignored = (int) API.reset.invokeExact(running);
                } catch (Throwable e) {
                    throw rethrow(e);
                } finally {
                    running = null;
                }
            }
        }
    }

    /**
     * The statement, while the query and its connection are open: a connection sqlite-jdbc closed
     * (after a failed rollback, say) must not go on answering reads through a handle it gave up.
     */
    private MemorySegment statement() throws SQLException {
        if (statement == null || connection.isClosed()) {
            throw new SQLException(statement == null ? "the query is closed" : "the connection is closed");
        }
        return statement;
    }

    @Override
    public void close() {
        if (statement != null) {
            rows.close();
            try {
                int ignored = (int) API.finalizeStatement.invokeExact(statement);
            } catch (Throwable e) {
                throw rethrow(e);
            } finally {
                statement = null;
            }
        }
    }

    private static void check(MemorySegment database, int rc) throws SQLException {
        if (rc != SQLITE_OK) {
            throw failure(database, rc);
        }
    }

    /** The exception sqlite-jdbc would throw for {@code rc}: its type, code and message form. */
    private static SQLException failure(MemorySegment database, int rc) {
        String message;
        try {
            message = ((MemorySegment) API.errmsg.invokeExact(database)).getString(0);
        } catch (Throwable e) {
            throw rethrow(e);
        }
        SQLiteErrorCode code = SQLiteErrorCode.getErrorCode(rc);
        return new SQLiteException(code + " (" + message + ")", code);
    }

    /** A downcall's unexpected throwable as an unchecked one (they throw none of their own). */
    private static RuntimeException rethrow(Throwable e) {
        if (e instanceof Error error) {
            throw error;
        }
        return e instanceof RuntimeException runtime ? runtime : new IllegalStateException(e);
    }

    /**
     * The C API's functions, the getter of the driver's handle, and all of the process's memory as one
     * read-only segment, which a column's text is copied from at the address SQLite gives (only ever
     * read at an address and length SQLite just returned for a current row); null where the functions
     * or the handle are missing, or where this module may not use restricted methods.
     */
    private record Api(MethodHandle prepare, MethodHandle step, MethodHandle reset, MethodHandle bindInt64, MethodHandle bindText,
                       MethodHandle columnInt64, MethodHandle columnText, MethodHandle columnBytes, MethodHandle columnType,
                       MethodHandle finalizeStatement, MethodHandle errmsg, MethodHandle errcode, MethodHandle dbMutex,
                       MethodHandle pointer, MemorySegment addressSpace) {
        /** Bytes at an address whose length the caller knows: a NUL-terminated message. */
        private static final ValueLayout BYTES = ValueLayout.ADDRESS.withTargetLayout(
            MemoryLayout.sequenceLayout(Integer.MAX_VALUE, ValueLayout.JAVA_BYTE));

        static Api load() {
            SymbolLookup sqlite = SqliteLibrary.symbols().orElse(null);
            if (sqlite == null) {
                return null; // sqlite-jdbc's bundled library, or the user's: read through JDBC
            }
            try {
                Class<?> nativeDb = Class.forName("org.sqlite.core.NativeDB");
                MethodHandle pointer = MethodHandles.privateLookupIn(nativeDb, MethodHandles.lookup())
                    .findGetter(nativeDb, "pointer", long.class)
                    .asType(MethodType.methodType(long.class, Object.class));
                Linker linker = Linker.nativeLinker();
                ValueLayout address = ValueLayout.ADDRESS;
                ValueLayout integer = ValueLayout.JAVA_INT;
                return new Api(
                    function(linker, sqlite, "sqlite3_prepare_v3", FunctionDescriptor.of(integer, address, address, integer, integer, address, address), false),
                    function(linker, sqlite, "sqlite3_step", FunctionDescriptor.of(integer, address), false),
                    function(linker, sqlite, "sqlite3_reset", FunctionDescriptor.of(integer, address), false),
                    function(linker, sqlite, "sqlite3_bind_int64", FunctionDescriptor.of(integer, address, integer, ValueLayout.JAVA_LONG), true),
                    // the staging segment itself (kept by the query: no segment per call), the destructor SQLITE_TRANSIENT (-1) as an integer
                    function(linker, sqlite, "sqlite3_bind_text",
                        FunctionDescriptor.of(integer, address, integer, address, integer, ValueLayout.JAVA_LONG), true),
                    function(linker, sqlite, "sqlite3_column_int64", FunctionDescriptor.of(ValueLayout.JAVA_LONG, address, integer), true),
                    // the text's address as an integer (a pointer is 64 bits on every platform the build supports): no segment per call
                    function(linker, sqlite, "sqlite3_column_text", FunctionDescriptor.of(ValueLayout.JAVA_LONG, address, integer), true),
                    function(linker, sqlite, "sqlite3_column_bytes", FunctionDescriptor.of(integer, address, integer), true),
                    function(linker, sqlite, "sqlite3_column_type", FunctionDescriptor.of(integer, address, integer), true),
                    function(linker, sqlite, "sqlite3_finalize", FunctionDescriptor.of(integer, address), false),
                    function(linker, sqlite, "sqlite3_errmsg", FunctionDescriptor.of(BYTES, address), false),
                    function(linker, sqlite, "sqlite3_errcode", FunctionDescriptor.of(integer, address), true),
                    function(linker, sqlite, "sqlite3_db_mutex", FunctionDescriptor.of(address, address), false),
                    pointer,
                    MemorySegment.NULL.reinterpret(Long.MAX_VALUE).asReadOnly());
            } catch (ReflectiveOperationException | RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "hotpath's SQLite build runs, but its C API cannot be used (" + e
                    + "): SQLite reads go through JDBC");
                return null;
            }
        }

        private static MethodHandle function(Linker linker, SymbolLookup sqlite, String name, FunctionDescriptor descriptor,
                                             boolean critical) {
            MemorySegment symbol = sqlite.find(name)
                .orElseThrow(() -> new IllegalStateException("the library does not export " + name));
            return critical ? linker.downcallHandle(symbol, descriptor, Linker.Option.critical(false))
                : linker.downcallHandle(symbol, descriptor);
        }

        /** The connection's {@code sqlite3 *}. */
        MemorySegment handle(Connection connection) throws SQLException {
            long address;
            try {
                address = (long) pointer.invokeExact((Object) connection.unwrap(SQLiteConnection.class).getDatabase());
            } catch (SQLException e) {
                throw e;
            } catch (Throwable e) {
                throw rethrow(e);
            }
            if (address == 0) {
                throw new SQLException("the connection is closed");
            }
            return MemorySegment.ofAddress(address);
        }
    }
}
