package dev.hotpath.apps.shortener;

import static java.util.stream.Collectors.toCollection;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.store.Durability;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code docs/openapi.yaml} describes the shortener's API for machines and is served at
 * {@code /api/openapi.yaml}. Nothing else ties it to the code, so this test does: the document must be
 * valid OpenAPI, and its operations (method and path) must be exactly the routes the shortener gives
 * the engine. A route added, removed or renamed without the document, or the other way round, fails
 * here and names what is missing on which side.
 */
class OpenApiDocumentTest {
    private static final Pattern REFERENCE = Pattern.compile("\\$ref: *['\"]?#/components/(\\w+)/([\\w.-]+)");

    @TempDir
    Path dataDir;

    @Test
    void isValidOpenApi() throws IOException {
        SwaggerParseResult parsed = parse();

        assertThat(parsed.getMessages()).as("parser and validator messages").isEmpty();
        assertThat(parsed.getOpenAPI()).isNotNull();
    }

    /** The parser says nothing of a {@code $ref} to a component that is not there; this test does. */
    @Test
    void everyReferenceNamesAComponentThatExists() throws IOException {
        Components components = parse().getOpenAPI().getComponents();
        Matcher reference = REFERENCE.matcher(text());
        int references = 0;
        while (reference.find()) {
            String kind = reference.group(1);
            String name = reference.group(2);
            Map<String, ?> declared = switch (kind) {
                case "schemas" -> components.getSchemas();
                case "responses" -> components.getResponses();
                case "parameters" -> components.getParameters();
                case "headers" -> components.getHeaders();
                case "requestBodies" -> components.getRequestBodies();
                default -> Map.of();
            };
            assertThat(declared).as(reference.group()).containsKey(name);
            references++;
        }
        assertThat(references).as("references in the document").isPositive();
    }

    @Test
    void documentsExactlyTheRoutesOfTheShortener() throws IOException {
        Set<String> documented = operations(parse().getOpenAPI());
        Set<String> routed;
        try (ShortenerApp app = ShortenerApp.open(new ShortenerConfig(dataDir, "http://127.0.0.1:8080", "scrambled",
            Durability.NONE, 1_000, ShortenerConfig.MAX_BATCH, 302, Set.of(), null, true, Clock.systemUTC()),
            new PrometheusRegistry())) {
            routed = app.routes().list().stream().map(route -> route.method() + " " + route.pattern())
                .collect(toCollection(TreeSet::new));
        }

        assertThat(minus(routed, documented)).as("routes the router serves but docs/openapi.yaml lacks").isEmpty();
        assertThat(minus(documented, routed)).as("operations in docs/openapi.yaml the router does not serve")
            .isEmpty();
    }

    /** The document as the jar carries it (apps/pom.xml copies it from docs/ next to this class). */
    private static String text() throws IOException {
        try (InputStream in = OpenApiDocumentTest.class.getResourceAsStream("openapi.yaml")) {
            assertThat(in).as("openapi.yaml on the classpath").isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static SwaggerParseResult parse() throws IOException {
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        return new OpenAPIV3Parser().readContents(text(), null, options);
    }

    /** Each operation as {@code "GET /api/links/{code}"}. */
    private static Set<String> operations(OpenAPI document) {
        Set<String> operations = new TreeSet<>();
        document.getPaths().forEach((path, item) ->
            item.readOperationsMap().keySet().forEach(method -> operations.add(method.name() + " " + path)));
        return operations;
    }

    private static Set<String> minus(Set<String> a, Set<String> b) {
        Set<String> rest = new TreeSet<>(a);
        rest.removeAll(b);
        return rest;
    }
}
