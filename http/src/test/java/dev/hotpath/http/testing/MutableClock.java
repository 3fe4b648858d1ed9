package dev.hotpath.http.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock that moves only when a test says so: deadline tests advance it instead of sleeping. */
public final class MutableClock extends Clock {
    private volatile long millis;

    public MutableClock(Instant start) {
        this.millis = start.toEpochMilli();
    }

    public void advance(Duration by) {
        millis += by.toMillis();
    }

    @Override
    public long millis() {
        return millis;
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("UTC only");
    }
}
