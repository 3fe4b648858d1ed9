package dev.hotpath.http;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * {@code GET /metrics}: the registry in the Prometheus text format (version 0.0.4). A scrape gathers
 * the per-loop counters and allocates its output; requests themselves never touch the registry.
 */
public final class MetricsEndpoint implements Handler {
    private final PrometheusRegistry registry;
    private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();

    public MetricsEndpoint(PrometheusRegistry registry) {
        this.registry = registry;
    }

    @Override
    public Response handle(Request request) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
        try {
            writer.write(out, registry.scrape(), io.prometheus.metrics.config.EscapingScheme.UNDERSCORE_ESCAPING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Response.builder(200).header("Cache-Control", "no-store")
            .body(PrometheusTextFormatWriter.CONTENT_TYPE, out.toByteArray());
    }
}
