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
 * at its start; and a library that does not export SQLite's C API (which dev.hotpath.store.RowQuery
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
        // SQLITE_API exports the whole C API or none of it: one function stands for all.
        try (Arena arena = Arena.ofConfined()) {
            if (SymbolLookup.libraryLookup(Path.of(library), arena).find("sqlite3_prepare_v3").isEmpty()) {
                System.err.println("hotpath: " + library + " does not export SQLite's C API (sqlite3_prepare_v3)");
                System.exit(1);
            }
        }
        System.err.println("hotpath: sqlite-jdbc runs on the new build of SQLite " + version);
    }
}
