package dev.hotpath.apps.messages;

import dev.hotpath.apps.messages.internal.MessageStore;
import dev.hotpath.store.Durability;
import dev.hotpath.store.PostgresConfig;
import dev.hotpath.store.SqliteDatabase;
import dev.hotpath.store.testing.ThrowawayPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The two places the messages ITs run against ({@code @ParameterizedClass @EnumSource(TestStore.class)}):
 * SQLite in a temp data directory, and a database of its own per test on the shared throwaway
 * PostgreSQL. Each test gets a fresh {@link Place}, which opens the app the way {@code serve} does and
 * looks at the table directly, in the store's own SQL.
 */
public enum TestStore {
    SQLITE {
        @Override
        public Place fresh(Path dir) {
            return new Place(this, dir, null);
        }
    },
    POSTGRES {
        @Override
        public Place fresh(Path dir) {
            String uri = ThrowawayPostgres.shared().createDatabase("messages_" + DATABASES.incrementAndGet());
            return new Place(this, null, PostgresConfig.parse(uri, name -> null));
        }
    };

    private static final AtomicInteger DATABASES = new AtomicInteger();

    /** A store no test has used. */
    public abstract Place fresh(Path dir);

    /** One test's store. */
    public record Place(TestStore kind, Path dir, PostgresConfig postgres) {
        /** The app's config; PostgreSQL knows only {@code FULL} durability, so {@code durability} is SQLite's. */
        MessagesConfig config(Durability durability, int maxBatch, Clock clock) {
            return postgres == null ? new MessagesConfig(dir, durability, maxBatch, clock)
                : MessagesConfig.postgres(postgres, maxBatch, clock);
        }

        /** The store itself, as the app opens it ({@code NORMAL} durability for SQLite), for a test of the internals. */
        public MessageStore open() {
            return MessagesApp.openStore(config(Durability.NORMAL, MessagesConfig.MAX_BATCH, Clock.systemUTC()));
        }

        /** A connection of the test's own that writes (SQLite's file or the PostgreSQL database). */
        Connection connect() throws SQLException {
            if (postgres == null) {
                return SqliteDatabase.open(dir.resolve("messages.db"));
            }
            Properties properties = new Properties();
            properties.setProperty("user", postgres.user());
            return DriverManager.getConnection(postgres.jdbcUrl(), properties);
        }

        /** Every stored row as {@code hex id|from|to|text|created_at}, in id order. */
        List<String> rows() throws SQLException {
            String sql = postgres == null
                ? "SELECT lower(hex(id)), from_user, to_user, body, created_at FROM messages ORDER BY id"
                : "SELECT encode(id, 'hex'), from_user, to_user, convert_from(body, 'UTF8'), created_at FROM messages"
                    + " ORDER BY id";
            List<String> rows = new ArrayList<>();
            try (Connection db = connect(); Statement s = db.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                while (rs.next()) {
                    rows.add(rs.getString(1) + "|" + rs.getString(2) + "|" + rs.getString(3) + "|" + rs.getString(4)
                        + "|" + rs.getString(5));
                }
            }
            return rows;
        }

        /** Stored rows, and distinct ids among them. */
        public long[] count() throws SQLException {
            try (Connection db = connect(); Statement s = db.createStatement();
                 ResultSet rs = s.executeQuery("SELECT count(*), count(DISTINCT id) FROM messages")) {
                rs.next();
                return new long[] {rs.getLong(1), rs.getLong(2)};
            }
        }

        /** Makes the store itself refuse (an error of the row's own) every insert of a message with this text. */
        void refuseText(String text) throws SQLException {
            try (Connection db = connect(); Statement s = db.createStatement()) {
                if (postgres == null) {
                    s.execute("CREATE TRIGGER refuse_text BEFORE INSERT ON messages WHEN NEW.body = '" + text + "'"
                        + " BEGIN SELECT RAISE(ABORT, 'refused by the test'); END");
                } else {
                    s.execute("CREATE FUNCTION refuse_text() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                        + " RAISE check_violation USING MESSAGE = 'refused by the test'; END $$");
                    s.execute("CREATE TRIGGER refuse_text BEFORE INSERT ON messages FOR EACH ROW"
                        + " WHEN (NEW.body = convert_to('" + text + "', 'UTF8')) EXECUTE FUNCTION refuse_text()");
                }
            }
        }
    }
}
