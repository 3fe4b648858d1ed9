package dev.hotpath.apps.shortener.internal;

/**
 * How generated codes are made from link ids and read back: {@code ScrambledCodes} or
 * {@code SequentialCodes}, chosen once when the data directory is created (it is recorded there, and a
 * later start with the other scheme is refused, since every code would change).
 *
 * <p>Decoding is on the redirect hot path: an implementation reads the span in place and allocates
 * nothing.
 */
public interface CodeScheme {
    /** {@link #decode} of a span without the scheme's shape: it may still be an alias. */
    long NOT_SHAPED = -1;
    /** {@link #decode} of a span with the scheme's shape that no id encodes to: neither code nor alias. */
    long NOT_A_CODE = -2;

    /** How many ids have a code: ids run from 0 to one less. */
    long capacity();

    /** The code of link {@code id}. */
    String encode(long id);

    /** The id {@code code} stands for, {@link #NOT_SHAPED} or {@link #NOT_A_CODE}. */
    long decode(CodeSpan code);

    /** Whether {@code code} has the shape of a generated code, so an alias may not take it. */
    boolean hasShape(CodeSpan code);

    /** The sentence that refuses an alias of this scheme's shape, telling the client how to change it. */
    String aliasShapeRefusal();
}
