package dev.hotpath.store.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Where {@code initdb} and {@code postgres} are: the newest {@code /usr/lib/postgresql/<major>/bin}
 * that holds {@code initdb} (Debian keeps them off the PATH there), else the PATH. The launcher's
 * {@code test_programs} looks in the same places, so a machine that passes its check passes here.
 */
final class PostgresBinaries {
    private static final Path DEBIAN_ROOT = Path.of("/usr/lib/postgresql");

    private PostgresBinaries() {
    }

    /** The directory holding {@code initdb} and {@code postgres}. */
    static Path directory() {
        return debian().or(PostgresBinaries::onPath).orElseThrow(() -> new IllegalStateException(
            "initdb is neither in " + DEBIAN_ROOT + "/*/bin nor on the PATH: install the postgresql package"));
    }

    private static Optional<Path> debian() {
        if (!Files.isDirectory(DEBIAN_ROOT)) {
            return Optional.empty();
        }
        try (Stream<Path> versions = Files.list(DEBIAN_ROOT)) {
            return versions.filter(version -> version.getFileName().toString().matches("\\d+"))
                .filter(version -> Files.isExecutable(version.resolve("bin/initdb")))
                .max(Comparator.comparingInt(version -> Integer.parseInt(version.getFileName().toString())))
                .map(version -> version.resolve("bin"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + DEBIAN_ROOT, e);
        }
    }

    private static Optional<Path> onPath() {
        String path = System.getenv().getOrDefault("PATH", "");
        return Stream.of(path.split(":")).filter(entry -> !entry.isEmpty()).map(Path::of)
            .filter(bin -> Files.isExecutable(bin.resolve("initdb"))).findFirst();
    }
}
