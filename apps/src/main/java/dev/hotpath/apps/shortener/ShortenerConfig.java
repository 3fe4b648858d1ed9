package dev.hotpath.apps.shortener;

import dev.hotpath.http.BearerToken;
import dev.hotpath.store.Durability;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Objects;
import java.util.Set;

/**
 * How to run the shortener; each field is a flag of {@code hotpath serve shortener} (see
 * {@code docs/API.md}).
 *
 * @param publicBase base of {@code short_url}, without trailing slash; at most {@link #MAX_PUBLIC_BASE}
 *     characters, so that every short URL (a 64-character alias at most) fits in a QR code
 * @param codes {@code scrambled} (default) or {@code sequential}
 * @param maxBatch most writes per group commit; 1 turns group commit off (for comparisons)
 * @param redirectStatus 301, 302 (default), 307 or 308
 * @param deniedHosts hosts refused as targets; an entry {@code *.example.com} covers the domain and
 *     every name under it
 * @param metricsToken bearer token for {@code /metrics}, or null for a public endpoint
 * @param webPage whether to serve the web page at {@code /} ({@code --ui on}, the default)
 */
public record ShortenerConfig(Path dataDir, String publicBase, String codes, Durability durability, int maxLinks,
                              int maxBatch, int redirectStatus, Set<String> deniedHosts, String metricsToken,
                              boolean webPage, Clock clock) {
    public static final int MAX_LINKS = 10_000_000;
    public static final int MAX_BATCH = 256;
    /** A QR code (error correction M) holds 2,331 bytes; a short URL stays far below it. */
    public static final int MAX_PUBLIC_BASE = 1000;

    public ShortenerConfig {
        Objects.requireNonNull(dataDir, "dataDir");
        Objects.requireNonNull(durability, "durability");
        Objects.requireNonNull(clock, "clock");
        if (publicBase.endsWith("/")) {
            publicBase = publicBase.substring(0, publicBase.length() - 1);
        }
        if (publicBase.length() > MAX_PUBLIC_BASE) {
            throw new IllegalArgumentException("--public-base must be at most " + MAX_PUBLIC_BASE + " characters");
        }
        if (!codes.equals("scrambled") && !codes.equals("sequential")) {
            throw new IllegalArgumentException("--codes must be scrambled or sequential, was " + codes);
        }
        if (maxLinks < 1 || maxLinks > (1 << 30)) {
            throw new IllegalArgumentException("--max-links must be between 1 and 2^30, was " + maxLinks);
        }
        if (maxBatch < 1) {
            throw new IllegalArgumentException("--max-batch must be at least 1, was " + maxBatch);
        }
        if (redirectStatus != 301 && redirectStatus != 302 && redirectStatus != 307 && redirectStatus != 308) {
            throw new IllegalArgumentException("--redirect-status must be 301, 302, 307 or 308, was " + redirectStatus);
        }
        if (metricsToken != null && !metricsToken.equals(BearerToken.parse("Bearer " + metricsToken))) {
            throw new IllegalArgumentException("--metrics-token must be a bearer token: letters, digits and - . _ ~ + /"
                + " (then optional = padding)");
        }
        deniedHosts = Set.copyOf(deniedHosts);
    }
}
