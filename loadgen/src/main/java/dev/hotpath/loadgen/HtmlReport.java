package dev.hotpath.loadgen;

import java.util.List;
import java.util.Locale;

/**
 * {@code report.html}: one self-contained page (inline SVG and CSS, no script, nothing fetched) with
 * the verdict, the latency-percentile curve (log-scaled "nines" axis, as HdrHistogram plots it) and
 * answers per second over the measured period.
 */
final class HtmlReport {
    private static final int WIDTH = 640;
    private static final int HEIGHT = 240;
    private static final int PAD = 40;

    private HtmlReport() {
    }

    static String render(RunResult r, Verdict verdict, ResultWriter.Provenance provenance) {
        StringBuilder html = new StringBuilder(16_384);
        html.append("<!doctype html><html><head><meta charset=\"utf-8\"><title>hotpath bench: ")
            .append(escape(r.scenario())).append("</title><style>body{font:14px sans-serif;margin:2em;max-width:")
            .append(WIDTH + 2 * PAD).append("px}h1{font-size:20px}.pass{color:#070}.fail{color:#b00}")
            .append("svg{border:1px solid #ccc;background:#fff}text{font:11px sans-serif}</style></head><body>");
        html.append("<h1 class=\"").append(verdict.pass() ? "pass\">PASS" : "fail\">FAIL").append("</h1>");
        html.append("<ul>");
        for (String reason : verdict.reasons()) {
            html.append("<li>").append(escape(reason)).append("</li>");
        }
        html.append("</ul><pre>").append(escape(ResultWriter.summary(r, verdict, provenance))).append("</pre>");
        html.append("<h2>Latency by percentile</h2>").append(percentileChart(r.measured().latency()));
        html.append("<h2>Answers per second</h2>").append(throughputChart(r.measured().answersPerSecond()));
        return html.append("</body></html>\n").toString();
    }

    /** Latency (ms, linear) against percentile on a "nines" axis: x = log10(1 / (1 - p)). */
    private static String percentileChart(Latency latency) {
        double[] nines = {0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4};
        double maxMs = Math.max(0.001, latency.maxMillis());
        StringBuilder points = new StringBuilder();
        StringBuilder labels = new StringBuilder();
        for (double n : nines) {
            double percentile = 100 * (1 - Math.pow(10, -n));
            double ms = latency.millisAt(percentile);
            double x = PAD + n / nines[nines.length - 1] * (WIDTH - PAD);
            double y = HEIGHT - PAD + 10 - ms / maxMs * (HEIGHT - PAD);
            points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
            if (n == Math.rint(n)) {
                labels.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\">p%s</text>", x - 10, HEIGHT - 5,
                    ResultWriter.trim(percentile)));
            }
        }
        return svg(points, labels, String.format(Locale.ROOT, "%.3f ms", maxMs));
    }

    private static String throughputChart(List<Long> perSecond) {
        long max = 1;
        for (long v : perSecond) {
            max = Math.max(max, v);
        }
        StringBuilder points = new StringBuilder();
        int n = Math.max(1, perSecond.size() - 1);
        for (int i = 0; i < perSecond.size(); i++) {
            double x = PAD + (double) i / n * (WIDTH - PAD);
            double y = HEIGHT - PAD + 10 - (double) perSecond.get(i) / max * (HEIGHT - PAD);
            points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
        }
        String labels = "<text x=\"" + PAD + "\" y=\"" + (HEIGHT - 5) + "\">0 s</text><text x=\"" + (WIDTH - 20) + "\" y=\""
            + (HEIGHT - 5) + "\">" + perSecond.size() + " s</text>";
        return svg(points, new StringBuilder(labels), String.format(Locale.ROOT, "%,d/s", max));
    }

    private static String svg(StringBuilder points, StringBuilder labels, String top) {
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + (WIDTH + 10) + "\" height=\"" + HEIGHT + "\">"
            + "<line x1=\"" + PAD + "\" y1=\"10\" x2=\"" + PAD + "\" y2=\"" + (HEIGHT - PAD + 10) + "\" stroke=\"#999\"/>"
            + "<line x1=\"" + PAD + "\" y1=\"" + (HEIGHT - PAD + 10) + "\" x2=\"" + WIDTH + "\" y2=\"" + (HEIGHT - PAD + 10)
            + "\" stroke=\"#999\"/><text x=\"2\" y=\"14\">" + escape(top) + "</text>" + labels
            + "<polyline fill=\"none\" stroke=\"#06c\" stroke-width=\"2\" points=\"" + points + "\"/></svg>";
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
