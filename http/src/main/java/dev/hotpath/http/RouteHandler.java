package dev.hotpath.http;

/**
 * What a route runs: a {@link Handler} that returns its answer, a {@link DirectHandler} that writes it
 * at once into a {@link Responder}, or an {@link AsyncHandler} that answers later.
 */
public sealed interface RouteHandler permits Handler, AsyncHandler, DirectHandler {
}
