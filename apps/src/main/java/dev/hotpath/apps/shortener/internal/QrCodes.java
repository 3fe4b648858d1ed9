package dev.hotpath.apps.shortener.internal;

import com.google.zxing.BarcodeFormat;
import com.google.zxing.EncodeHintType;
import com.google.zxing.WriterException;
import com.google.zxing.common.BitMatrix;
import com.google.zxing.qrcode.QRCodeWriter;
import com.google.zxing.qrcode.decoder.ErrorCorrectionLevel;
import dev.hotpath.http.Deferred;
import dev.hotpath.http.Response;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * {@code GET /api/links/{code}/qr.svg}: the QR code of a link's short URL as SVG, made with ZXing
 * (its encoder, and its decoder in the tests: one library for both). Public, as the redirect is: it
 * shows nothing the code does not. Only live links get one; the caller checks that.
 *
 * <p>Cost: drawing one takes 126 µs for a short URL and 324 µs for an 84-character one, with 32 and
 * 117 KB of garbage ({@code QrCodesBenchmark}): the server CPU of 20 to 55 redirects (5.9 µs each, with
 * the kernel's share) in one stall. So it never runs on an event loop: one drawing thread behind a
 * short queue, and a full queue answers 503 {@code overloaded} with {@code Retry-After}, so a flood of
 * QR requests costs at most that thread, never a loop (it still competes for the cores with whatever
 * else the node does: behind nginx, the write nodes' creates). A browser revalidates each time
 * ({@code no-cache}: a deleted link's code must stop showing) and gets a {@code 304} from its
 * {@code ETag}, decided after the link's check and without drawing; the tag depends only on the short
 * URL and {@link #FORMAT}. A {@code HEAD} draws as a {@code GET} does (the engine answers it with the
 * {@code GET} handler).
 */
public final class QrCodes implements AutoCloseable {
    static final Response OVERLOADED = Errors.retryLater("overloaded", "too many QR codes are being drawn; retry shortly");
    private static final Response NOT_DRAWN = Errors.error(500, "internal_error", "the QR code could not be drawn");
    /** Part of every tag: bump it when the drawing changes, so browsers fetch the new one. */
    private static final String FORMAT = "qr1";
    /** Modules of white around the symbol, as the standard asks of a reader's quiet zone. */
    private static final int QUIET_ZONE = 4;
    /** Pixels per module of the SVG's intrinsic size; it scales without loss. */
    private static final int SCALE = 6;
    /** Drawings that may wait for the thread: a page shows one code at a time. */
    private static final int QUEUE = 16;
    private static final Map<EncodeHintType, Object> HINTS = Map.of(
        EncodeHintType.ERROR_CORRECTION, ErrorCorrectionLevel.M,
        EncodeHintType.MARGIN, QUIET_ZONE);

    private final String publicBase;
    private final ExecutorService drawing;

    /** Draws the codes of {@code publicBase}, which {@code ShortenerConfig} keeps short enough for one. */
    QrCodes(String publicBase) {
        this(publicBase, new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUE),
            Thread.ofPlatform().name("shortener-qr").daemon(true).factory(), new ThreadPoolExecutor.AbortPolicy()));
    }

    /** With {@code drawing} as the thread that draws: for tests that hold or refuse it. */
    QrCodes(String publicBase, ExecutorService drawing) {
        this.publicBase = publicBase;
        this.drawing = drawing;
    }

    /**
     * Answers for the live link {@code code} (as the request named it): {@code 304} at once when
     * {@code ifNoneMatch} (the header, or null) already names its tag, else the SVG once drawn.
     */
    void answer(String code, String ifNoneMatch, Deferred response) {
        String shortUrl = publicBase + "/" + code;
        String tag = EntityTags.of(FORMAT + ' ' + shortUrl);
        if (EntityTags.matches(ifNoneMatch, tag)) {
            response.complete(StaticFile.revalidated(Response.builder(304), tag).build());
            return;
        }
        try {
            drawing.execute(() -> response.complete(drawn(shortUrl, tag)));
        } catch (RejectedExecutionException e) {
            response.complete(OVERLOADED);
        }
    }

    /** The SVG answer; a drawing that fails still answers, so no request waits for ever. */
    private static Response drawn(String shortUrl, String tag) {
        try {
            return StaticFile.revalidated(Response.builder(200), tag)
                .body("image/svg+xml", svg(shortUrl).getBytes(StandardCharsets.US_ASCII));
        } catch (RuntimeException | LinkageError | StackOverflowError e) {
            return NOT_DRAWN;
        }
    }

    /** Stops the drawing thread; a drawing in progress finishes, queued ones are dropped with the server. */
    @Override
    public void close() {
        drawing.shutdownNow();
    }

    /**
     * {@code text} as a QR code (error correction M): a white square and one path with a rectangle per
     * run of dark modules in a row, which keeps a typical code under 4 KB.
     */
    public static String svg(String text) {
        BitMatrix modules;
        try {
            modules = new QRCodeWriter().encode(text, BarcodeFormat.QR_CODE, 0, 0, HINTS);
        } catch (WriterException e) {
            throw new IllegalArgumentException("cannot encode " + text.length() + " characters as a QR code", e);
        }
        int size = modules.getWidth();
        StringBuilder svg = new StringBuilder(4096)
            .append("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ").append(size).append(' ').append(size)
            .append("\" width=\"").append(size * SCALE).append("\" height=\"").append(size * SCALE)
            .append("\" shape-rendering=\"crispEdges\"><rect width=\"").append(size).append("\" height=\"").append(size)
            .append("\" fill=\"#fff\"/><path fill=\"#000\" d=\"");
        for (int y = 0; y < size; y++) {
            int x = 0;
            while (x < size) {
                if (!modules.get(x, y)) {
                    x++;
                    continue;
                }
                int start = x;
                while (x < size && modules.get(x, y)) {
                    x++;
                }
                svg.append('M').append(start).append(' ').append(y).append('h').append(x - start)
                    .append("v1h-").append(x - start).append('z');
            }
        }
        return svg.append("\"/></svg>").toString();
    }
}
