package dev.hotpath.loadgen;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SequencedMap;

/**
 * {@code report.html} of a run, and {@code compare.html} of a comparison: one self-contained page
 * each (inline CSS, data and script; nothing fetched) with the summary as a table and three charts
 * drawn as SVG by the page's own small script ({@code report-charts.js}): latency by percentile on
 * HdrHistogram's axis (x = log10(1 / (1 - p)): 0%, 90%, 99%, 99.9%, ...; y linear, ms), and answers
 * and p99 in each whole second of the measured period. A comparison draws every run of both servers
 * on the same charts; a page of {@link #sections} (the engine suite) has a table and three charts per
 * section. Every value reaches the page as escaped text: the table through
 * {@link #escape}, the charts' labels as JSON read by the script into {@code textContent}.
 */
public final class HtmlReport {
    private static final JsonFactory JSON = new JsonFactory();
    private static final String SCRIPT = resource("report-charts.js");
    private static final String STYLE = "body{font:14px/1.4 system-ui,sans-serif;margin:24px auto;max-width:1040px;color:#222}"
        + "h1{font-size:22px;margin:0 0 8px}h2{font-size:18px;margin:32px 0 6px}h3{font-size:16px;margin:28px 0 6px}.pass{color:#176f2c}.fail{color:#b3261e}"
        + "table{border-collapse:collapse;margin:8px 0}th,td{border:1px solid #d0d0d0;padding:4px 10px;text-align:left;"
        + "vertical-align:top}thead th{background:#f0f0f0}tbody th{background:#f7f7f7;font-weight:600;white-space:nowrap}"
        + "td.number{text-align:right;font-variant-numeric:tabular-nums}code{font-size:12px;word-break:break-all}"
        + "svg.chart{width:100%;height:auto;border:1px solid #d0d0d0;background:#fff}svg text{font:12px sans-serif;fill:#333}"
        + "svg .grid{stroke:#e6e6e6}svg .axis{stroke:#777}svg .line{fill:none;stroke-width:2}svg .label{font-size:13px}"
        + "svg .legend{font-size:13px}#charts-status{color:#888;font-size:12px}";

    private HtmlReport() {
    }

    /** One run's page: verdict, reasons, summary table, charts. */
    static String render(RunResult r, Verdict verdict, ResultWriter.Provenance provenance) {
        StringBuilder body = new StringBuilder(4096);
        body.append("<h1 class=\"").append(verdict.pass() ? "pass" : "fail").append("\">")
            .append(escape(ResultWriter.heading(r, verdict))).append("</h1>");
        if (!verdict.reasons().isEmpty()) {
            body.append("<ul class=\"reasons\">");
            for (String reason : verdict.reasons()) {
                body.append("<li>").append(escape(reason)).append("</li>");
            }
            body.append("</ul>");
        }
        body.append("<table class=\"summary\"><tbody>");
        for (ResultWriter.Row row : ResultWriter.summaryRows(r, provenance)) {
            String value = escape(row.value());
            body.append("<tr><th scope=\"row\">").append(escape(row.name())).append("</th><td>")
                .append(row.code() ? "<code>" + value + "</code>" : value).append("</td></tr>");
        }
        body.append("</tbody></table>").append(charts(List.of(new Series(r.scenario(), 0, r))));
        return page("hotpath bench: " + r.scenario(), body);
    }

    /**
     * A comparison's page: {@code title}, the table of its runs as given, its conclusion, and the runs
     * of each side ({@code A1, A2, ...} then {@code B1, ...}) on the same charts, one colour per side.
     */
    public static String comparison(String title, List<String> header, List<List<String>> rows, String conclusion,
                                    SequencedMap<String, List<RunResult>> runsBySide) {
        List<Series> series = new ArrayList<>();
        int group = 0;
        for (var side : runsBySide.entrySet()) {
            for (int i = 0; i < side.getValue().size(); i++) {
                series.add(new Series(side.getKey() + (i + 1), group, side.getValue().get(i)));
            }
            group++;
        }
        return sections(title, List.of(new Section(null, header, rows, conclusion, series)));
    }

    /**
     * A page of several comparisons under one {@code title} (the engine suite: one section per scenario),
     * each with its own table, conclusion and set of three charts.
     */
    public static String sections(String title, List<Section> sections) {
        StringBuilder body = new StringBuilder(4096);
        body.append("<h1>").append(escape(title)).append("</h1>");
        for (Section section : sections) {
            if (section.heading() != null) {
                body.append("<h2>").append(escape(section.heading())).append("</h2>");
            }
            body.append("<table class=\"runs\"><thead><tr>");
            for (String name : section.header()) {
                body.append("<th scope=\"col\">").append(escape(name)).append("</th>");
            }
            body.append("</tr></thead><tbody>");
            for (List<String> row : section.rows()) {
                body.append("<tr>");
                for (String cell : row) {
                    body.append(cell.matches("-?[\\d.,]+|NaN") ? "<td class=\"number\">" : "<td>").append(escape(cell))
                        .append("</td>");
                }
                body.append("</tr>");
            }
            body.append("</tbody></table><p>").append(escape(section.conclusion())).append("</p>").append(charts(section.series()));
        }
        return page(title, body);
    }

    /**
     * One part of a {@link #sections} page.
     *
     * @param heading the section's title, or null for none
     * @param header the table's column names
     * @param rows the table's cells, as text; a cell that is a number is aligned right
     * @param conclusion a line under the table
     * @param series the runs on the section's charts
     */
    public record Section(String heading, List<String> header, List<List<String>> rows, String conclusion,
                          List<Series> series) {
        public Section {
            header = List.copyOf(header);
            rows = List.copyOf(rows);
            series = List.copyOf(series);
        }
    }

    /**
     * A run drawn on the charts: its legend label and its colour group (a hue per group, a shade per run
     * of the group; five hues, then they repeat).
     */
    public record Series(String label, int group, RunResult result) {
    }

    private static String page(String title, CharSequence body) {
        return "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + escape(title)
            + "</title><style>" + STYLE + "</style></head><body>" + body
            + "<p id=\"charts-status\" data-state=\"pending\">charts not drawn: they need the page's own inline script</p>"
            + "<script>" + SCRIPT + "</script></body></html>\n";
    }

    /** The three charts of {@code series}, drawn by the page's script from the JSON inside. */
    private static String charts(List<Series> series) {
        return "<div class=\"charts\"><h3>Latency by percentile</h3><div class=\"latency-chart\"></div>"
            + "<h3>Answers per second</h3><div class=\"throughput-chart\"></div>"
            + "<h3>p99 per second</h3><div class=\"p99-chart\"></div>"
            + "<script type=\"application/json\" class=\"chart-data\">" + chartData(series) + "</script></div>";
    }

    /**
     * The charts' data: per series its label, group, percentile curve as [nines, ms] and whole seconds
     * as [answers, p99 ms or null]. Every {@code <} is written as {@code \u003c}, so no string in it
     * can end the script element.
     */
    private static String chartData(List<Series> series) {
        StringWriter out = new StringWriter();
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartObject();
            json.writeArrayFieldStart("series");
            for (Series s : series) {
                json.writeStartObject();
                json.writeStringField("label", s.label());
                json.writeNumberField("group", s.group());
                json.writeArrayFieldStart("percentiles");
                Latency latency = s.result().measured().latency();
                double lastNines = Math.max(1, Math.log10(Math.max(1, latency.count())));
                for (Latency.Point point : latency.byPercentile()) {
                    double nines = point.percentile() >= 100 ? lastNines
                        : Math.min(lastNines, Math.log10(100 / (100 - point.percentile())));
                    json.writeArray(new double[] {nines, point.millis()}, 0, 2);
                }
                json.writeEndArray();
                json.writeArrayFieldStart("seconds");
                for (Tally.Second second : s.result().wholeSeconds()) {
                    json.writeStartArray();
                    json.writeNumber(second.answers());
                    if (Double.isNaN(second.p99Millis())) {
                        json.writeNull();
                    } else {
                        json.writeNumber(second.p99Millis());
                    }
                    json.writeEndArray();
                }
                json.writeEndArray();
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString().replace("<", "\\u003c");
    }

    private static String resource(String name) {
        try (InputStream in = HtmlReport.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Text as HTML text or attribute value: {@code & < > " '} escaped. */
    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;").replace("'", "&#39;");
    }
}
