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
import java.util.Optional;
import org.sqlite.SQLiteConnection;

/**
 * {@link BytesQuery} through SQLite's C API ({@code sqlite3_prepare_v3}, {@code _step},
 * {@code _column_blob}, ...), called with the JDK's foreign-function API on the handle of the
 * connection sqlite-jdbc opened: the same connection, so its page cache, transactions and busy timeout
 * are the ones JDBC uses on it. The handle ({@code sqlite3 *}) is sqlite-jdbc's own, kept in a private
 * field of its {@code NativeDB}, and read once per query; the driver's version is pinned, and were the
 * field gone, queries go through JDBC and the process says why once.
 *
 * <p>The calls that only read memory SQLite already holds (binding, the column's pointer and length)
 * are made as critical calls, without the transition a call that may block needs; stepping, which may
 * read the disk or wait on a lock, is not.
 */
final class NativeBytesQuery extends BytesQuery {
    private static final System.Logger LOG = System.getLogger(NativeBytesQuery.class.getName());
    private static final int SQLITE_OK = 0;
    private static final int SQLITE_ROW = 100;
    private static final int SQLITE_DONE = 101;
    private static final int SQLITE_NULL = 5;
    private static final int SQLITE_PREPARE_PERSISTENT = 0x01;
    private static final Api API = Api.load();

    private final MemorySegment database;
    private MemorySegment statement;

    private NativeBytesQuery(MemorySegment database, MemorySegment statement) {
        this.database = database;
        this.statement = statement;
    }

    /** Whether the loaded SQLite library exports its C API and the driver's handle can be read. */
    static boolean available() {
        return API != null;
    }

    static NativeBytesQuery prepareNatively(Connection connection, String sql) throws SQLException {
        MemorySegment database = API.handle(connection);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            int rc = (int) API.prepare.invokeExact(database, arena.allocateFrom(sql), -1, SQLITE_PREPARE_PERSISTENT, out,
                MemorySegment.NULL);
            if (rc != SQLITE_OK) {
                throw failure(database, rc);
            }
            MemorySegment statement = out.get(ValueLayout.ADDRESS, 0);
            if (statement.equals(MemorySegment.NULL)) {
                throw new SQLException("no statement in: " + sql);
            }
            return new NativeBytesQuery(database, statement);
        } catch (SQLException e) {
            throw e;
        } catch (Throwable e) {
            throw unexpected(e);
        }
    }

    @Override
    public void bind(int index, long value) throws SQLException {
        try {
            int rc = (int) API.bindInt64.invokeExact(statement(), index, value);
            if (rc != SQLITE_OK) {
                throw failure(database, rc);
            }
        } catch (SQLException e) {
            throw e;
        } catch (Throwable e) {
            throw unexpected(e);
        }
    }

    @Override
    public int run(byte[][] rows) throws SQLException {
        MemorySegment statement = statement();
        int count = 0;
        try {
            while (count < rows.length && step(statement)) {
                rows[count++] = column(statement);
            }
            return count;
        } finally {
            reset(statement);
        }
    }

    @Override
    public byte[] first() throws SQLException {
        MemorySegment statement = statement();
        try {
            return step(statement) ? column(statement) : null;
        } finally {
            reset(statement);
        }
    }

    /** True at a row, false when the query is done. */
    private boolean step(MemorySegment statement) throws SQLException {
        int rc;
        try {
            rc = (int) API.step.invokeExact(statement);
        } catch (Throwable e) {
            throw unexpected(e);
        }
        if (rc == SQLITE_ROW) {
            return true;
        }
        if (rc == SQLITE_DONE) {
            return false;
        }
        throw failure(database, rc);
    }

    /** The current row's first column, copied out of SQLite's memory (valid only until the next step). */
    private static byte[] column(MemorySegment statement) {
        try {
            MemorySegment bytes = (MemorySegment) API.columnBlob.invokeExact(statement, 0);
            int length = (int) API.columnBytes.invokeExact(statement, 0);
            if (bytes.equals(MemorySegment.NULL)) {
                return (int) API.columnType.invokeExact(statement, 0) == SQLITE_NULL ? null : new byte[0];
            }
            byte[] copy = new byte[length];
            MemorySegment.copy(bytes, ValueLayout.JAVA_BYTE, 0, copy, 0, length);
            return copy;
        } catch (Throwable e) {
            throw unexpected(e);
        }
    }

    /** Ends the run (and its read transaction); an error of the run was already thrown by its step. */
    private static void reset(MemorySegment statement) {
        try {
            int ignored = (int) API.reset.invokeExact(statement);
        } catch (Throwable e) {
            throw unexpected(e);
        }
    }

    private MemorySegment statement() throws SQLException {
        if (statement == null) {
            throw new SQLException("the query is closed");
        }
        return statement;
    }

    @Override
    public void close() {
        if (statement != null) {
            try {
                int ignored = (int) API.finalizeStatement.invokeExact(statement);
            } catch (Throwable e) {
                throw unexpected(e);
            } finally {
                statement = null;
            }
        }
    }

    /** SQLite's message for the connection's last error, as sqlite-jdbc would report it. */
    private static SQLException failure(MemorySegment database, int rc) {
        String message;
        try {
            message = ((MemorySegment) API.errmsg.invokeExact(database)).getString(0);
        } catch (Throwable e) {
            throw unexpected(e);
        }
        return new SQLException("[SQLITE " + rc + "] " + message, null, rc);
    }

    private static RuntimeException unexpected(Throwable e) {
        if (e instanceof RuntimeException runtime) {
            return runtime;
        }
        if (e instanceof Error error) {
            throw error;
        }
        return new IllegalStateException(e);
    }

    /** The C API's functions, and the getter of the driver's handle; null where either is missing. */
    private record Api(MethodHandle prepare, MethodHandle step, MethodHandle reset, MethodHandle bindInt64,
                       MethodHandle columnBlob, MethodHandle columnBytes, MethodHandle columnType,
                       MethodHandle finalizeStatement, MethodHandle errmsg, MethodHandle pointer) {
        /** Bytes at an address whose length the caller knows (a column, a NUL-terminated message). */
        private static final ValueLayout BYTES = ValueLayout.ADDRESS.withTargetLayout(
            MemoryLayout.sequenceLayout(Integer.MAX_VALUE, ValueLayout.JAVA_BYTE));

        static Api load() {
            SqliteLibrary.install();
            SymbolLookup sqlite = SymbolLookup.loaderLookup();
            if (sqlite.find("sqlite3_step").isEmpty()) {
                return null; // a library without the C API exported: sqlite-jdbc's bundled one, or the user's
            }
            MethodHandle pointer;
            try {
                Class<?> nativeDb = Class.forName("org.sqlite.core.NativeDB");
                pointer = MethodHandles.privateLookupIn(nativeDb, MethodHandles.lookup())
                    .findGetter(nativeDb, "pointer", long.class)
                    .asType(MethodType.methodType(long.class, Object.class));
            } catch (ReflectiveOperationException | RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "sqlite-jdbc's connection handle cannot be read (" + e
                    + "): SQLite queries go through JDBC");
                return null;
            }
            Linker linker = Linker.nativeLinker();
            ValueLayout address = ValueLayout.ADDRESS;
            ValueLayout integer = ValueLayout.JAVA_INT;
            return new Api(
                function(linker, sqlite, "sqlite3_prepare_v3", FunctionDescriptor.of(integer, address, address, integer, integer, address, address), false),
                function(linker, sqlite, "sqlite3_step", FunctionDescriptor.of(integer, address), false),
                function(linker, sqlite, "sqlite3_reset", FunctionDescriptor.of(integer, address), false),
                function(linker, sqlite, "sqlite3_bind_int64", FunctionDescriptor.of(integer, address, integer, ValueLayout.JAVA_LONG), true),
                function(linker, sqlite, "sqlite3_column_blob", FunctionDescriptor.of(BYTES, address, integer), true),
                function(linker, sqlite, "sqlite3_column_bytes", FunctionDescriptor.of(integer, address, integer), true),
                function(linker, sqlite, "sqlite3_column_type", FunctionDescriptor.of(integer, address, integer), true),
                function(linker, sqlite, "sqlite3_finalize", FunctionDescriptor.of(integer, address), false),
                function(linker, sqlite, "sqlite3_errmsg", FunctionDescriptor.of(BYTES, address), true),
                pointer);
        }

        private static MethodHandle function(Linker linker, SymbolLookup sqlite, String name, FunctionDescriptor descriptor,
                                             boolean critical) {
            Optional<MemorySegment> symbol = sqlite.find(name);
            if (symbol.isEmpty()) {
                throw new IllegalStateException("the SQLite library exports sqlite3_step but not " + name);
            }
            return critical ? linker.downcallHandle(symbol.get(), descriptor, Linker.Option.critical(false))
                : linker.downcallHandle(symbol.get(), descriptor);
        }

        /** The connection's {@code sqlite3 *}. */
        MemorySegment handle(Connection connection) throws SQLException {
            long address;
            try {
                address = (long) pointer.invokeExact((Object) connection.unwrap(SQLiteConnection.class).getDatabase());
            } catch (SQLException e) {
                throw e;
            } catch (Throwable e) {
                throw unexpected(e);
            }
            if (address == 0) {
                throw new SQLException("the connection is closed");
            }
            return MemorySegment.ofAddress(address);
        }
    }
}
