package dev.hotpath.store;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * A fresh JVM for {@link SqliteLibraryFallbackTest}: {@link SqliteLibrary#install()} chooses once per
 * process, so each of its branches needs a process of its own. Prints {@code build=} the choice,
 * {@code mapped=} each SQLite library file the process maps, {@code query=ok} once a connection
 * opened through {@link SqliteDatabase} has answered, and {@code row-query=} the form
 * {@link RowQuery} took on a server's connection and what it read.
 *
 * <p>Arguments: {@code connection-first} (open a connection through the driver before installing) or
 * {@code install}, then a database file.
 */
public final class SqliteLibraryProbe {
    private SqliteLibraryProbe() {
    }

    public static void main(String[] args) throws Exception {
        Path database = Path.of(args[1]);
        if (args[0].equals("connection-first")) {
            DriverManager.getConnection("jdbc:sqlite:" + database).close();
        }
        System.out.println("build=" + SqliteLibrary.install());
        Files.readAllLines(Path.of("/proc/self/maps")).stream()
            .filter(line -> line.contains("sqlitejdbc"))
            .map(line -> "mapped=" + line.substring(line.indexOf('/')))
            .distinct()
            .forEach(System.out::println);
        try (Connection db = SqliteDatabase.open(database);
             Statement s = db.createStatement();
             ResultSet rs = s.executeQuery("SELECT 6 * 7")) {
            System.out.println(rs.next() && rs.getInt(1) == 42 ? "query=ok" : "query=wrong");
        }
        try (Connection db = SqliteDatabase.openForWriting(database, Durability.FULL);
             RowQuery query = RowQuery.prepare(db, "SELECT 6 * 7, CAST('42' AS BLOB)");
             RowQuery.Rows rows = query.run()) {
            String row = "no row";
            if (rows.next()) {
                byte[] text = new byte[rows.textLength(2)];
                rows.copyText(2, text, 0);
                row = rows.getLong(1) + " " + new String(text, StandardCharsets.US_ASCII);
            }
            System.out.println("row-query=" + query.getClass().getSimpleName() + " " + row);
        }
    }
}
