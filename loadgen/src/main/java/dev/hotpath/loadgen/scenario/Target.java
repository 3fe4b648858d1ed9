package dev.hotpath.loadgen.scenario;

import dev.hotpath.loadgen.RunConfig;

/** The server a scenario talks to, as the {@code Host} header and base URL name it. */
record Target(String host, int port) {
    static Target of(RunConfig config) {
        return new Target(config.host(), config.port());
    }

    String authority() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    String baseUrl() {
        return "http://" + authority();
    }
}
