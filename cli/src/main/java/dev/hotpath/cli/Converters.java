package dev.hotpath.cli;

import dev.hotpath.loadgen.scenario.SocialScenario;
import dev.hotpath.store.Durability;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Command-line value parsers that answer a bad value with one clear sentence. */
final class Converters {
    private Converters() {
    }

    /** {@code host:port} or {@code [v6]:port}; port 0 picks a free one. */
    static final class HostPort implements ITypeConverter<InetSocketAddress> {
        @Override
        public InetSocketAddress convert(String value) {
            int colon = value.lastIndexOf(':');
            if (colon <= 0 || colon == value.length() - 1) {
                throw new TypeConversionException("expected host:port, got '" + value + "'");
            }
            String host = value.substring(0, colon);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            int port;
            try {
                port = Integer.parseInt(value.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new TypeConversionException("invalid port in '" + value + "'");
            }
            if (port < 0 || port > 65_535) {
                throw new TypeConversionException("port out of range in '" + value + "'");
            }
            return new InetSocketAddress(host, port);
        }
    }

    /** A social mix as {@code realistic} or {@code write-heavy}. */
    static final class SocialMix implements ITypeConverter<SocialScenario.Mix> {
        @Override
        public SocialScenario.Mix convert(String value) {
            for (SocialScenario.Mix mix : SocialScenario.Mix.values()) {
                if (mix.label().equals(value)) {
                    return mix;
                }
            }
            throw new TypeConversionException("expected realistic or write-heavy, got '" + value + "'");
        }
    }

    /** A duration as {@code 250ms}, {@code 5s}, {@code 2m} or {@code 24h}. */
    static final class Span implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            try {
                if (value.endsWith("ms")) {
                    return positive(Duration.ofMillis(Long.parseLong(value.substring(0, value.length() - 2))), value);
                }
                if (value.endsWith("s")) {
                    return positive(Duration.ofSeconds(Long.parseLong(value.substring(0, value.length() - 1))), value);
                }
                if (value.endsWith("m")) {
                    return positive(Duration.ofMinutes(Long.parseLong(value.substring(0, value.length() - 1))), value);
                }
                if (value.endsWith("h")) {
                    return positive(Duration.ofHours(Long.parseLong(value.substring(0, value.length() - 1))), value);
                }
            } catch (NumberFormatException e) {
                // answered below
            }
            throw new TypeConversionException("expected a duration such as 250ms, 5s or 2m (or hours: 24h), got '" + value + "'");
        }

        private static Duration positive(Duration d, String value) {
            if (d.isNegative() || d.isZero()) {
                throw new TypeConversionException("duration must be positive, got '" + value + "'");
            }
            return d;
        }
    }

    /** {@code full}, {@code normal} or {@code none}, in any case. */
    static final class DurabilityMode implements ITypeConverter<Durability> {
        @Override
        public Durability convert(String value) {
            try {
                return Durability.valueOf(value.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("--durability must be full, normal or none, was '" + value + "'");
            }
        }
    }
}
