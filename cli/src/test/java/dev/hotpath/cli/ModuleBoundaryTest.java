package dev.hotpath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The dependency rules of DESIGN.md, checked on the sources of the reactor (this module's tests run
 * with the reactor's root two levels up): modules use each other's root packages only, never an
 * {@code .internal} package, and dependencies point one way ({@code http} and {@code store} know no
 * app and not each other).
 * The benchmarks in {@code bench/} measure internals on purpose and are exempt.
 */
class ModuleBoundaryTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void appsAndCliUseOnlyTheEnginesPublicPackage() {
        assertThat(importsIn("apps", "cli").filter(i -> i.contains("dev.hotpath.http.internal")).toList()).isEmpty();
    }

    @Test
    void theCommandLineUsesNoInternalPackageOfAnyModule() {
        assertThat(importsIn("cli").filter(i -> i.contains(".internal.")).toList()).isEmpty();
    }

    @Test
    void theEngineDependsOnNoAppAndNoCommandLine() {
        assertThat(importsIn("http").filter(i -> i.contains("dev.hotpath.apps") || i.contains("dev.hotpath.cli"))
            .toList()).isEmpty();
    }

    @Test
    void theStoreDependsOnNeitherTheEngineNorAnyApp() {
        assertThat(importsIn("store").filter(i -> i.contains("dev.hotpath.http") || i.contains("dev.hotpath.apps")
            || i.contains("dev.hotpath.cli")).toList()).isEmpty();
    }

    @Test
    void theHarnessKnowsNoServerItMeasures() {
        assertThat(importsIn("loadgen").filter(i -> i.contains("dev.hotpath.http") || i.contains("dev.hotpath.apps")
            || i.contains("dev.hotpath.store") || i.contains("dev.hotpath.cli")).toList()).isEmpty();
    }

    @Test
    void theCheckSeesTheSources() {
        assertThat(importsIn("http", "store", "apps", "loadgen", "cli").count()).isGreaterThan(50);
    }

    /** "file: import line" for every import in the main sources of the modules. */
    private static Stream<String> importsIn(String... modules) {
        return Stream.of(modules).flatMap(module -> {
            Path sources = ROOT.resolve(module).resolve("src/main/java");
            try (Stream<Path> files = Files.walk(sources)) {
                List<Path> javaFiles = files.filter(p -> p.toString().endsWith(".java")).toList();
                return javaFiles.stream().flatMap(file -> lines(file).stream()
                    .filter(line -> line.startsWith("import "))
                    .map(line -> ROOT.relativize(file) + ": " + line));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
