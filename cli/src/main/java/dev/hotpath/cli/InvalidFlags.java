package dev.hotpath.cli;

/**
 * A command line refused once its flags were read: a value out of range, flags that exclude each other.
 * {@link Main} answers it as it answers a line picocli refuses (one line, status 2), on either path that
 * reads {@code serve}'s flags ({@link ServeFlags}). Code on {@code serve}'s path throws this rather than
 * picocli's {@code ParameterException}, which needs picocli's command line in hand, and so picocli loaded.
 */
final class InvalidFlags extends RuntimeException {
    InvalidFlags(String message) {
        super(message, null, false, false);
    }
}
