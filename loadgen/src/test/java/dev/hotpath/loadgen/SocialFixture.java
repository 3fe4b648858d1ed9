package dev.hotpath.loadgen;

import dev.hotpath.http.HeaderName;
import dev.hotpath.http.HttpServer;
import dev.hotpath.http.Request;
import dev.hotpath.http.Response;
import dev.hotpath.http.Routes;
import dev.hotpath.http.ServerConfig;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A social-API look-alike ({@code docs/SOCIAL.md}: feed, post, like, create) in memory, right in every
 * answer except one on purpose: every {@code n}-th feed lists its two newest posts in the wrong order,
 * as a server sorting by id alone would after a clock step. It counts how often it did.
 */
final class SocialFixture implements AutoCloseable {
    private static final Pattern BODY = Pattern.compile("\"body\":\"([^\"]*)\"");
    private static final Pattern USERNAME = Pattern.compile("\"username\":\"([^\"]+)\"");
    private static final int FEED_SIZE = 20;

    final AtomicLong faults = new AtomicLong();
    private final int swapEvery;
    private final List<Post> posts = new ArrayList<>();
    private final Set<String> likes = new HashSet<>();
    private long feeds;
    private final HttpServer server;

    private record Post(long id, String body, String createdAt, String author) {
    }

    /** @param swapEvery every how many feeds the two newest posts come out of order */
    SocialFixture(int swapEvery) {
        this.swapEvery = swapEvery;
        for (int i = 1; i <= 30; i++) {
            posts.add(new Post(i, "seeded post " + i, String.format("2025-06-01T12:00:%02d.000Z", i), "seed_user"));
        }
        Routes routes = Routes.builder()
            .get("/feed", request -> feed())
            .get("/posts/{id}", request -> read(Long.parseLong(request.pathParam(0))))
            .post("/posts/{id}/like", request -> like(request, Long.parseLong(request.pathParam(0))))
            .post("/posts", this::create)
            .build();
        server = HttpServer.start(ServerConfig.of(new InetSocketAddress("127.0.0.1", 0)).withEventLoops(1), routes);
    }

    int port() {
        return server.port();
    }

    private synchronized Response feed() {
        List<Post> newest = new ArrayList<>(posts.subList(Math.max(0, posts.size() - FEED_SIZE), posts.size())).reversed();
        if (++feeds % swapEvery == 0) {
            faults.incrementAndGet();
            newest.set(0, newest.set(1, newest.get(0)));
        }
        StringBuilder json = new StringBuilder("{\"posts\":[");
        for (int i = 0; i < newest.size(); i++) {
            json.append(i == 0 ? "" : ",").append(json(newest.get(i)));
        }
        return Response.json(200, json.append("]}").toString());
    }

    private synchronized Response read(long id) {
        return id >= 1 && id <= posts.size() ? Response.json(200, "{\"post\":" + json(posts.get((int) id - 1)) + "}")
            : Response.json(404, "{\"error\":\"post not found\"}");
    }

    private synchronized Response like(Request request, long id) {
        boolean first = likes.add(username(request) + "/" + id);
        return Response.json(first ? 201 : 200,
            "{\"liked\":true,\"already_liked\":" + !first + ",\"post_id\":" + id + "}");
    }

    private synchronized Response create(Request request) {
        Matcher body = BODY.matcher(new String(request.bodyBytes(), StandardCharsets.UTF_8));
        if (!body.find()) {
            return Response.json(400, "{\"error\":\"body is required\"}");
        }
        int n = posts.size();
        Post post = new Post(n + 1, body.group(1), String.format("2025-06-02T%02d:%02d:%02d.000Z", n / 3600 % 24,
            n / 60 % 60, n % 60), username(request));
        posts.add(post);
        return Response.json(201, "{\"post\":" + json(post) + "}");
    }

    private long likeCount(long id) {
        return likes.stream().filter(like -> like.endsWith("/" + id)).count();
    }

    private String json(Post post) {
        return "{\"id\":" + post.id() + ",\"body\":\"" + post.body() + "\",\"created_at\":\"" + post.createdAt()
            + "\",\"author\":\"" + post.author() + "\",\"like_count\":" + likeCount(post.id()) + "}";
    }

    /** The token's username, read without checking the signature: the fixture trusts its test. */
    private static String username(Request request) {
        String token = request.header(HeaderName.AUTHORIZATION).substring("Bearer ".length());
        Matcher m = USERNAME.matcher(new String(Base64.getUrlDecoder().decode(token.split("\\.")[1]), StandardCharsets.UTF_8));
        return m.find() ? m.group(1) : "";
    }

    @Override
    public void close() {
        server.close(Duration.ofSeconds(5));
    }
}
