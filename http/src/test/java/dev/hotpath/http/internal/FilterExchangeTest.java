package dev.hotpath.http.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hotpath.http.Exchange;
import dev.hotpath.http.Filter;
import dev.hotpath.http.HeaderName;
import dev.hotpath.http.Response;
import dev.hotpath.http.ServerLimits;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The copies an async answer takes of the loop's exchange: each carries its own request's path and
 * headers to the {@code after}s, and a finished one is the loop's next copy, up to a bound.
 */
class FilterExchangeTest {
    private static final HeaderName SEEN = HeaderName.of("X-Seen");
    private final List<String> afters = new ArrayList<>();
    private final Filter recorder = new Filter() {
        @Override
        public Response before(Exchange exchange) {
            byte[] path = ascii(exchange.request().path() + "?");
            exchange.addResponseHeader(SEEN, path, 0, path.length);
            return null;
        }

        @Override
        public void after(Exchange exchange) {
            byte[] path = new byte[exchange.pathLength()];
            exchange.copyPath(path, 0);
            byte[] seen = new byte[1024];
            int length = exchange.responseHeader(SEEN, seen);
            afters.add(new String(path, StandardCharsets.US_ASCII) + " " + exchange.status() + " "
                + new String(seen, 0, length, StandardCharsets.US_ASCII));
        }
    };
    private final FilterExchange loop = new FilterExchange(ServerLimits.DEFAULTS.maxRequestLineBytes());

    @Test
    void aFinishedCopyIsTheNextOneAndCarriesOnlyItsOwnRequest() {
        List<FilterExchange> copies = new ArrayList<>();
        run(List.of("/a-path-longer-than-the-next", "/b", "/c/d"), head -> {
            FilterExchange copy = begin(head).copy();
            copies.add(copy);
            copy.finish(200 + copies.size());
        });
        assertThat(afters).containsExactly("/a-path-longer-than-the-next 201 /a-path-longer-than-the-next?", "/b 202 /b?",
            "/c/d 203 /c/d?");
        assertThat(copies.get(1)).isSameAs(copies.get(0));
        assertThat(copies.get(2)).isSameAs(copies.get(0));
    }

    @Test
    void aCopyGrowsPastTheSpareItReusesAndKeepsItsOwnWhileOthersFinish() {
        List<FilterExchange> outstanding = new ArrayList<>();
        run(List.of("/1", "/two-is-longer", "/3"), head -> outstanding.add(begin(head).copy()));
        outstanding.remove(0).finish(200); // the spare the next, longer request takes
        run(List.of("/a-longer-path-than-any-spare"), head -> outstanding.add(begin(head).copy()));
        for (FilterExchange copy : outstanding) {
            copy.finish(204);
        }
        assertThat(afters).containsExactly("/1 200 /1?", "/two-is-longer 204 /two-is-longer?", "/3 204 /3?",
            "/a-longer-path-than-any-spare 204 /a-longer-path-than-any-spare?");
    }

    @Test
    void theLoopKeepsAtMostItsSpareCopiesAndRefusesACopyFinishedTwice() {
        int made = FilterExchange.SPARE_COPIES + 10;
        Set<FilterExchange> finished = Collections.newSetFromMap(new IdentityHashMap<>());
        List<FilterExchange> again = new ArrayList<>();
        run(List.of("/x"), head -> {
            begin(head);
            List<FilterExchange> first = new ArrayList<>();
            for (int i = 0; i < made; i++) {
                first.add(loop.copy());
            }
            for (FilterExchange copy : first) {
                copy.finish(200);
            }
            finished.addAll(first);
            for (int i = 0; i < made; i++) {
                again.add(loop.copy());
            }
        });
        assertThat(again.stream().filter(finished::contains).count()).isEqualTo(FilterExchange.SPARE_COPIES);
        Set<FilterExchange> distinct = Collections.newSetFromMap(new IdentityHashMap<>());
        distinct.addAll(again);
        assertThat(distinct).as("no copy handed out twice").hasSize(made);
        FilterExchange copy = again.get(0);
        copy.finish(200);
        assertThatThrownBy(() -> copy.finish(200)).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("finished twice");
    }

    @Test
    void aCopyTooLargeToKeepIsNotTheNextOne() {
        String longPath = "/" + "p".repeat(FilterExchange.SPARE_BYTES);
        List<FilterExchange> copies = new ArrayList<>();
        run(List.of(longPath, "/short", "/short"), head -> {
            FilterExchange copy = begin(head).copy();
            copies.add(copy);
            copy.finish(200);
        });
        assertThat(copies.get(1)).isNotSameAs(copies.get(0));
        assertThat(copies.get(2)).isSameAs(copies.get(1));
        assertThat(afters).hasSize(3).last().isEqualTo("/short 200 /short?");
    }

    private FilterExchange begin(RequestHead head) {
        loop.begin(head, new Filter[] {recorder}, 0);
        assertThat(loop.runBefore()).isNull();
        return loop;
    }

    private static void run(List<String> paths, java.util.function.Consumer<RequestHead> onEach) {
        List<byte[]> requests = paths.stream().map(path -> ascii("GET " + path + " HTTP/1.1\r\nHost: h\r\n\r\n")).toList();
        DecoderHarness.run(ServerLimits.DEFAULTS, requests, head -> {
            onEach.accept(head);
            return "";
        });
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
