package dev.hotpath.apps.messages.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hotpath.store.Durability;
import dev.hotpath.store.SqliteDatabase;
import dev.hotpath.store.testing.Await;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lists kept beside the writer: a message is on its pages from its commit on, whether a pass has
 * listed it yet or not; a pass is due at the trigger or once the writer is idle, lists at most its
 * bound, and a failed one changes nothing; lists that name rows the table lacks, or whose file SQLite
 * finds damaged, are rebuilt (a damaged file kept aside), and a damaged messages file leaves sound
 * lists alone. Each test but the thread's own drives the passes itself (the thread is not started),
 * writes on a connection of its own, as the writer does, and reads on another with the lists attached,
 * as an event loop does.
 */
class ListIndexIT {
    private static final String[] USERS = {"alice", "bob", "carol", "dave"};
    private static final Pattern MESSAGE_ID = Pattern.compile("\\{\"id\":\"([0-9a-f-]{36})\"");
    private static final Pattern NEXT = Pattern.compile("\"next\":(null|\"[0-9a-f-]{36}\")}$");

    @TempDir
    Path dir;

    private final MessageIds ids = new MessageIds(Clock.systemUTC());
    private Path file;
    private Connection db;
    private Connection read;
    private MessageReads reads;

    @BeforeEach
    void open() throws SQLException {
        file = dir.resolve(MessagesSchema.FILE);
        db = SqliteDatabase.openForWriting(file, Durability.NORMAL);
        MessagesSchema.create(db);
    }

    /** The read connection, opened once the lists' file exists (the first {@link ListIndex#open}). */
    private void openReads() throws SQLException {
        read = SqliteDatabase.openForReading(file);
        ListIndex.attachTo(read, file);
        reads = new MessageReads(read, BodyColumn.TEXT, ListIndex.PAGES);
    }

    @AfterEach
    void close() throws SQLException {
        if (reads != null) {
            reads.close();
            read.close();
        }
        db.close();
    }

    @Test
    void aMessageIsOnItsPagesFromItsCommitBeforeAndAfterItsPass() throws Exception {
        try (ListIndex lists = ListIndex.open(file)) {
            openReads();
            Message message = message("alice", "bob", "hello");
            insertAndCommit(message);

            assertThat(lists.unlisted()).isEqualTo(1);
            String unlisted = page(true, "bob", 10, null);
            assertThat(unlisted).isEqualTo(expectedPage(List.of(message), 10));
            assertThat(page(false, "alice", 10, null)).isEqualTo(expectedPage(List.of(message), 10));

            lists.pass();

            assertThat(lists.unlisted()).isZero();
            assertThat(count("SELECT count(*) FROM lists.inbox WHERE to_user = 'bob'")).isEqualTo(1);
            assertThat(count("SELECT count(*) FROM lists.outbox WHERE from_user = 'alice'")).isEqualTo(1);
            assertThat(page(true, "bob", 10, null)).isEqualTo(unlisted);
            assertThat(page(true, "alice", 10, null)).isEqualTo(expectedPage(List.of(), 10));
        }
    }

    @Test
    void aPassIsDueAtTheTriggerOrOnceTheWriterHasBeenIdle() throws Exception {
        try (ListIndex lists = ListIndex.open(file, 3, 100)) {
            assertThat(lists.due(2, 0)).as("below the trigger, writer busy").isFalse();
            assertThat(lists.due(3, 0)).as("at the trigger").isTrue();
            assertThat(lists.due(1, ListIndex.IDLE - 1)).as("not idle long enough").isFalse();
            assertThat(lists.due(1, ListIndex.IDLE)).as("idle, something unlisted").isTrue();
            assertThat(lists.due(0, ListIndex.IDLE)).as("idle, nothing unlisted").isFalse();
        }
    }

    @Test
    void aPassListsAtMostItsBoundAndACatchUpListsTheRest() throws Exception {
        try (ListIndex lists = ListIndex.open(file, 1_000, 2)) {
            openReads();
            List<Message> sent = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                sent.add(message("alice", "bob", "message " + i));
                insertAndCommit(sent.getLast());
            }
            lists.pass();
            assertThat(lists.unlisted()).isEqualTo(3);
            assertThat(count("SELECT up_to FROM lists.listed")).isEqualTo(2);
            assertThat(page(true, "bob", 4, null)).as("two listed rows and three unlisted, one page")
                .isEqualTo(expectedPage(sent.reversed(), 4));

            lists.catchUp();
            assertThat(lists.unlisted()).isZero();
            assertThat(count("SELECT count(*) FROM lists.inbox")).isEqualTo(5);
        }
    }

    /**
     * A pass that fails (here its second list is gone, after the first took its rows) rolls back whole,
     * and once it can, the next one lists.
     */
    @Test
    void aFailedPassChangesNothingAndTheNextOneLists() throws Exception {
        try (ListIndex lists = ListIndex.open(file, 1, 100)) {
            openReads();
            Message message = message("alice", "bob", "kept");
            insertAndCommit(message);
            try (Connection other = SqliteDatabase.openForWriting(dir.resolve(ListIndex.FILE), Durability.NORMAL);
                 Statement s = other.createStatement()) {
                s.execute("ALTER TABLE outbox RENAME TO outbox_away");
                other.commit();
                assertThatThrownBy(lists::pass).isInstanceOf(SQLException.class);
                assertThat(lists.unlisted()).isEqualTo(1);
                assertThat(count("SELECT count(*) FROM lists.inbox")).as("the inbox rows, rolled back").isZero();
                s.execute("ALTER TABLE outbox_away RENAME TO outbox");
                other.commit();
            }
            lists.pass();
            assertThat(lists.unlisted()).isZero();
            assertThat(page(true, "bob", 10, null)).isEqualTo(expectedPage(List.of(message), 10));
        }
    }

    @Test
    void listsThatNameRowsTheTableLacksAreRebuiltAtOpen() throws Exception {
        Message message = message("alice", "bob", "the only one");
        insertAndCommit(message);
        ListIndex.open(file).close();
        try (Connection other = SqliteDatabase.openForWriting(dir.resolve(ListIndex.FILE), Durability.NORMAL);
             Statement s = other.createStatement()) {
            s.execute("UPDATE listed SET up_to = 1000");
            s.execute("INSERT INTO inbox (to_user, id) VALUES ('carol', x'01')");
            other.commit();
        }
        try (ListIndex lists = ListIndex.open(file)) {
            openReads();
            assertThat(lists.unlisted()).isZero();
            assertThat(count("SELECT up_to FROM lists.listed")).isEqualTo(1);
            assertThat(count("SELECT count(*) FROM lists.inbox WHERE to_user = 'carol'")).isZero();
            assertThat(page(true, "bob", 10, null)).isEqualTo(expectedPage(List.of(message), 10));
        }
    }

    /** The thread rests an hour once nothing is unlisted, so only the commit's wake-up can list the message. */
    @Test
    void aRestingThreadIsWokenByTheWritersNextCommit() throws Exception {
        try (ListIndex lists = ListIndex.open(file, 1, 100, TimeUnit.HOURS.toNanos(1))) {
            openReads();
            lists.start();
            Await.until("the thread resting", lists::resting);
            insertAndCommit(message("alice", "bob", "wake up"));
            lists.committed();
            Await.until("the message listed", () -> count("SELECT up_to FROM lists.listed") == 1);
        }
    }

    @Test
    void aListsFileThatIsNotADatabaseIsSetAsideAndTheListsBuiltAnew() throws Exception {
        Message message = message("alice", "bob", "listed again");
        insertAndCommit(message);
        ListIndex.open(file).close();
        byte[] garbage = "not a database at all ".repeat(400).getBytes(StandardCharsets.US_ASCII);
        Files.write(dir.resolve(ListIndex.FILE), garbage);

        try (ListIndex lists = ListIndex.open(file)) {
            openReads();
            assertThat(lists.unlisted()).isZero();
            assertThat(page(true, "bob", 10, null)).isEqualTo(expectedPage(List.of(message), 10));
            assertThat(page(false, "alice", 10, null)).isEqualTo(expectedPage(List.of(message), 10));
        }
        assertThat(Files.readAllBytes(dir.resolve(DamagedLists.DAMAGED))).isEqualTo(garbage);
    }

    @Test
    void listsWhosePagesAreDamagedAreSetAsideAndBuiltAnew() throws Exception {
        List<Message> stored = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            Message message = message(USERS[i % USERS.length], USERS[(i + 1) % USERS.length], "message " + i);
            insertAndCommit(message);
            stored.add(message);
        }
        ListIndex.open(file).close(); // the last connection's close copies the WAL into the file
        Path listsFile = dir.resolve(ListIndex.FILE);
        byte[] damaged = Files.readAllBytes(listsFile);
        assertThat(damaged.length).as("more pages than the first, which holds the schema").isGreaterThan(4096);
        Arrays.fill(damaged, 4096, damaged.length, (byte) 0x5A); // every table's pages, the schema's intact
        Files.write(listsFile, damaged);

        try (ListIndex rebuilt = ListIndex.open(file)) {
            openReads();
            assertThat(rebuilt.unlisted()).isZero();
            for (String user : USERS) {
                List<Message> to = stored.stream().filter(m -> m.to().equals(user)).toList().reversed();
                assertThat(page(true, user, 100, null)).isEqualTo(expectedPage(to, 100));
            }
        }
        assertThat(Files.readAllBytes(dir.resolve(DamagedLists.DAMAGED))).isEqualTo(damaged);
    }

    @Test
    void aDamagedMessagesFileLeavesSoundListsWhereTheyAre() throws Exception {
        for (int i = 0; i < 200; i++) {
            insertAndCommit(message(USERS[i % USERS.length], USERS[(i + 1) % USERS.length], "message " + i));
        }
        ListIndex.open(file).close();
        try (Statement s = db.createStatement()) {
            s.execute("PRAGMA wal_checkpoint(TRUNCATE)"); // every row in the file, none left in its WAL
        }
        byte[] messages = Files.readAllBytes(file);
        assertThat(messages.length).as("more pages than the first, which holds the schema").isGreaterThan(4096);
        Arrays.fill(messages, 4096, messages.length, (byte) 0x5A);
        Files.write(file, messages);
        byte[] sound = Files.readAllBytes(dir.resolve(ListIndex.FILE));

        assertThatThrownBy(() -> ListIndex.open(file)).isInstanceOf(SQLException.class)
            .hasMessageContaining("malformed");

        assertThat(Files.readAllBytes(dir.resolve(ListIndex.FILE))).isEqualTo(sound);
        assertThat(dir.resolve(DamagedLists.DAMAGED)).doesNotExist();
    }

    /**
     * Every page, of every user, both ways, with and without {@code before}, equals what a plain model
     * of the messages gives, while messages arrive out of id order (as a stream worker stores older ids)
     * and passes of random bounds list random parts of them. The seed is in the failure message.
     */
    @Test
    void everyPageIsTheModelsWhateverPartIsListed() throws Exception {
        List<ListIndex> bounds = List.of(ListIndex.open(file, 1, 1), ListIndex.open(file, 1, 7), ListIndex.open(file, 1, 40));
        openReads();
        try {
            checkPagesWhilePassesListParts(bounds);
        } finally {
            bounds.forEach(ListIndex::close);
        }
    }

    private void checkPagesWhilePassesListParts(List<ListIndex> bounds) throws SQLException {
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
                bounds.get(random.nextInt(bounds.size())).pass();
            }
            if (stored.size() % 30 == 0) {
                checkEveryPage(stored, random, seed);
            }
        }
        bounds.getFirst().catchUp();
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
