package dev.hotpath.loadgen.scenario;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.hotpath.loadgen.Answer;
import dev.hotpath.loadgen.RunConfig;
import dev.hotpath.loadgen.Scenario;
import dev.hotpath.loadgen.Workload;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The social challenge's load model ({@code docs/SOCIAL.md}), one journey per user in
 * {@code --mode users}: wait U(0,5) s once, then loop {@code GET /feed}, think U(3,7) s,
 * {@code GET /posts/{a post of that feed}}, think U(3,8) s, like it with probability 0.15, create a post
 * with probability 0.02, think U(5,15) s (the realistic {@link Mix}; the write-heavy one likes every post read and
 * creates with probability 0.5). Every answer is checked for its status and its JSON shape:
 * post objects with exactly {@code id, body, created_at, author, like_count} in that order and
 * {@code created_at} as stored ({@code YYYY-MM-DDTHH:MM:SS.mmmZ}), a feed of at most 20 posts newest
 * first ({@code created_at} then {@code id} descending), the post asked for, a like of that post (201
 * the first time, 200 after), a created post with the token's username and the body sent. User i uses
 * token i modulo the tokens given ({@code hotpath social tokens}).
 * In {@code --mode saturate} (one request in flight per connection) the same journeys run without
 * thinking: the closed-loop realistic mix, feed 1 : post 1 : like 0.15 : create 0.02.
 */
public final class SocialScenario implements Scenario {
    private static final int FEED = 0;
    private static final int READ = 1;
    private static final int LIKE = 2;
    private static final int CREATE = 3;
    private static final int KIND_SHIFT = 56;

    /** A think time, uniform in [min, max] seconds. */
    private record Think(double minSeconds, double maxSeconds) {
        double mean() {
            return (minSeconds + maxSeconds) / 2;
        }
    }

    private static final Think FIRST_WAIT = new Think(0, 5);
    private static final Think AFTER_FEED = new Think(3, 7);
    private static final Think AFTER_READ = new Think(3, 8);
    private static final Think AFTER_LOOP = new Think(5, 15);

    /**
     * The requests per second {@code users} users of {@code mix} send once all are running, with think
     * times multiplied by {@code thinkScale} and answers taking no time: a loop of
     * {@code 2 + like + create} requests every 5 + 5.5 + 10 = 20.5 s of thinking (0.106 requests a
     * second a user for the realistic mix, 0.171 for the write-heavy one). Answers do take time, so a
     * run falls a little short of it, by the share of a loop spent waiting for them.
     */
    public static double steadyRate(Mix mix, int users, double thinkScale) {
        double loopSeconds = (AFTER_FEED.mean() + AFTER_READ.mean() + AFTER_LOOP.mean()) * thinkScale;
        return users * (2 + mix.likeProbability + mix.createProbability) / loopSeconds;
    }

    /**
     * How often a user writes after reading a post: the challenge scores a realistic mix and a
     * write-heavy one.
     */
    public enum Mix {
        REALISTIC(0.15, 0.02),
        WRITE_HEAVY(1.0, 0.5);

        private final double likeProbability;
        private final double createProbability;

        Mix(double likeProbability, double createProbability) {
            this.likeProbability = likeProbability;
            this.createProbability = createProbability;
        }

        /** {@code realistic} or {@code write-heavy}, as the command line spells it. */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }
    }

    private final List<String> tokens;
    private final Mix mix;
    private final double thinkScale;

    /**
     * @param tokens bearer tokens, one per user (reused round-robin when there are fewer than users)
     * @param mix how often users like and create
     * @param thinkScale multiplies every think time, the first wait included (1 for the model; a
     *     time-scaled run, where one connection carries the rate of several users, and tests shrink it)
     */
    public SocialScenario(List<String> tokens, Mix mix, double thinkScale) {
        if (tokens.isEmpty()) {
            throw new IllegalArgumentException("the social scenario needs tokens (hotpath social tokens)");
        }
        if (!(thinkScale > 0 && thinkScale <= 1)) {
            throw new IllegalArgumentException("the think-time scale must be in (0, 1], got " + thinkScale);
        }
        this.tokens = List.copyOf(tokens);
        this.mix = mix;
        this.thinkScale = thinkScale;
    }

    @Override
    public String name() {
        return "social";
    }

    @Override
    public Workload prepare(RunConfig config) {
        String hostLine = "Host: " + Target.of(config).authority() + "\r\n";
        return new Workload() {
            @Override
            public Workload forConnection(int connection) {
                return new Journey(hostLine, tokens.get(connection % tokens.size()), mix, thinkScale);
            }

            @Override
            public long next(SplittableRandom random) {
                throw new IllegalStateException("social journeys are per connection");
            }

            @Override
            public void write(long tag, ByteBuf out) {
                throw new IllegalStateException("social journeys are per connection");
            }

            @Override
            public Outcome check(long tag, Answer response) {
                throw new IllegalStateException("social journeys are per connection");
            }
        };
    }

    /** One user's state: where in the loop it is, the posts of its last feed, what it will do next. */
    private static final class Journey implements Workload {
        /** The {@code Host} header's line, one string for every journey of a run. */
        private final String hostLine;
        /** The {@code Authorization} header's line with this user's token. */
        private final String authorizationLine;
        private final String username;
        private final Mix mix;
        private final double thinkScale;
        private final long[] feedIds = new long[32];
        private int feedSize;
        /**
         * The {@code created_at} of the feed's last post read so far, to check the order of the next:
         * copied from the parser's buffer, so that a feed's 20 timestamps make no strings.
         */
        private final char[] feedCreatedAt = new char[TimeText.MILLIS.length()];
        private long post;
        private boolean likeNext;
        private boolean createNext;
        private int step = FEED;
        private int created;

        Journey(String hostLine, String token, Mix mix, double thinkScale) {
            this.hostLine = hostLine;
            this.authorizationLine = "Authorization: Bearer " + token + "\r\n";
            this.username = usernameOf(token);
            this.mix = mix;
            this.thinkScale = thinkScale;
        }

        @Override
        public long startDelayNanos(SplittableRandom random) {
            return uniform(random, FIRST_WAIT);
        }

        @Override
        public long next(SplittableRandom random) {
            if (step == READ && feedSize == 0) {
                step = FEED; // the last feed was wrong (counted): start the loop again
            }
            int kind = step;
            if (step == READ) {
                post = feedIds[random.nextInt(feedSize)];
            }
            return (long) kind << KIND_SHIFT | (kind == CREATE ? created : post);
        }

        /** Writes the request piece by piece into {@code out}: only an id's digits make a string (a create, its body). */
        @Override
        public void write(long tag, ByteBuf out) {
            long id = tag & ((1L << KIND_SHIFT) - 1);
            switch ((int) (tag >>> KIND_SHIFT)) {
                case FEED -> {
                    ascii(out, "GET /feed HTTP/1.1\r\n");
                    ascii(out, hostLine);
                    ascii(out, "\r\n");
                }
                case READ -> {
                    ascii(out, "GET /posts/");
                    ascii(out, Long.toString(id));
                    ascii(out, " HTTP/1.1\r\n");
                    ascii(out, hostLine);
                    ascii(out, "\r\n");
                }
                case LIKE -> {
                    ascii(out, "POST /posts/");
                    ascii(out, Long.toString(id));
                    ascii(out, "/like HTTP/1.1\r\n");
                    ascii(out, hostLine);
                    ascii(out, authorizationLine);
                    ascii(out, "Content-Length: 0\r\n\r\n");
                }
                default -> writeCreate(id, out);
            }
        }

        private void writeCreate(long id, ByteBuf out) {
            byte[] json = ("{\"body\":\"" + bodyOf(id) + "\"}").getBytes(StandardCharsets.UTF_8);
            ascii(out, "POST /posts HTTP/1.1\r\n");
            ascii(out, hostLine);
            ascii(out, authorizationLine);
            ascii(out, "Content-Type: application/json\r\nContent-Length: " + json.length + "\r\n\r\n");
            out.writeBytes(json);
        }

        private static void ascii(ByteBuf out, String text) {
            out.writeCharSequence(text, StandardCharsets.US_ASCII);
        }

        private String bodyOf(long n) {
            return "hotpath bench post " + n + " by " + username;
        }

        @Override
        public Outcome check(long tag, Answer response) {
            long id = tag & ((1L << KIND_SHIFT) - 1);
            int kind = (int) (tag >>> KIND_SHIFT);
            try (JsonParser p = Links.JSON.createParser(response.bodyArray(), 0, response.bodyLength())) {
                return switch (kind) {
                    case FEED -> response.status() != 200 ? Outcome.UNEXPECTED_STATUS : checkFeed(p);
                    case READ -> response.status() != 200 ? Outcome.UNEXPECTED_STATUS
                        : wrapped(p, "post") && post(p, id, null, -1) ? Outcome.OK : Outcome.MISMATCH;
                    case LIKE -> response.status() != 201 && response.status() != 200 ? Outcome.UNEXPECTED_STATUS
                        : checkLike(p, id, response.status() == 200);
                    default -> response.status() != 201 ? Outcome.UNEXPECTED_STATUS
                        : wrapped(p, "post") && post(p, -1, bodyOf(id), 0) ? created() : Outcome.MISMATCH;
                };
            } catch (IOException e) {
                return Outcome.MISMATCH;
            }
        }

        @Override
        public String describe(long tag, Answer response) {
            long id = tag & ((1L << KIND_SHIFT) - 1);
            String request = switch ((int) (tag >>> KIND_SHIFT)) {
                case FEED -> "GET /feed";
                case READ -> "GET /posts/" + id;
                case LIKE -> "POST /posts/" + id + "/like";
                default -> "POST /posts " + bodyOf(id);
            };
            return request + " as " + username + ": status " + response.status() + ", body " + response.bodyText(400);
        }

        private Outcome created() {
            created++;
            return Outcome.OK;
        }

        private Outcome checkFeed(JsonParser p) throws IOException {
            if (!(p.nextToken() == JsonToken.START_OBJECT && p.nextToken() == JsonToken.FIELD_NAME
                && p.currentName().equals("posts") && p.nextToken() == JsonToken.START_ARRAY)) {
                return Outcome.MISMATCH;
            }
            feedSize = 0;
            while (p.nextToken() == JsonToken.START_OBJECT) {
                if (feedSize == 20 || !postFields(p, -1, null, -1)) {
                    return Outcome.MISMATCH;
                }
            }
            return p.currentToken() == JsonToken.END_ARRAY && p.nextToken() == JsonToken.END_OBJECT && feedSize > 0
                ? Outcome.OK : Outcome.MISMATCH;
        }

        private Outcome checkLike(JsonParser p, long id, boolean already) throws IOException {
            boolean shape = p.nextToken() == JsonToken.START_OBJECT
                && field(p, "liked") && p.nextToken() == JsonToken.VALUE_TRUE
                && field(p, "already_liked") && p.nextToken() == (already ? JsonToken.VALUE_TRUE : JsonToken.VALUE_FALSE)
                && field(p, "post_id") && p.nextToken() == JsonToken.VALUE_NUMBER_INT && p.getLongValue() == id
                && p.nextToken() == JsonToken.END_OBJECT;
            return shape ? Outcome.OK : Outcome.MISMATCH;
        }

        private static boolean wrapped(JsonParser p, String name) throws IOException {
            return p.nextToken() == JsonToken.START_OBJECT && field(p, name);
        }

        /** A post object (after its wrapper's field name), then the wrapper's end. */
        private boolean post(JsonParser p, long id, String body, long likes) throws IOException {
            return p.nextToken() == JsonToken.START_OBJECT && postFields(p, id, body, likes)
                && p.nextToken() == JsonToken.END_OBJECT;
        }

        /** The fields of a post object, its start already read; keeps the id when it is in a feed. */
        private boolean postFields(JsonParser p, long id, String body, long likes) throws IOException {
            boolean inFeed = id < 0 && body == null;
            boolean ok = field(p, "id") && p.nextToken() == JsonToken.VALUE_NUMBER_INT && (id < 0 || p.getLongValue() == id);
            long postId = ok ? p.getLongValue() : -1;
            ok = ok && field(p, "body") && p.nextToken() == JsonToken.VALUE_STRING && (body == null || p.getText().equals(body))
                && field(p, "created_at") && p.nextToken() == JsonToken.VALUE_STRING && TimeText.hasShape(p, TimeText.MILLIS)
                && (!inFeed || followsInFeed(p, postId))
                && field(p, "author") && p.nextToken() == JsonToken.VALUE_STRING && (body == null || p.getText().equals(username))
                && field(p, "like_count") && p.nextToken() == JsonToken.VALUE_NUMBER_INT && (likes < 0 || p.getLongValue() == likes)
                && p.nextToken() == JsonToken.END_OBJECT;
            if (ok && inFeed) {
                feedIds[feedSize++] = postId;
            }
            return ok;
        }

        /**
         * Whether the feed's post whose {@code created_at} the parser is at (of the shape
         * {@link TimeText#MILLIS}, whose text order is time order) comes after the feed's previous post
         * in {@code created_at DESC, id DESC} order; keeps its {@code created_at} for the next post (a
         * post that fails after this fails its whole feed, so the next compared is a new feed's first).
         */
        private boolean followsInFeed(JsonParser p, long postId) throws IOException {
            char[] text = p.getTextCharacters();
            int from = p.getTextOffset();
            int length = feedCreatedAt.length;
            int order = feedSize == 0 ? -1 : Arrays.compare(text, from, from + length, feedCreatedAt, 0, length);
            System.arraycopy(text, from, feedCreatedAt, 0, length);
            return order < 0 || order == 0 && postId < feedIds[feedSize - 1];
        }

        private static boolean field(JsonParser p, String name) throws IOException {
            return p.nextToken() == JsonToken.FIELD_NAME && p.currentName().equals(name);
        }

        /** After an answer: the next step of the loop and how long to think before it. */
        @Override
        public long afterAnswer(long tag, SplittableRandom random) {
            switch ((int) (tag >>> KIND_SHIFT)) {
                case FEED -> {
                    step = READ;
                    return uniform(random, AFTER_FEED);
                }
                case READ -> {
                    likeNext = random.nextDouble() < mix.likeProbability;
                    createNext = random.nextDouble() < mix.createProbability;
                }
                case LIKE -> likeNext = false;
                default -> createNext = false;
            }
            if (likeNext) {
                step = LIKE;
                return tag >>> KIND_SHIFT == READ ? uniform(random, AFTER_READ) : 0;
            }
            if (createNext) {
                step = CREATE;
                return tag >>> KIND_SHIFT == READ ? uniform(random, AFTER_READ) : 0;
            }
            step = FEED;
            return tag >>> KIND_SHIFT == READ ? uniform(random, AFTER_READ) + uniform(random, AFTER_LOOP) : uniform(random, AFTER_LOOP);
        }

        private long uniform(SplittableRandom random, Think think) {
            return (long) ((think.minSeconds + random.nextDouble() * (think.maxSeconds - think.minSeconds)) * 1e9 * thinkScale);
        }

        private static String usernameOf(String token) {
            String[] parts = token.split("\\.");
            if (parts.length != 3) {
                throw new IllegalArgumentException("not a JWT: " + token);
            }
            try (JsonParser p = Links.JSON.createParser(Base64.getUrlDecoder().decode(parts[1]))) {
                while (p.nextToken() != null) {
                    if (p.currentToken() == JsonToken.FIELD_NAME && p.currentName().equals("username")) {
                        p.nextToken();
                        return p.getText();
                    }
                }
            } catch (IOException | IllegalArgumentException e) {
                throw new IllegalArgumentException("cannot read the username of a token", e);
            }
            throw new IllegalArgumentException("a token without username");
        }
    }

    /** Reads tokens, one per line, skipping blank lines. */
    public static List<String> readTokens(java.nio.file.Path file) throws IOException {
        List<String> tokens = new ArrayList<>();
        for (String line : java.nio.file.Files.readAllLines(file)) {
            if (!line.isBlank()) {
                tokens.add(line.strip());
            }
        }
        return tokens;
    }
}
