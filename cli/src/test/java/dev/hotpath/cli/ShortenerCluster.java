package dev.hotpath.cli;

import dev.hotpath.store.testing.ThrowawayNginx;
import dev.hotpath.store.testing.ThrowawayPostgres;
import dev.hotpath.store.testing.ThrowawayRedis;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The scale-out shortener as processes, for the cluster ITs: a throwaway PostgreSQL and Redis of its
 * own, write and read nodes ({@code hotpath serve shortener --store --cache --role}, each its own JVM
 * from the fat jar), and a throwaway nginx in front running {@code docs/nginx.conf} as
 * {@code bench/shortener/nginx-conf.sh} renders it, the renderer the local cluster script uses: the
 * configuration tested is the one documented.
 *
 * <p>The first write node starts alone (it migrates the schema and writes the first API key to
 * {@code api-key} in the test's dir), the others together after it. With no read node the write
 * nodes answer the redirects too. Everything is stopped by {@link #close()}: the nodes by PID
 * ({@code kill -9}; nothing in them needs a clean stop), then nginx, Redis and PostgreSQL.
 */
final class ShortenerCluster implements AutoCloseable {
    /** One node: its process and the port it listens on. */
    record Node(String name, ServerProcess process, int port) {
        String address() {
            return "127.0.0.1:" + port;
        }
    }

    private final Path dir;
    private final ThrowawayPostgres postgres;
    private final ThrowawayRedis redis;
    private final List<Node> writes = new ArrayList<>();
    private final List<Node> reads = new ArrayList<>();
    private final List<ServerProcess> started = new ArrayList<>();
    private ThrowawayNginx nginx;

    private ShortenerCluster(Path dir) {
        this.dir = dir;
        this.postgres = ThrowawayPostgres.launch();
        ThrowawayRedis launched;
        try {
            launched = ThrowawayRedis.launch();
        } catch (RuntimeException e) {
            postgres.close();
            throw e;
        }
        this.redis = launched;
    }

    /** A running cluster of {@code writeNodes} (at least 1) and {@code readNodes} behind nginx; logs in {@code dir}. */
    static ShortenerCluster start(Path dir, int writeNodes, int readNodes) throws IOException {
        ShortenerCluster cluster = new ShortenerCluster(dir);
        try {
            cluster.writes.add(cluster.awaitNode(cluster.launchNode("write1", "write")));
            List<PendingNode> pending = new ArrayList<>();
            for (int i = 2; i <= writeNodes; i++) {
                pending.add(cluster.launchNode("write" + i, "write"));
            }
            for (int i = 1; i <= readNodes; i++) {
                pending.add(cluster.launchNode("read" + i, "read"));
            }
            for (PendingNode node : pending) {
                (node.role.equals("write") ? cluster.writes : cluster.reads).add(cluster.awaitNode(node));
            }
            List<String> readAddresses = (readNodes == 0 ? cluster.writes : cluster.reads).stream().map(Node::address).toList();
            List<String> writeAddresses = cluster.writes.stream().map(Node::address).toList();
            cluster.nginx = ThrowawayNginx.launch(port -> renderNginxConf("127.0.0.1:" + port, readAddresses, writeAddresses));
            return cluster;
        } catch (IOException | RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
    }

    private record PendingNode(String name, String role, ServerProcess process) {
    }

    private PendingNode launchNode(String name, String role) throws IOException {
        ServerProcess process = ServerProcess.start(dir.resolve(name + ".log"), "shortener", "--bind", "127.0.0.1:0",
            "--store", postgres.uri(), "--cache", redis.uri(), "--role", role, "--key-file", dir.resolve("api-key").toString());
        started.add(process);
        return new PendingNode(name, role, process);
    }

    private Node awaitNode(PendingNode node) throws IOException {
        return new Node(node.name, node.process, node.process.awaitPort());
    }

    /** Starts another node of {@code role} ({@code write} or {@code read}) outside nginx's upstreams, e.g. after a kill. */
    Node startNode(String name, String role) throws IOException {
        return awaitNode(launchNode(name, role));
    }

    List<Node> writeNodes() {
        return writes;
    }

    List<Node> readNodes() {
        return reads;
    }

    ThrowawayNginx nginx() {
        return nginx;
    }

    /** The API key the first write node created. */
    String apiKey() throws IOException {
        return Files.readString(dir.resolve("api-key")).strip();
    }

    /** Where the first write node wrote the API key, for {@code hotpath bench --key-file}. */
    Path apiKeyFile() {
        return dir.resolve("api-key");
    }

    @Override
    public void close() {
        for (ServerProcess process : started) {
            process.close();
        }
        if (nginx != null) {
            nginx.close();
        }
        redis.close();
        postgres.close();
    }

    /**
     * {@code docs/nginx.conf} for this cluster, rendered by {@code bench/shortener/nginx-conf.sh} (run
     * with bash from the repository root the build names in {@code hotpath.root}).
     */
    static String renderNginxConf(String listen, List<String> reads, List<String> writes) {
        Path script = Path.of(System.getProperty("hotpath.root"), "bench", "shortener", "nginx-conf.sh");
        try {
            Process render = new ProcessBuilder("bash", script.toString(), listen, String.join(",", reads),
                String.join(",", writes)).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            String config = new String(render.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!render.waitFor(30, TimeUnit.SECONDS) || render.exitValue() != 0) {
                throw new IllegalStateException(script + " failed to render the nginx configuration");
            }
            return config;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + script, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted rendering the nginx configuration", e);
        }
    }
}
