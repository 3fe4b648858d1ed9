package dev.hotpath.apps.users.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.apps.internal.WrittenAnswer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MemoryUsersTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-06T16:40:00Z"), ZoneOffset.UTC);
    private static final String CREATED_AT = "2026-12-06T16:40:00Z";

    private final MemoryUsers users = new MemoryUsers(CLOCK);

    private static String preloaded(long id) {
        String name = UserStore.PRELOADED_NAME_PREFIX + id;
        return new String(GeneratedUser.json(id, name, name + UserStore.PRELOADED_EMAIL_DOMAIN, UserJson.PRELOADED_AT),
            StandardCharsets.UTF_8);
    }

    private String page(long after, int limit) {
        WrittenAnswer page = new WrittenAnswer();
        users.page(after, limit, page);
        return page.streamed(200);
    }

    /** The user's JSON as a read streams it, or null when the store answers that there is none. */
    private String found(long id) {
        WrittenAnswer answer = new WrittenAnswer();
        return users.find(id, answer) ? answer.streamed(200) : null;
    }

    /** The preload writes each user's JSON by hand; it must still be the general writer's, byte for byte. */
    @Test
    void answersEveryPreloadedUserWithTheBytesTheGeneralWriterGivesForIt() {
        for (int id = 1; id <= UserStore.PRELOADED; id++) {
            assertThat(found(id)).as("user %d", id).isEqualTo(preloaded(id));
        }
        assertThat(found(UserStore.PRELOADED + 1)).isNull();
        assertThat(found(0)).isNull();
        assertThat(found(-1)).isNull();
    }

    /** A writer reused for ids of any length leaves none of a longer id's digits behind a shorter one. */
    @Test
    void writesThePreloadedUserOfAnyIntIdAsTheGeneralWriterDoes() {
        UserRowJson writer = new UserRowJson();
        for (int id : new int[] {Integer.MAX_VALUE, 7, 1_000_000_000, 99, 10}) {
            writer.preloaded(id);
            assertThat(new String(writer.bytes(), 0, writer.size(), StandardCharsets.UTF_8)).as("user %d", id)
                .isEqualTo(preloaded(id));
        }
    }

    /**
     * Past the first arrays' 2 × PRELOADED + 1 slots and across more chunks than the first array of
     * chunks holds: each create answers {@code 201} with its JSON, and every user, read alone or in a
     * page, is the bytes it was created with.
     */
    @Test
    void pagesCarryEachUserAsItsOwnAnswerDoesAcrossTheArraysGrowthAndTheChunks() {
        List<String> created = new ArrayList<>();
        int extra = 3 * UserStore.PRELOADED + 5;
        for (int i = 1; i <= extra; i++) {
            String name = i % 2 == 0 ? "Zoë \"" + i + "\"" : "n" + i;
            WrittenAnswer answer = new WrittenAnswer();
            users.create(NewUsers.of(name, "e" + i + "@example.com"), answer);
            created.add(new String(GeneratedUser.json(UserStore.PRELOADED + i, name, "e" + i + "@example.com", CREATED_AT),
                StandardCharsets.UTF_8));
            assertThat(answer.streamed(201)).isEqualTo(created.get(i - 1));
        }
        int last = UserStore.PRELOADED + extra;
        for (int id = 1; id <= last; id++) {
            assertThat(found(id)).as("user %d", id).isEqualTo(id <= UserStore.PRELOADED ? preloaded(id) : created.get(id - UserStore.PRELOADED - 1));
        }
        int bytes = 0;
        for (int id = 1; id <= last; id++) {
            bytes += found(id).getBytes(StandardCharsets.UTF_8).length;
        }
        assertThat(bytes).as("the users fill more chunks than the first array holds").isGreaterThan(8 * MemoryUsers.CHUNK_BYTES);
        assertThat(page(0, last)).isEqualTo(java.util.stream.IntStream.rangeClosed(1, last)
            .mapToObj(id -> id <= UserStore.PRELOADED ? preloaded(id) : created.get(id - UserStore.PRELOADED - 1))
            .collect(java.util.stream.Collectors.joining(",", "{\"users\":[", "],\"next\":" + last + "}")));

        assertThat(page(0, 2)).isEqualTo("{\"users\":[" + preloaded(1) + "," + preloaded(2) + "],\"next\":2}");
        assertThat(page(UserStore.PRELOADED - 1, 3)).isEqualTo("{\"users\":[" + preloaded(UserStore.PRELOADED)
            + "," + created.get(0) + "," + created.get(1) + "],\"next\":" + (UserStore.PRELOADED + 2) + "}");
        assertThat(page(last - 2, 5)).isEqualTo("{\"users\":[" + created.get(extra - 2) + ","
            + created.get(extra - 1) + "],\"next\":null}");
        assertThat(page(last, 5)).isEqualTo("{\"users\":[],\"next\":null}");
        assertThat(page(Long.MAX_VALUE, 5)).isEqualTo("{\"users\":[],\"next\":null}");
        assertThat(page(last - 1, 1)).isEqualTo("{\"users\":[" + created.get(extra - 1) + "],\"next\":" + last + "}");
    }
}
