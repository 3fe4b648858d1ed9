package dev.hotpath.http.testing;

import java.util.Random;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Checks a property over generated inputs, the same ones on every run: case {@code i} draws from a
 * {@link Random} seeded with {@code seed + i}, so a failure names the one case to replay, and its
 * message carries the input that failed. Plain JUnit, no property-testing engine; what that costs is
 * shrinking, so generators keep inputs small.
 */
public final class SeededCases {
    private SeededCases() {
    }

    /**
     * Runs {@code property} on {@code cases} inputs made by {@code generator}.
     *
     * @param show renders a failing input for the assertion message
     */
    public static <T> void check(long seed, int cases, Function<Random, T> generator, Function<T, String> show,
                          Consumer<T> property) {
        for (int i = 0; i < cases; i++) {
            T input = generator.apply(new Random(seed + i));
            try {
                property.accept(input);
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError("case " + i + " (seed " + seed + " + " + i + ") failed: " + e.getMessage()
                    + "\ninput: " + show.apply(input), e);
            }
        }
    }
}
