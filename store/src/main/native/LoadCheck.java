import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;

/**
 * Run by build-sqlite.sh on a library it has just compiled, with the driver jar as the class path and
 * {@code org.sqlite.lib.path}/{@code org.sqlite.lib.name} naming the library: the glue looks up the
 * driver's classes, fields and methods when the library loads, so loading it once here, and answering
 * one query through it, fails the build on a glue that does not fit the driver instead of the server
 * at its start; and a library that does not export SQLite's C API (which dev.hotpath.store.BytesQuery
 * calls) fails it too, instead of the server quietly reading through JDBC. About two seconds, only
 * when a library is compiled (not when it comes from the cache).
 *
 * <p>{@code java LoadCheck.java LIBRARY}: exits 0 when the driver answered through LIBRARY.
 */
public class LoadCheck {
    public static void main(String[] args) throws Exception {
        String version;
        try (Connection db = DriverManager.getConnection("jdbc:sqlite::memory:");
             ResultSet rs = db.createStatement().executeQuery("SELECT sqlite_version()")) {
            rs.next();
            version = rs.getString(1);
        }
        String library = Path.of(args[0]).toRealPath().toString();
        if (Files.readAllLines(Path.of("/proc/self/maps")).stream().noneMatch(line -> line.endsWith(library))) {
            System.err.println("hotpath: sqlite-jdbc answered, but not through " + library);
            System.exit(1);
        }
        try (Arena arena = Arena.ofConfined()) {
            SymbolLookup symbols = SymbolLookup.libraryLookup(Path.of(library), arena);
            for (String function : new String[] {"sqlite3_prepare_v3", "sqlite3_step", "sqlite3_reset", "sqlite3_bind_int64",
                "sqlite3_column_blob", "sqlite3_column_bytes", "sqlite3_column_type", "sqlite3_finalize", "sqlite3_errmsg",
                "sqlite3_db_mutex"}) {
                if (symbols.find(function).isEmpty()) {
                    System.err.println("hotpath: " + library + " does not export SQLite's C API (" + function + ")");
                    System.exit(1);
                }
            }
        }
        System.err.println("hotpath: sqlite-jdbc runs on the new build of SQLite " + version);
    }
}
