package dev.hotpath.apps.messages.internal;

/** A valid {@code POST /message} body: the three strings, checked by {@link MessageRequests}. */
public record NewMessage(String from, String to, String message) {
}
