package dev.hotpath.apps.messages.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hotpath.store.Durability;
import dev.hotpath.store.SqliteDatabase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lists kept behind the writer: a message is on its pages from its commit on, whether a pass has
 * listed it yet or not; passes run when {@link ListIndex} says, list at most their bound, and a failed
 * one changes nothing. Each test drives the passes itself on one write connection, as the writer
 * thread would, and reads on a connection of its own, as an event loop does.
 */
class ListIndexIT {
    private static final String[] USERS = {"alice", "bob", "carol", "dave"};
    private static final Pattern MESSAGE_ID = Pattern.compile("\\{\"id\":\"([0-9a-f-]{36})\"");
    private static final Pattern NEXT = Pattern.compile("\"next\":(null|\"[0-9a-f-]{36}\")}$");

    @TempDir
    Path dir;

    private final MessageIds ids = new MessageIds(Clock.systemUTC());
    private Connection db;
    private Connection read;
    private MessageReads reads;

    @BeforeEach
    void open() throws SQLException {
        Path file = dir.resolve(MessagesSchema.FILE);
        db = SqliteDatabase.openForWriting(file, Durability.NORMAL);
        MessagesSchema.create(db);
        read = SqliteDatabase.openForReading(file);
        reads = new MessageReads(read, BodyColumn.TEXT, ListIndex.PAGES);
    }

    @AfterEach
    void close() throws SQLException {
        reads.close();
        read.close();
        db.close();
    }

    @Test
    void aMessageIsOnItsPagesFromItsCommitBeforeAndAfterItsPass() throws Exception {
        ListIndex lists = new ListIndex(db);
        Message message = message("alice", "bob", "hello");
        insertAndCommit(message);

        assertThat(lists.unlisted()).isEqualTo(1);
        String unlisted = page(true, "bob", 10, null);
        assertThat(unlisted).isEqualTo(expectedPage(List.of(message), 10));
        assertThat(page(false, "alice", 10, null)).isEqualTo(expectedPage(List.of(message), 10));

        lists.pass();

        assertThat(lists.unlisted()).isZero();
        assertThat(count("SELECT count(*) FROM inbox WHERE to_user = 'bob'")).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM outbox WHERE from_user = 'alice'")).isEqualTo(1);
        assertThat(page(true, "bob", 10, null)).isEqualTo(unlisted);
        assertThat(page(true, "alice", 10, null)).isEqualTo(expectedPage(List.of(), 10));
    }

    @Test
    void aCommitIsFollowedByAPassOnlyOnceTheTriggerIsReached() throws Exception {
        ListIndex lists = new ListIndex(db, 3, 100);
        insertAndCommit(message("alice", "bob", "one"));
        insertAndCommit(message("alice", "bob", "two"));
        lists.afterCommit();
        assertThat(lists.unlisted()).as("below the trigger").isEqualTo(2);

        insertAndCommit(message("alice", "bob", "three"));
        lists.afterCommit();
        assertThat(lists.unlisted()).as("at the trigger").isZero();
    }

    @Test
    void aPassListsAtMostItsBoundAndACatchUpListsTheRest() throws Exception {
        ListIndex lists = new ListIndex(db, 1_000, 2);
        List<Message> sent = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            sent.add(message("alice", "bob", "message " + i));
            insertAndCommit(sent.getLast());
        }
        lists.pass();
        assertThat(lists.unlisted()).isEqualTo(3);
        assertThat(count("SELECT up_to FROM listed")).isEqualTo(2);
        assertThat(page(true, "bob", 4, null)).as("two listed rows and three unlisted, one page")
            .isEqualTo(expectedPage(sent.reversed(), 4));

        lists.catchUp();
        assertThat(lists.unlisted()).isZero();
        assertThat(count("SELECT count(*) FROM inbox")).isEqualTo(5);
    }

    @Test
    void anIdleWriterListsOnlyAfterACommit() throws Exception {
        ListIndex lists = new ListIndex(db, 1_000, 100);
        lists.catchUp();
        insertAndCommit(message("alice", "bob", "not told"));
        lists.whenIdle();
        assertThat(lists.unlisted()).as("no commit since the catch-up").isEqualTo(1);

        lists.afterCommit();
        lists.whenIdle();
        assertThat(lists.unlisted()).isZero();
    }

    /**
     * A failed pass (another connection holds the write lock) rolls back whole: nothing is listed, the
     * page is unchanged, {@code afterCommit} only logs, and once the lock is free the next pass lists.
     */
    @Test
    void aFailedPassChangesNothingAndTheNextOneLists() throws Exception {
        ListIndex lists = new ListIndex(db, 1, 100);
        Message message = message("alice", "bob", "kept");
        insertAndCommit(message);
        try (Statement s = db.createStatement()) {
            s.execute("PRAGMA busy_timeout=0");
        }
        db.commit();
        try (Connection other = SqliteDatabase.openForWriting(dir.resolve(MessagesSchema.FILE), Durability.NORMAL);
             Statement lock = other.createStatement()) {
            lock.execute("INSERT INTO listed (one, up_to) VALUES (1, 0) ON CONFLICT DO NOTHING"); // takes the write lock
            assertThatThrownBy(lists::pass).isInstanceOf(SQLException.class);
            lists.afterCommit(); // logs, does not throw
            assertThat(page(true, "bob", 10, null)).isEqualTo(expectedPage(List.of(message), 10));
            other.rollback();
        }
        assertThat(lists.unlisted()).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM inbox")).isZero();

        lists.afterCommit();
        assertThat(lists.unlisted()).isZero();
        assertThat(page(true, "bob", 10, null)).isEqualTo(expectedPage(List.of(message), 10));
    }

    /**
     * Every page, of every user, both ways, with and without {@code before}, equals what a plain model
     * of the messages gives, while messages arrive out of id order (as a stream worker stores older ids)
     * and passes of random bounds list random parts of them. The seed is in the failure message.
     */
    @Test
    void everyPageIsTheModelsWhateverPartIsListed() throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        List<Message> pending = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            pending.add(message(USERS[random.nextInt(USERS.length)], USERS[random.nextInt(USERS.length)], "m" + i));
        }
        Collections.shuffle(pending.subList(100, 200), random); // a run of older ids stored late
        List<Message> stored = new ArrayList<>();
        for (Message message : pending) {
            insertAndCommit(message);
            stored.add(message);
            if (random.nextInt(10) == 0) {
                new ListIndex(db, 1, 1 + random.nextInt(40)).pass();
            }
            if (stored.size() % 30 == 0) {
                checkEveryPage(stored, random, seed);
            }
        }
        new ListIndex(db).catchUp();
        checkEveryPage(stored, random, seed);
    }

    private void checkEveryPage(List<Message> stored, Random random, long seed) throws SQLException {
        for (String user : USERS) {
            for (boolean toUser : new boolean[] {true, false}) {
                List<Message> mine = new ArrayList<>();
                for (Message m : stored) {
                    if ((toUser ? m.to() : m.from()).equals(user)) {
                        mine.add(m);
                    }
                }
                mine.sort(Comparator.comparing(Message::id).reversed());
                MessageId someStored = stored.get(random.nextInt(stored.size())).id();
                for (MessageId before : new MessageId[] {null, someStored, ids.next()}) {
                    for (int limit : new int[] {1, 3, 100}) {
                        List<Message> older = mine.stream().filter(m -> before == null || m.id().compareTo(before) < 0).toList();
                        assertThat(page(toUser, user, limit, before))
                            .as("seed %d, %s=%s, limit %d, before %s", seed, toUser ? "to" : "from", user, limit, before)
                            .isEqualTo(expectedPage(older, limit));
                    }
                }
            }
        }
    }

    private Message message(String from, String to, String text) {
        return Message.create(ids.next(), new NewMessage(from, to, text));
    }

    private void insertAndCommit(Message message) throws SQLException {
        try (PreparedStatement insert = db.prepareStatement(SqliteMessageStore.INSERT)) {
            insert.setBytes(1, message.id().bytes());
            insert.setString(2, message.from());
            insert.setString(3, message.to());
            insert.setString(4, message.message());
            insert.setString(5, message.createdAt());
            assertThat(insert.executeUpdate()).isEqualTo(1);
        }
        db.commit();
    }

    /** The page's message ids in order and its {@code next}, as the JSON answer gives them. */
    private String page(boolean toUser, String user, int limit, MessageId before) throws SQLException {
        String json = new String(reads.page(new ListQuery(toUser, user, limit, before)), StandardCharsets.UTF_8);
        List<String> shown = new ArrayList<>();
        Matcher id = MESSAGE_ID.matcher(json);
        while (id.find()) {
            shown.add(id.group(1));
        }
        Matcher next = NEXT.matcher(json);
        assertThat(next.find()).as(json).isTrue();
        return shown + " next " + next.group(1);
    }

    /** What {@link #page} should give for {@code newestFirst} (already filtered and in order). */
    private static String expectedPage(List<Message> newestFirst, int limit) {
        List<String> shown = newestFirst.stream().limit(limit).map(m -> m.id().toString()).toList();
        String next = newestFirst.size() > limit ? "\"" + shown.getLast() + "\"" : "null";
        return shown + " next " + next;
    }

    private long count(String sql) throws SQLException {
        try (Statement s = read.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
