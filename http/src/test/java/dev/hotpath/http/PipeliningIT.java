package dev.hotpath.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.http.testing.RawHttpClient;
import dev.hotpath.http.testing.RawResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PipeliningIT {
    private final TestServer server = new TestServer();

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void answersAThousandPipelinedRequestsSentInOneWriteInOrder() {
        StringBuilder batch = new StringBuilder();
        for (int i = 0; i < 1000; i++) {
            batch.append("GET /seq/").append(i).append(" HTTP/1.1\r\nHost: a\r\n\r\n");
        }
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send(batch.toString());
            for (int i = 0; i < 1000; i++) {
                RawResponse response = client.read();
                assertThat(response.status()).isEqualTo(200);
                assertThat(response.bodyText()).isEqualTo(Integer.toString(i));
            }
        }
    }

    @Test
    void holdsLaterResponsesBehindASlowAsyncResponse() throws Exception {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("GET /slow/1 HTTP/1.1\r\nHost: a\r\n\r\n"
                + "GET /seen/2 HTTP/1.1\r\nHost: a\r\n\r\n"
                + "GET /seen/3 HTTP/1.1\r\nHost: a\r\n\r\n");
            assertThat(server.nextEvent()).isEqualTo("parked 1");
            assertThat(server.nextEvent()).isEqualTo("seen 2");
            assertThat(server.nextEvent()).isEqualTo("seen 3");

            server.complete("1");
            assertThat(server.nextEvent()).isEqualTo("completed 1");

            assertThat(client.read().bodyText()).isEqualTo("slow 1");
            assertThat(client.read().bodyText()).isEqualTo("2");
            assertThat(client.read().bodyText()).isEqualTo("3");
        }
    }

    @Test
    void releasesAsyncResponsesInRequestOrderWhenTheyCompleteInReverse() throws Exception {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("GET /slow/a HTTP/1.1\r\nHost: a\r\n\r\n"
                + "GET /slow/b HTTP/1.1\r\nHost: a\r\n\r\n"
                + "GET /slow/c HTTP/1.1\r\nHost: a\r\n\r\n");
            assertThat(server.nextEvent()).isEqualTo("parked a");
            assertThat(server.nextEvent()).isEqualTo("parked b");
            assertThat(server.nextEvent()).isEqualTo("parked c");

            Thread completer = Thread.ofPlatform().start(() -> {
                server.complete("c");
                server.complete("b");
            });
            completer.join();
            server.complete("a");

            assertThat(client.read().bodyText()).isEqualTo("slow a");
            assertThat(client.read().bodyText()).isEqualTo("slow b");
            assertThat(client.read().bodyText()).isEqualTo("slow c");
        }
    }

    @Test
    void deliversResponsesCompletedTogetherToEveryConnectionInOrder() throws Exception {
        try (RawHttpClient first = RawHttpClient.connect(server.port());
             RawHttpClient second = RawHttpClient.connect(server.port())) {
            first.send("GET /slow/x1 HTTP/1.1\r\nHost: a\r\n\r\nGET /slow/x2 HTTP/1.1\r\nHost: a\r\n\r\n");
            assertThat(server.nextEvent()).isEqualTo("parked x1");
            assertThat(server.nextEvent()).isEqualTo("parked x2");
            second.send("GET /slow/y1 HTTP/1.1\r\nHost: a\r\n\r\n");
            assertThat(server.nextEvent()).isEqualTo("parked y1");

            Thread writer = Thread.ofPlatform().start(() -> Deferred.completeTogether(() -> {
                server.complete("x2");
                server.complete("y1");
                server.complete("x1");
            }));
            writer.join();

            assertThat(first.read().bodyText()).isEqualTo("slow x1");
            assertThat(first.read().bodyText()).isEqualTo("slow x2");
            assertThat(second.read().bodyText()).isEqualTo("slow y1");
        }
    }

    @Test
    void sendsNothingOfTheHeadResponseBodySoTheNextResponseParses() {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("HEAD /ping HTTP/1.1\r\nHost: a\r\n\r\nGET /ping HTTP/1.1\r\nHost: a\r\n\r\n");
            RawResponse head = client.read(true);
            assertThat(head.status()).isEqualTo(200);
            assertThat(head.header("Content-Length")).isEqualTo("4");
            assertThat(head.header("Content-Type")).isEqualTo("text/plain; charset=utf-8");
            assertThat(client.read().bodyText()).isEqualTo("pong");
        }
    }
}
