package dev.hotpath.apps.shortener.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.apps.internal.FutureAnswer;
import dev.hotpath.http.Response;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What {@link QrCodes} answers besides the drawing (which {@code ShortenerContract} decodes back):
 * tags, revalidation, refusal when it cannot draw, the shape of a long URL's SVG.
 */
class QrCodesTest {
    @Test
    void aQrCodesTagDependsOnItsShortUrlOnly() throws Exception {
        try (QrCodes codes = new QrCodes("https://sho.rt/x"); QrCodes same = new QrCodes("https://sho.rt/x");
             QrCodes other = new QrCodes("https://sho.rt/y")) {
            String tag = header(answer(codes, "abc-def", null), "ETag");
            assertThat(header(answer(same, "abc-def", null), "ETag")).isEqualTo(tag);
            assertThat(header(answer(codes, "abc-deg", null), "ETag")).isNotEqualTo(tag);
            assertThat(header(answer(other, "abc-def", null), "ETag")).isNotEqualTo(tag);
            assertThat(answer(codes, "abc-def", tag).status()).isEqualTo(304);
            assertThat(answer(codes, "abc-def", "\"other\"").status()).isEqualTo(200);
        }
    }

    @Test
    void aDrawingTheBusyThreadCannotQueueIsRefusedWithRetryAfterButARevalidationIsNot() throws Exception {
        String tag;
        try (QrCodes free = new QrCodes("https://sho.rt")) {
            tag = header(answer(free, "abc", null), "ETag");
        }
        CountDownLatch release = new CountDownLatch(1);
        ThreadPoolExecutor busy = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new SynchronousQueue<>());
        busy.execute(() -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try (QrCodes codes = new QrCodes("https://sho.rt", busy)) {
            Response refused = answer(codes, "abc", null);
            assertThat(refused.status()).isEqualTo(503);
            assertThat(header(refused, "Retry-After")).isEqualTo("1");
            Response revalidated = answer(codes, "abc", tag);
            assertThat(revalidated.status()).isEqualTo(304);
            assertThat(header(revalidated, "Cache-Control")).isEqualTo("no-cache");
        } finally {
            release.countDown();
        }
    }

    private static Response answer(QrCodes codes, String code, String ifNoneMatch) throws Exception {
        FutureAnswer answer = new FutureAnswer();
        codes.answer(code, ifNoneMatch, answer);
        return answer.future().get(30, TimeUnit.SECONDS);
    }

    @Test
    void aQrCodeOfALongUrlStaysOneSvgPath() {
        String svg = QrCodes.svg("https://sho.rt/" + "x".repeat(200));
        assertThat(svg).startsWith("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ").endsWith("\"/></svg>");
        assertThat(svg.split("<path").length).isEqualTo(2);
    }

    private static String header(Response response, String name) {
        for (String line : new String(response.wire(), StandardCharsets.ISO_8859_1).split("\r\n")) {
            if (line.startsWith(name + ": ")) {
                return line.substring(name.length() + 2);
            }
        }
        throw new AssertionError("no " + name + " header");
    }
}
