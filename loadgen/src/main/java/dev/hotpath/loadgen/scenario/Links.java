package dev.hotpath.loadgen.scenario;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.hotpath.loadgen.Answer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The shortener's answers as the harness reads them (a link object's code and long URL, a redirect, an
 * error's code; {@code docs/API.md}), and seeding through its bulk API. Seeding is setup, not load: a
 * plain blocking client, 1,000 links a request.
 */
final class Links {
    static final JsonFactory JSON = new JsonFactory();
    private static final int BULK = 1000;

    private Links() {
    }

    /** A link as created: its code and the URL it redirects to. */
    record Link(String code, String longUrl) {
    }

    /** The location of a created link, as the create's {@code Location} header names it. */
    static String locationOf(String code) {
        return "/api/links/" + code;
    }

    /** Whether {@code answer} redirects to exactly {@code url}, without a body ({@code Content-Length: 0}). */
    static boolean redirectsTo(Answer answer, byte[] url) {
        return answer.locationEquals(url) && answer.bodyLength() == 0;
    }

    /** The {@code error} code of an error object ({@code {"error":"<code>","message":"<text>"}}), or null. */
    static String errorCode(Answer answer) {
        try (JsonParser p = JSON.createParser(answer.bodyArray(), 0, answer.bodyLength())) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            String code = null;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                boolean isCode = p.currentName().equals("error");
                if (p.nextToken() == JsonToken.VALUE_STRING && isCode) {
                    code = p.getText();
                } else {
                    p.skipChildren();
                }
            }
            return p.currentToken() == JsonToken.END_OBJECT && p.nextToken() == null ? code : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** The code and long_url of one link object; null when the body is not one. */
    static Link parseLink(byte[] body, int length) {
        try (JsonParser p = JSON.createParser(body, 0, length)) {
            return p.nextToken() == JsonToken.START_OBJECT ? readLink(p) : null;
        } catch (IOException e) {
            return null;
        }
    }

    private static Link readLink(JsonParser p) throws IOException {
        String code = null;
        String url = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken value = p.nextToken();
            if (field.equals("code") && value == JsonToken.VALUE_STRING) {
                code = p.getText();
            } else if (field.equals("long_url") && value == JsonToken.VALUE_STRING) {
                url = p.getText();
            } else {
                p.skipChildren();
            }
        }
        return code == null || url == null ? null : new Link(code, url);
    }

    /**
     * Creates {@code count} links with URLs from {@code urlOf} through {@code POST /api/links/bulk}.
     *
     * @throws IOException when the target refuses any of them: a scenario must not run on a partial seed
     */
    static List<Link> seed(Target target, String apiKey, int count, java.util.function.IntFunction<String> urlOf)
        throws IOException {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
        List<Link> links = new ArrayList<>(count);
        try (client) {
            for (int start = 0; start < count; start += BULK) {
                StringBuilder body = new StringBuilder("[");
                for (int i = start; i < Math.min(count, start + BULK); i++) {
                    body.append(i == start ? "" : ",").append("{\"url\":\"").append(urlOf.apply(i)).append("\"}");
                }
                HttpRequest request = HttpRequest.newBuilder(URI.create(target.baseUrl() + "/api/links/bulk"))
                    .timeout(Duration.ofSeconds(60))
                    .header("Content-Type", "application/json").header("Authorization", "Bearer " + apiKey)
                    .POST(HttpRequest.BodyPublishers.ofString(body.append(']').toString())).build();
                HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
                if (response.statusCode() != 200) {
                    throw new IOException("seeding: POST /api/links/bulk answered " + response.statusCode() + ": "
                        + new String(response.body(), java.nio.charset.StandardCharsets.UTF_8));
                }
                readBulk(response.body(), links);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("seeding interrupted", e);
        }
        if (links.size() != count) {
            throw new IOException("seeding: asked for " + count + " links, the target created " + links.size());
        }
        return links;
    }

    private static void readBulk(byte[] body, List<Link> into) throws IOException {
        try (JsonParser p = JSON.createParser(body)) {
            if (p.nextToken() != JsonToken.START_OBJECT || p.nextToken() != JsonToken.FIELD_NAME
                || !p.currentName().equals("results") || p.nextToken() != JsonToken.START_ARRAY) {
                throw new IOException("seeding: the bulk answer is not {\"results\":[...]}");
            }
            while (p.nextToken() == JsonToken.START_OBJECT) {
                int status = -1;
                Link link = null;
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String field = p.currentName();
                    JsonToken value = p.nextToken();
                    if (field.equals("status") && value == JsonToken.VALUE_NUMBER_INT) {
                        status = p.getIntValue();
                    } else if (field.equals("link") && value == JsonToken.START_OBJECT) {
                        link = readLink(p);
                    } else {
                        p.skipChildren();
                    }
                }
                if (status != 201 || link == null) {
                    throw new IOException("seeding: an item was not created (status " + status + ")");
                }
                into.add(link);
            }
        }
    }
}
