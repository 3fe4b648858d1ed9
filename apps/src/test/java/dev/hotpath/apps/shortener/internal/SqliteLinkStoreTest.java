package dev.hotpath.apps.shortener.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hotpath.store.Durability;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The SQLite store behind the {@link LinkStore} interface, without the HTTP side. */
class SqliteLinkStoreTest {
    private static final long SAFETY_SECONDS = 20;

    @TempDir
    Path dir;
    private SqliteLinkStore store;

    private SqliteLinkStore open(String codes) {
        store = SqliteLinkStore.open(new SqliteLinkStore.Settings(dir, Durability.NORMAL, codes, 100, 256));
        return store;
    }

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
    }

    @Test
    void publishesLinksWithContiguousIdsBeforeTellingThemAndLoadsThemAfterARestart() throws Exception {
        open("scrambled");
        assertThat(create(link("https://a.example/", null), link("https://b.example/", "bee"))).containsExactly(0, 1);
        assertThat(create(link("https://c.example/", null))).containsExactly(2);
        byte[] secret = store.codeSecret();
        store.close();

        open("scrambled");
        assertThat(store.table().size()).isEqualTo(3);
        assertThat(store.table().longUrl(2)).isEqualTo("https://c.example/");
        assertThat(store.table().findByName("bee")).isEqualTo(1);
        assertThat(store.codeSecret()).isEqualTo(secret);
    }

    @Test
    void aFailedInsertTakesNoIdSoTheNextLinkGetsIt() throws Exception {
        open("scrambled");
        assertThat(create(link("https://a.example/", "same"))).containsExactly(0);
        CompletableFuture<int[]> duplicate = new CompletableFuture<>();
        assertThat(store.create(List.of(link("https://b.example/", "same")), outcome(duplicate))).isTrue();
        assertThat(duplicate).failsWithin(SAFETY_SECONDS, TimeUnit.SECONDS);

        assertThat(create(link("https://c.example/", null))).containsExactly(1);
        assertThat(store.table().size()).isEqualTo(2);
    }

    @Test
    void aBulkWhoseSecondLinkFailsTakesNoIdSoTheNextCreateIsPublishedAndStored() throws Exception {
        open("scrambled");
        assertThat(create(link("https://a.example/", "same"))).containsExactly(0);
        CompletableFuture<int[]> bulk = new CompletableFuture<>();
        assertThat(store.create(List.of(link("https://b.example/", null), link("https://c.example/", "same")),
            outcome(bulk))).isTrue();
        assertThat(bulk).failsWithin(SAFETY_SECONDS, TimeUnit.SECONDS);

        assertThat(create(link("https://d.example/", null))).containsExactly(1);
        assertThat(store.table().longUrl(1)).isEqualTo("https://d.example/");
        store.close();
        open("scrambled");
        assertThat(store.table().size()).as("the store reopens with contiguous ids").isEqualTo(2);
        assertThat(store.table().longUrl(1)).isEqualTo("https://d.example/");
    }

    @Test
    void withoutDurabilityAVisitFlushWritesNothingSoMemoryDoesNotGrowWithVisits() throws Exception {
        store = SqliteLinkStore.open(new SqliteLinkStore.Settings(dir, Durability.NONE, "scrambled", 100, 256));
        create(link("https://a.example/", null));
        store.table().countVisit(0);
        store.flushVisits();
        create(link("https://b.example/", null)); // the writer is FIFO: a flush offered before it is done
        assertThat(store.writerStats().committed()).as("the two creates, and no visit-log row").isEqualTo(2);
        assertThat(store.table().visits(0)).isEqualTo(1);
    }

    @Test
    void aDeleteTellsWhetherItWasTheOneThatDeleted() throws Exception {
        open("sequential");
        create(link("https://a.example/", null));
        assertThat(delete(0)).isTrue();
        assertThat(delete(0)).isFalse();
        assertThat(store.table().flags(0) & LinkTable.DELETED).isNotZero();
    }

    @Test
    void refusesToOpenADirectoryCreatedWithTheOtherCodeScheme() {
        open("scrambled").close();
        store = null;
        assertThatThrownBy(() -> open("sequential")).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("created with --codes scrambled");
        store = null;
        assertThat(open("scrambled").table().size()).as("the refused start released the directory").isZero();
    }

    private static NewLink link(String url, String name) {
        return new NewLink(url, name, false, 1_796_011_200_123L, -1);
    }

    private int[] create(NewLink... links) throws Exception {
        CompletableFuture<int[]> ids = new CompletableFuture<>();
        assertThat(store.create(List.of(links), outcome(ids))).isTrue();
        return ids.get(SAFETY_SECONDS, TimeUnit.SECONDS);
    }

    private boolean delete(int id) throws Exception {
        CompletableFuture<Boolean> deleted = new CompletableFuture<>();
        assertThat(store.delete(id, 1_796_011_300_000L, outcome(deleted))).isTrue();
        return deleted.get(SAFETY_SECONDS, TimeUnit.SECONDS);
    }

    private static <T> LinkStore.Outcome<T> outcome(CompletableFuture<T> result) {
        return new LinkStore.Outcome<>() {
            @Override
            public void stored(T value) {
                result.complete(value);
            }

            @Override
            public void failed() {
                result.completeExceptionally(new IllegalStateException("not stored"));
            }
        };
    }
}
