package dev.hotpath.apps.shortener;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * API keys of a data directory, stored only as SHA-256 hashes in {@code <data>/api-keys}, one line per
 * key: {@code id hash created_at revoked_at|-}. A key is {@code hpk_} and 32 base62 characters from a
 * CSPRNG (about 190 bits), shown once when created. Checking a presented key hashes it and compares it
 * with every active hash in constant time, so neither the time nor the match order tells anything.
 *
 * <p>The file is rewritten whole through a temporary file and an atomic rename; a running server
 * notices a new file ({@link #reloadIfChanged}) at most once per second, so keys can be created and
 * revoked while it serves.
 */
public final class ApiKeys implements KeyVerifier {
    /** The key file in the data directory. */
    public static final String FILE = "api-keys";
    private static final String PREFIX = "hpk_";
    private static final int KEY_CHARS = 32;
    private static final int ID_CHARS = 8;
    private static final String ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final HexFormat HEX = HexFormat.of();
    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(ApiKeys::sha256);

    private final Path file;
    private final Clock clock;
    private volatile byte[][] activeHashes;
    private volatile long loadedModified;
    private volatile long checkedAt;

    private ApiKeys(Path file, Clock clock) {
        this.file = file;
        this.clock = clock;
        reload();
    }

    /** The keys of {@code dataDir}; an absent file means no keys. */
    public static ApiKeys open(Path dataDir, Clock clock) {
        return new ApiKeys(dataDir.resolve(FILE), clock);
    }

    /** One stored key, without its secret. */
    public record KeyInfo(String id, String hash, Instant createdAt, Instant revokedAt) {
        public boolean active() {
            return revokedAt == null;
        }
    }

    /** A new key: the secret exists only in this object and wherever the caller shows it. */
    public record Created(String id, String secret) {
    }

    /** Creates a key and stores its hash. */
    public static Created create(Path dataDir, Clock clock) {
        Created created = generate();
        List<KeyInfo> keys = new ArrayList<>(list(dataDir));
        keys.add(new KeyInfo(created.id(), hashHex(created.secret()), clock.instant(), null));
        write(dataDir, keys);
        return created;
    }

    /** A new key id and secret, from the CSPRNG; stored nowhere yet. */
    static Created generate() {
        return new Created(random(ID_CHARS), PREFIX + random(KEY_CHARS));
    }

    /** The stored form of {@code secret}: its SHA-256, in hex. */
    static String hashHex(String secret) {
        return HEX.formatHex(hash(secret.getBytes(StandardCharsets.US_ASCII)));
    }

    /** Whether {@code presented} hashes to one of {@code activeHashes}: constant time in the key's content. */
    static boolean matchesAny(byte[] presented, byte[][] activeHashes) {
        byte[] digest = hash(presented);
        boolean match = false;
        for (byte[] active : activeHashes) {
            match |= MessageDigest.isEqual(digest, active);
        }
        return match;
    }

    /** The hashes of {@code keys} that are active, as bytes for {@link #matchesAny}. */
    static byte[][] activeHashes(List<KeyInfo> keys) {
        return keys.stream().filter(KeyInfo::active).map(k -> HEX.parseHex(k.hash())).toArray(byte[][]::new);
    }

    /** Revokes key {@code id}; false when there is no active key with that id. */
    public static boolean revoke(Path dataDir, String id, Clock clock) {
        List<KeyInfo> keys = new ArrayList<>();
        boolean revoked = false;
        for (KeyInfo key : list(dataDir)) {
            if (key.id().equals(id) && key.active()) {
                keys.add(new KeyInfo(key.id(), key.hash(), key.createdAt(), clock.instant()));
                revoked = true;
            } else {
                keys.add(key);
            }
        }
        if (revoked) {
            write(dataDir, keys);
        }
        return revoked;
    }

    /** Every stored key, active or revoked. */
    public static List<KeyInfo> list(Path dataDir) {
        Path file = dataDir.resolve(FILE);
        if (!Files.exists(file)) {
            return List.of();
        }
        try {
            List<KeyInfo> keys = new ArrayList<>();
            for (String line : Files.readAllLines(file, StandardCharsets.US_ASCII)) {
                if (line.isBlank()) {
                    continue;
                }
                String[] f = line.split(" ");
                if (f.length != 4) {
                    throw new IllegalStateException("corrupt key file " + file + ": " + line.length() + "-character line");
                }
                keys.add(new KeyInfo(f[0], f[1], Instant.parse(f[2]), f[3].equals("-") ? null : Instant.parse(f[3])));
            }
            return keys;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** Whether {@code presented} is an active key. Constant time in the key's content. */
    @Override
    public boolean verify(byte[] presented) {
        reloadIfChanged();
        return matchesAny(presented, activeHashes);
    }

    /** Re-reads the file when it changed, checking at most once per second. */
    public void reloadIfChanged() {
        long now = clock.millis();
        if (now - checkedAt < 1000) {
            return;
        }
        checkedAt = now;
        try {
            long modified = Files.exists(file) ? Files.getLastModifiedTime(file).toMillis() : 0;
            if (modified != loadedModified) {
                reload();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Re-reads the file now (after this process changed it). */
    public void reload() {
        try {
            loadedModified = Files.exists(file) ? Files.getLastModifiedTime(file).toMillis() : 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        activeHashes = activeHashes(list(file.getParent()));
    }

    /** Writes {@code secret} to {@code <data>/api-key}, readable by the owner only. */
    public static Path writeSecretFile(Path dataDir, String secret) {
        return writeSecretFileAt(dataDir.resolve("api-key"), secret);
    }

    /** Writes {@code secret} to {@code file} (replacing it), readable by the owner only. */
    public static Path writeSecretFileAt(Path file, String secret) {
        try {
            Files.deleteIfExists(file);
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(file, secret + "\n", StandardCharsets.US_ASCII, StandardOpenOption.WRITE);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private static void write(Path dataDir, List<KeyInfo> keys) {
        StringBuilder out = new StringBuilder();
        for (KeyInfo k : keys) {
            out.append(k.id()).append(' ').append(k.hash()).append(' ').append(k.createdAt()).append(' ')
                .append(k.revokedAt() == null ? "-" : k.revokedAt().toString()).append('\n');
        }
        Path file = dataDir.resolve(FILE);
        Path temp = dataDir.resolve(FILE + ".tmp");
        try {
            Files.createDirectories(dataDir);
            Files.writeString(temp, out, StandardCharsets.US_ASCII);
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private static byte[] hash(byte[] secret) {
        return SHA256.get().digest(secret);
    }

    private static String random(int chars) {
        StringBuilder out = new StringBuilder(chars);
        for (int i = 0; i < chars; i++) {
            out.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
        }
        return out.toString();
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
