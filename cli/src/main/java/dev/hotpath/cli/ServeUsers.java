package dev.hotpath.cli;

import dev.hotpath.apps.App;
import dev.hotpath.apps.users.UsersApp;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import picocli.CommandLine.Command;

/** {@code hotpath serve users}: the engine-comparison endpoints; no flags beyond the engine's. */
@Command(name = "users", mixinStandardHelpOptions = true,
    description = "The engine-comparison app: GET /ping, POST /echo.")
final class ServeUsers extends AppCommand {
    @Override
    App open(InetSocketAddress bind, PrometheusRegistry metrics, PrintWriter out) {
        return new UsersApp(metrics);
    }
}
