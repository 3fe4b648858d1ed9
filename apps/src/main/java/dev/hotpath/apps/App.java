package dev.hotpath.apps;

import dev.hotpath.http.Routes;

/**
 * One app that {@code hotpath serve} runs on the engine: the shortener, social, users. The command
 * line opens it with the app's own options, serves its {@link #routes()}, and on SIGTERM or SIGINT
 * walks it through the same three steps whatever the app:
 *
 * <ol>
 *   <li>{@link #beginDrain()}: the app's readiness turns false ({@code /ready} answers 503 where its
 *       contract has one) so a balancer stops sending, while requests keep being answered;</li>
 *   <li>the engine stops accepting and finishes the requests in flight;</li>
 *   <li>{@link #close()}: the app commits what its writer still holds and releases its files.</li>
 * </ol>
 *
 * <p>An app never starts a server itself and never reads the process's arguments or environment: all
 * it needs arrives in its config, so a test opens it exactly as {@code serve} does.
 */
public interface App extends AutoCloseable {
    /** The routes the engine serves; called once, before the server starts. */
    Routes routes();

    /**
     * Readiness false from now on, where the app has a readiness endpoint; requests in flight and new
     * ones are still answered.
     */
    void beginDrain();

    /** Commits what is queued and releases the app's resources; call after the server has drained. */
    @Override
    void close();
}
