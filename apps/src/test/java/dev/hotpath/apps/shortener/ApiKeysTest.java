package dev.hotpath.apps.shortener;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.http.testing.MutableClock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ApiKeysTest {
    @TempDir
    Path dir;
    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-30T00:00:00Z"));

    @Test
    void acceptsACreatedKeyAndStoresOnlyItsHash() throws Exception {
        ApiKeys.Created created = ApiKeys.create(dir, clock);
        ApiKeys keys = ApiKeys.open(dir, clock);

        assertThat(created.secret()).startsWith("hpk_").hasSize(36);
        assertThat(keys.verify(bytes(created.secret()))).isTrue();
        assertThat(keys.verify(bytes(created.secret() + "x"))).isFalse();
        assertThat(keys.verify(bytes(""))).isFalse();
        assertThat(Files.readString(dir.resolve(ApiKeys.FILE))).doesNotContain(created.secret())
            .contains(created.id());
    }

    @Test
    void aRunningServerSeesAKeyRevokedAfterItsNextCheck() {
        ApiKeys.Created created = ApiKeys.create(dir, clock);
        ApiKeys keys = ApiKeys.open(dir, clock);
        assertThat(keys.verify(bytes(created.secret()))).isTrue();

        assertThat(ApiKeys.revoke(dir, created.id(), clock)).isTrue();
        assertThat(ApiKeys.revoke(dir, created.id(), clock)).isFalse();
        clock.advance(Duration.ofSeconds(1));
        touchForward();

        assertThat(keys.verify(bytes(created.secret()))).isFalse();
        assertThat(ApiKeys.list(dir)).singleElement().satisfies(k -> assertThat(k.active()).isFalse());
    }

    @Test
    void writesTheSecretFileForTheOwnerOnly() throws Exception {
        Path file = ApiKeys.writeSecretFile(dir, "hpk_secret");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(Files.readString(file)).isEqualTo("hpk_secret\n");
    }

    @Test
    void createdKeysAreUnique() {
        assertThat(ApiKeys.create(dir, clock).secret()).isNotEqualTo(ApiKeys.create(dir, clock).secret());
        assertThat(ApiKeys.list(dir)).hasSize(2);
    }

    /** File times have a coarse grain on some file systems: make the rewrite visibly newer. */
    private void touchForward() {
        try {
            Path file = dir.resolve(ApiKeys.FILE);
            Files.setLastModifiedTime(file, java.nio.file.attribute.FileTime.fromMillis(
                Files.getLastModifiedTime(file).toMillis() + 2000));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
