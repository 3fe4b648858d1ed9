package dev.hotpath.http;

/** What a route runs: a {@link Handler} that answers at once or an {@link AsyncHandler} that answers later. */
public sealed interface RouteHandler permits Handler, AsyncHandler {
}
