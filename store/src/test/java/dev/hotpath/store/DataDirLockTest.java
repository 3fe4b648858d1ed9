package dev.hotpath.store;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DataDirLockTest {
    @TempDir
    Path dir;

    @Test
    void refusesASecondOwnerWithAMessageThatNamesTheDirectory() {
        try (DataDirLock first = DataDirLock.acquire(dir)) {
            assertThatThrownBy(() -> DataDirLock.acquire(dir))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(dir.toAbsolutePath().toString())
                .hasMessageContaining("in use by another hotpath process");
        }
    }

    @Test
    void canBeTakenAgainOnceReleased() {
        DataDirLock.acquire(dir).close();
        DataDirLock.acquire(dir).close();
    }
}
