package dev.hotpath.http;

import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * An ordered chain of {@link Filter}s, given to {@link Routes.Builder#filters} for the routes added
 * after it. It holds factories, not filters: the engine calls each factory once per event loop, so a
 * filter's fields are confined to one thread. A stateless filter can hand out one instance
 * ({@code () -> INSTANCE}).
 */
public final class FilterChain {
    /** No filters: the routes' handlers are called directly, as if no chain existed. */
    public static final FilterChain NONE = new FilterChain(List.of());

    private final List<Supplier<? extends Filter>> factories;

    private FilterChain(List<Supplier<? extends Filter>> factories) {
        this.factories = factories;
    }

    /** A chain running the filters in this order before the handler, and in reverse after it. */
    @SafeVarargs
    public static FilterChain of(Supplier<? extends Filter>... factories) {
        for (Supplier<? extends Filter> factory : factories) {
            Objects.requireNonNull(factory, "filter factory");
        }
        return new FilterChain(List.of(factories));
    }

    /** The factories, in chain order. */
    public List<Supplier<? extends Filter>> factories() {
        return factories;
    }

    public boolean isEmpty() {
        return factories.isEmpty();
    }

    /** One new filter of each factory, in chain order: a loop's own instances. */
    public Filter[] instantiate() {
        Filter[] filters = new Filter[factories.size()];
        for (int i = 0; i < filters.length; i++) {
            filters[i] = Objects.requireNonNull(factories.get(i).get(), "a filter factory returned null");
        }
        return filters;
    }
}
