package dev.hotpath.apps.shortener.internal;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Admits creates before they are queued, so that a refusal is answered at once and two requests in
 * flight cannot take the same alias or pass {@code --max-links} together: each admitted link holds a
 * claim on its name and a place within capacity until it is stored (the place then counts in the
 * table's size) or given up. Every admitted link must end in exactly one of {@link #stored} or
 * {@link #release}. Thread-safe; costs an atomic add and, for named links, a set insert.
 */
final class CreateAdmission {
    private final LinkTable table;
    private final int maxLinks;
    private final AtomicInteger inFlight = new AtomicInteger();

    CreateAdmission(LinkTable table, int maxLinks) {
        this.table = table;
        this.maxLinks = maxLinks;
    }

    /** Claims the link's name and a place; the refusal, or null when admitted. */
    Errors.Refusal admit(NewLink link) {
        if (link.name() != null && !table.claimName(link.name())) {
            return Errors.ALIAS_TAKEN;
        }
        if (inFlight.incrementAndGet() + table.size() > maxLinks) {
            inFlight.decrementAndGet();
            releaseName(link);
            return Errors.CAPACITY_FULL;
        }
        return null;
    }

    /** The links are stored and published: their places are in the table now. */
    void stored(List<NewLink> links) {
        inFlight.addAndGet(-links.size());
    }

    /** The links will not be stored: their names and places are free again. */
    void release(List<NewLink> links) {
        for (NewLink link : links) {
            inFlight.decrementAndGet();
            releaseName(link);
        }
    }

    private void releaseName(NewLink link) {
        if (link.name() != null) {
            table.releaseName(link.name());
        }
    }
}
