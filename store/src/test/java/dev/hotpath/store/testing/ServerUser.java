package dev.hotpath.store.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.ArrayList;
import java.util.List;

/**
 * Who a throwaway server runs as. {@code initdb} and {@code postgres} refuse to run as root, and the
 * suite runs as root under CI: then they run as the {@code postgres} system user (made by the
 * Debian package), through {@code setpriv}, which execs, so the started process is the server itself
 * and its PID is the one to signal ({@code runuser} and {@code su} fork and wait instead). Anyone else
 * runs the servers as themselves.
 */
final class ServerUser {
    static final String POSTGRES = "postgres";

    private ServerUser() {
    }

    static boolean isRoot() {
        try {
            return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid") == 0;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read this process's uid", e);
        }
    }

    /** {@code command}, run as the {@code postgres} user when this process is root. */
    static List<String> postgres(List<String> command) {
        if (!isRoot()) {
            return command;
        }
        List<String> asUser = new ArrayList<>(List.of("setpriv", "--reuid=" + POSTGRES, "--regid=" + POSTGRES,
            "--init-groups", "--"));
        asUser.addAll(command);
        return asUser;
    }

    /** Creates {@code dir} owned by the user the servers run as (a no-op change when not root). */
    static Path createOwnedDirectory(Path dir) {
        try {
            Files.createDirectories(dir);
            if (isRoot()) {
                UserPrincipalLookupService users = dir.getFileSystem().getUserPrincipalLookupService();
                Files.setOwner(dir, users.lookupPrincipalByName(POSTGRES));
            }
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir + " for the " + POSTGRES + " user", e);
        }
    }
}
