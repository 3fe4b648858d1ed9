package dev.hotpath.apps.shortener;

import com.google.zxing.BinaryBitmap;
import com.google.zxing.ChecksumException;
import com.google.zxing.DecodeHintType;
import com.google.zxing.FormatException;
import com.google.zxing.NotFoundException;
import com.google.zxing.RGBLuminanceSource;
import com.google.zxing.common.HybridBinarizer;
import com.google.zxing.qrcode.QRCodeReader;
import java.awt.image.BufferedImage;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads QR codes back the way a phone would, with ZXing's decoder: from a picture (a browser's
 * screenshot) or from the shortener's SVG, drawn here into pixels from its own path syntax, so a test
 * checks what the code says, not how it is drawn.
 */
final class QrImages {
    private static final Pattern VIEW_BOX = Pattern.compile("viewBox=\"0 0 (\\d+) (\\d+)\"");
    private static final Pattern RUN = Pattern.compile("M(\\d+) (\\d+)h(\\d+)v1h-\\3z");
    private static final int PIXELS_PER_MODULE = 4;

    private QrImages() {
    }

    /** The text of the QR code in {@code image}, found wherever it lies in the picture. */
    static String decode(BufferedImage image) {
        return decode(image, Map.of(DecodeHintType.TRY_HARDER, Boolean.TRUE));
    }

    private static String decode(BufferedImage image, Map<DecodeHintType, ?> hints) {
        int width = image.getWidth();
        int height = image.getHeight();
        int[] pixels = image.getRGB(0, 0, width, height, null, 0, width);
        BinaryBitmap bitmap = new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(width, height, pixels)));
        try {
            return new QRCodeReader().decode(bitmap, hints).getText();
        } catch (NotFoundException | ChecksumException | FormatException e) {
            throw new AssertionError("no readable QR code in the image", e);
        }
    }

    /**
     * The text of the QR code the SVG {@code svg} draws (a white square and one path of dark runs),
     * read module by module: the drawing is exact, so the reader is told it is a pure barcode and samples
     * each module's centre, then checks the format, version and error correction as any reader does. Its
     * general detector, which estimates the grid from the finder patterns as a camera picture needs, fails
     * on about 2 in 1,000 such perfect drawings of short URLs (ZXing 3.5.4, FormatException), the same
     * symbols drawn from ZXing's own matrix included: a flaky test, not a wrong code.
     */
    static String decodeSvg(String svg) {
        Matcher size = VIEW_BOX.matcher(svg);
        if (!size.find()) {
            throw new AssertionError("no viewBox in " + svg);
        }
        int modules = Integer.parseInt(size.group(1));
        int pixels = modules * PIXELS_PER_MODULE;
        BufferedImage image = new BufferedImage(pixels, pixels, BufferedImage.TYPE_INT_RGB);
        var graphics = image.createGraphics();
        graphics.setColor(java.awt.Color.WHITE);
        graphics.fillRect(0, 0, pixels, pixels);
        graphics.setColor(java.awt.Color.BLACK);
        Matcher run = RUN.matcher(svg);
        int runs = 0;
        while (run.find()) {
            graphics.fillRect(Integer.parseInt(run.group(1)) * PIXELS_PER_MODULE,
                Integer.parseInt(run.group(2)) * PIXELS_PER_MODULE,
                Integer.parseInt(run.group(3)) * PIXELS_PER_MODULE, PIXELS_PER_MODULE);
            runs++;
        }
        graphics.dispose();
        if (runs == 0) {
            throw new AssertionError("no dark modules in " + svg);
        }
        return decode(image, Map.of(DecodeHintType.PURE_BARCODE, Boolean.TRUE));
    }
}
