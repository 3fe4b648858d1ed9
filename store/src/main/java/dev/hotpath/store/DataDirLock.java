package dev.hotpath.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Exclusive ownership of a data directory: an OS file lock on {@code <dir>/lock}, held while the store
 * is open. A second process (or a second store in this one) is refused at once with a message that
 * names the directory. The OS releases the lock when the process dies, even by {@code kill -9}, so a
 * crash never leaves a directory locked.
 */
public final class DataDirLock implements AutoCloseable {
    private final FileChannel channel;
    private final FileLock lock;

    private DataDirLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Creates the directory if needed and locks it.
     *
     * @throws IllegalStateException when another owner holds it
     */
    public static DataDirLock acquire(Path dir) {
        try {
            Files.createDirectories(dir);
            FileChannel channel = FileChannel.open(dir.resolve("lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null;
            }
            if (lock == null) {
                channel.close();
                throw new IllegalStateException("data dir " + dir.toAbsolutePath()
                    + " is in use by another hotpath process (lock file " + dir.resolve("lock") + ")");
            }
            return new DataDirLock(channel, lock);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot lock data dir " + dir.toAbsolutePath() + ": " + e, e);
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
