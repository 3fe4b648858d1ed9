package dev.hotpath.bench.social;

import dev.hotpath.apps.social.PostReads;
import dev.hotpath.apps.social.SocialSeed;
import dev.hotpath.http.Response;
import dev.hotpath.store.RowQuery;
import dev.hotpath.store.SqliteDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The social API's two reads without HTTP around them: one {@code /feed} answer and one
 * {@code /posts/{id}} answer built from a read-only connection, as an event loop builds them;
 * {@code feedQueryOnly}, the feed's own query stepped through by JDBC without reading a column: JDBC's
 * floor, which {@code feed} (through SQLite's C API where the library has it, {@code RowQuery}) can go
 * below; and {@code feedRowsNative} and {@code feedRowsJdbc}, the feed's rows with every column read
 * and no JSON, through each form of {@code RowQuery}. {@code -p db=FILE} runs on an existing seed (the
 * full challenge size); by default a tenth-size seed is generated into a temporary directory. Since
 * dc4ee4e {@code feed} and {@code post} return the whole answer (its header fields and one copy of the
 * body), where before they returned the body alone: their figures before and after are not one series.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class PostReadsBenchmark {
    @Param("")
    public String db;

    private Path generated;
    private Connection connection;
    private PostReads reads;
    private PreparedStatement feedQuery;
    private RowQuery feedRowsNative;
    private RowQuery feedRowsJdbc;
    private long postId;
    /** Where {@link #readAll} copies each text column, as a writer copies it into its answer. */
    private byte[] text = new byte[1024];

    @Setup(Level.Trial)
    public void open() throws IOException, SQLException {
        Path file;
        if (db.isEmpty()) {
            generated = Files.createTempDirectory("post-reads-bench");
            file = generated.resolve("seed.db");
            SocialSeed.generate(file, new SocialSeed.Size(5_000, 50_000), 1);
        } else {
            file = Path.of(db);
        }
        connection = SqliteDatabase.openForReading(file);
        reads = new PostReads(connection);
        feedQuery = connection.prepareStatement(PostReads.FEED_QUERY);
        feedRowsNative = RowQuery.prepare(connection, PostReads.FEED_QUERY);
        feedRowsJdbc = RowQuery.jdbc(connection, PostReads.FEED_QUERY);
        if (feedRowsNative.getClass() == feedRowsJdbc.getClass()) {
            throw new IllegalStateException("the native form is not available here: run on hotpath's SQLite build");
        }
    }

    @Benchmark
    public Response feed() throws SQLException {
        return reads.feed();
    }

    @Benchmark
    public int feedQueryOnly() throws SQLException {
        int rows = 0;
        try (ResultSet rs = feedQuery.executeQuery()) {
            while (rs.next()) {
                rows++;
            }
        }
        return rows;
    }

    /** The feed's rows read through SQLite's C API ({@code RowQuery}'s native form), no JSON around them. */
    @Benchmark
    public long feedRowsNative() throws SQLException {
        return readAll(feedRowsNative);
    }

    /** The same rows through sqlite-jdbc ({@code RowQuery}'s JDBC form). */
    @Benchmark
    public long feedRowsJdbc() throws SQLException {
        return readAll(feedRowsJdbc);
    }

    /** Every column of every row, as the feed reads them, the text copied out: the sum of the integers and the text lengths. */
    private long readAll(RowQuery query) throws SQLException {
        long sum = 0;
        try (RowQuery.Rows rows = query.run()) {
            while (rows.next()) {
                sum += rows.getLong(1) + copied(rows, 2) + copied(rows, 3) + copied(rows, 4) + rows.getLong(5);
            }
        }
        return sum;
    }

    /** Copies the column's text into {@link #text}, grown to fit; its length. */
    private int copied(RowQuery.Rows rows, int column) throws SQLException {
        int length = rows.textLength(column);
        if (text.length < length) {
            text = new byte[length];
        }
        rows.copyText(column, text, 0);
        return length;
    }

    @Benchmark
    public Response post() throws SQLException {
        postId = postId % 40_000 + 1_009;
        return reads.post(postId);
    }

    @TearDown(Level.Trial)
    public void close() throws IOException, SQLException {
        feedQuery.close();
        feedRowsNative.close();
        feedRowsJdbc.close();
        reads.close();
        connection.close();
        if (generated != null) {
            try (var files = Files.list(generated)) {
                for (Path f : files.toList()) {
                    Files.delete(f);
                }
            }
            Files.delete(generated);
        }
    }
}
