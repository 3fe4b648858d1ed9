package dev.hotpath.apps.users.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.http.JsonBytes;
import dev.hotpath.http.Response;
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

    private static String body(byte[] page) {
        return new String(page, StandardCharsets.UTF_8);
    }

    private String page(long after, int limit) {
        StreamedPage page = new StreamedPage();
        users.page(after, limit, page);
        return page.body();
    }

    /** The preload writes names and emails from one reused array; each answer must still be the general writer's. */
    @Test
    void answersEveryPreloadedUserWithTheBytesTheGeneralWriterGivesForIt() {
        for (int id = 1; id <= UserStore.PRELOADED; id++) {
            Response found = users.answer(id);
            assertThat(found.wire()).as("user %d", id)
                .isEqualTo(Response.of(200, "application/json", preloaded(id).getBytes(StandardCharsets.UTF_8)).wire());
        }
        assertThat(users.answer(UserStore.PRELOADED + 1)).isNull();
    }

    /** The reused array holds an int's ten digits, and a shorter id after a longer one leaves none of its digits. */
    @Test
    void writesThePreloadedUserOfAnyIntIdAsTheGeneralWriterDoes() {
        UserJson.PreloadedUser user = new UserJson.PreloadedUser();
        for (int id : new int[] {Integer.MAX_VALUE, 7, 1_000_000_000, 99, 10}) {
            assertThat(body(JsonBytes.write(user.withId(id)))).as("user %d", id).isEqualTo(preloaded(id));
        }
    }

    @Test
    void pagesCarryEachUserAsItsOwnAnswerDoesAcrossTheArraysGrowth() {
        List<String> created = new ArrayList<>();
        int extra = UserStore.PRELOADED + 5; // past the first array's 2 × PRELOADED + 1 slots
        for (int i = 1; i <= extra; i++) {
            String name = i % 2 == 0 ? "Zoë \"" + i + "\"" : "n" + i;
            users.create(new NewUser(name.getBytes(StandardCharsets.UTF_8), ("e" + i + "@example.com").getBytes(StandardCharsets.UTF_8)));
            created.add(new String(GeneratedUser.json(UserStore.PRELOADED + i, name, "e" + i + "@example.com", CREATED_AT),
                StandardCharsets.UTF_8));
        }
        int last = UserStore.PRELOADED + extra;
        assertThat(body(users.answer(last).wire())).endsWith("\r\n\r\n" + created.get(extra - 1));

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
