package dev.hotpath.store;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import org.sqlite.SQLiteJDBCLoader;

/**
 * Chooses the SQLite library under sqlite-jdbc: hotpath's own build when the jar has one for this
 * platform, else the one the driver bundles. Both are the same SQLite with the same compile-time
 * options; the driver's is compiled with gcc 4.1.2 (2008) at {@code -Os}, hotpath's by the machine that
 * built the jar at {@code -O2} ({@code src/main/native/build-sqlite.sh}), which took the social API's
 * server CPU per request to 0.855× in its closed-loop mix (docs/BENCHMARKS.md).
 *
 * <p>The driver loads its library once, when its first connection opens, and the whole process then
 * shares it, which is also a rule: two copies of SQLite in one process do not see each other's locks on
 * a file. So {@link #install()} must run before anything opens a connection: {@link SqliteDatabase} calls
 * it, and so must any code that opens one through {@code DriverManager} itself. The library is copied to
 * a private temporary directory (under {@code org.sqlite.tmpdir} when set, as the driver's own copy
 * would be, else {@code java.io.tmpdir}), loaded, and deleted at once (the loaded mapping stays): about
 * 1.6 MB written once per process, and nothing left behind when the process dies.
 */
public final class SqliteLibrary {
    private static final System.Logger LOG = System.getLogger(SqliteLibrary.class.getName());
    private static final String NAME = "libsqlitejdbc.so";
    /** The driver's properties for a library of one's own: a directory and a file name in it. */
    private static final String PATH_PROPERTY = "org.sqlite.lib.path";
    private static final String NAME_PROPERTY = "org.sqlite.lib.name";

    /** Which library the driver runs on. */
    public enum Build {
        /** hotpath's build, from this jar. */
        HOTPATH,
        /** The library the driver bundles: the jar has none for this platform, or it failed to load. */
        DRIVER_BUNDLED,
        /** The one {@code -Dorg.sqlite.lib.path} names: the user's choice, left alone. */
        CONFIGURED
    }

    private static volatile Build installed;
    /** The symbols of hotpath's build, once loaded: SQLite's C API for {@link RowQuery}. */
    private static volatile SymbolLookup symbols;

    private SqliteLibrary() {
    }

    /** Loads the library, the first time; after that returns which one was loaded. */
    public static Build install() {
        Build build = installed;
        if (build == null) {
            synchronized (SqliteLibrary.class) {
                build = installed;
                if (build == null) {
                    build = load();
                    installed = build;
                }
            }
        }
        return build;
    }

    private static Build load() {
        if (System.getProperty(PATH_PROPERTY) != null) {
            initializeDriver();
            return Build.CONFIGURED;
        }
        try (InputStream library = SqliteLibrary.class.getResourceAsStream(resource())) {
            if (library == null) {
                LOG.log(System.Logger.Level.INFO, "running on sqlite-jdbc's bundled SQLite build: this jar has none of its own for " + platform()
                    + " (it was built without a C compiler or curl, or on another platform)");
                initializeDriver();
                return Build.DRIVER_BUNDLED;
            }
            Path directory = Files.createTempDirectory(temporaryDirectory(), "hotpath-sqlite");
            Path file = directory.resolve(NAME);
            try {
                Files.copy(library, file);
                System.setProperty(PATH_PROPERTY, directory.toString());
                System.setProperty(NAME_PROPERTY, NAME);
                initializeDriver();
                if (mapped(file.toRealPath())) {
                    // Opened by path while the file is still there: the handle of the library the driver
                    // loaded, not a second copy, and not whatever else a class loader may hold.
                    symbols = SymbolLookup.libraryLookup(file, Arena.global());
                    return Build.HOTPATH;
                }
                LOG.log(System.Logger.Level.WARNING, "sqlite-jdbc did not load hotpath's SQLite build from " + file
                    + " (a connection opened before SqliteLibrary.install(), or a temporary directory mounted noexec?):"
                    + " running on its bundled build");
                return Build.DRIVER_BUNDLED;
            } finally {
                System.clearProperty(PATH_PROPERTY);
                System.clearProperty(NAME_PROPERTY);
                Files.deleteIfExists(file);
                Files.delete(directory);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot install hotpath's SQLite build from the jar", e);
        }
    }

    /** The symbols of hotpath's build when the process runs on it (after {@link #install()}), else empty. */
    static Optional<SymbolLookup> symbols() {
        install();
        return Optional.ofNullable(symbols);
    }

    /** Where the jar holds its own build of the library for this platform (absent without one). */
    static String resource() {
        return "/dev/hotpath/store/sqlite/" + platform() + "/" + NAME;
    }

    /** The platform directory {@code build-sqlite.sh} writes to, e.g. {@code linux-x86_64}. */
    private static String platform() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT).replace(' ', '-');
        String arch = System.getProperty("os.arch");
        return os + "-" + ("amd64".equals(arch) ? "x86_64" : arch);
    }

    private static Path temporaryDirectory() {
        return Path.of(System.getProperty("org.sqlite.tmpdir", System.getProperty("java.io.tmpdir")));
    }

    /**
     * Has the driver load its library. A library whose JNI glue does not fit the driver's classes fails
     * here with a {@link LinkageError}; nothing falls back then (the half-loaded library would keep its
     * symbols), so the process stops with the reason.
     */
    private static void initializeDriver() {
        try {
            SQLiteJDBCLoader.initialize();
        } catch (Exception | LinkageError e) {
            throw new IllegalStateException("sqlite-jdbc could not load its SQLite library (a build of hotpath's"
                + " SQLite made for another sqlite-jdbc? rebuild with ./mvnw clean package)", e);
        }
    }

    /**
     * Whether {@code file} is mapped into this process, i.e. the driver loaded it (Linux, the only
     * platform built). Where {@code /proc/self/maps} cannot be read, the load succeeded and is taken as
     * done, unverified.
     */
    private static boolean mapped(Path file) throws IOException {
        Path maps = Path.of("/proc/self/maps");
        if (!Files.isReadable(maps)) {
            return true;
        }
        String name = file.toString();
        try (var lines = Files.lines(maps)) {
            return lines.anyMatch(line -> line.endsWith(name));
        }
    }
}
