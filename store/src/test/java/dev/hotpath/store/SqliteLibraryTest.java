package dev.hotpath.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store's connections run on the SQLite this machine's C compiler built (the test suite requires
 * one, so the build made the library), loaded from a file that is already gone.
 */
class SqliteLibraryTest {
    @Test
    void connectionsRunOnTheSqliteThisMachinesCompilerBuilt(@TempDir Path dir) throws Exception {
        assertThat(SqliteLibrary.install()).isEqualTo(SqliteLibrary.Build.HOTPATH);
        assertThat(SqliteLibrary.install()).isEqualTo(SqliteLibrary.Build.HOTPATH);

        try (Connection db = SqliteDatabase.openForWriting(dir.resolve("t.db"), Durability.NORMAL);
             Statement s = db.createStatement();
             ResultSet rs = s.executeQuery("SELECT compile_options FROM pragma_compile_options WHERE compile_options LIKE 'COMPILER=%'")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).startsWith("COMPILER=gcc-" + compilerVersion()); // some distributions append a date
        }
    }

    @Test
    void theLoadedLibraryLeavesNoFileBehind() throws IOException {
        SqliteLibrary.install();

        List<String> mapped = Files.readAllLines(Path.of("/proc/self/maps")).stream()
            .filter(line -> line.contains("libsqlitejdbc.so")).toList();
        assertThat(mapped).isNotEmpty().allSatisfy(line -> assertThat(line).contains("/hotpath-sqlite").endsWith("(deleted)"));
    }

    /** What {@code cc -dumpfullversion} says, as SQLite's {@code COMPILER} option spells gcc's version. */
    private static String compilerVersion() throws IOException, InterruptedException {
        Process cc = new ProcessBuilder(System.getenv().getOrDefault("CC", "cc"), "-dumpfullversion").redirectErrorStream(true).start();
        String version = new String(cc.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
        assertThat(cc.waitFor()).isZero();
        return version;
    }
}
