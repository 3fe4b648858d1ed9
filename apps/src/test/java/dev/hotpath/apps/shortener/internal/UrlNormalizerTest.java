package dev.hotpath.apps.shortener.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UrlNormalizerTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "https://example.com/a?b=c                | https://example.com/a?b=c",
        "HTTPS://Example.COM/Path                 | https://example.com/Path",
        "http://example.com                       | http://example.com/",
        "http://example.com?q=1                   | http://example.com/?q=1",
        "http://example.com#frag                  | http://example.com/#frag",
        "http://example.com:80/x                  | http://example.com/x",
        "https://example.com:443/x                | https://example.com/x",
        "http://example.com:443/x                 | http://example.com:443/x",
        "https://example.com:8443                 | https://example.com:8443/",
        "http://example.com:/x                    | http://example.com/x",
        "https://bücher.example/straße?q=ü        | https://xn--bcher-kva.example/stra%C3%9Fe?q=%C3%BC",
        "https://example.com/caf%c3%a9            | https://example.com/caf%c3%a9",
        "https://example.com/emoji/😀             | https://example.com/emoji/%F0%9F%98%80",
        "https://[2001:DB8::1]:8080/x             | https://[2001:db8::1]:8080/x",
        "https://example.com./x                   | https://example.com/x",
        "https://example.com/a{b}c^d~             | https://example.com/a{b}c^d~",
    })
    void normalizes(String url, String expected) {
        assertThat(UrlNormalizer.normalize(url)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "example.com/a                      | absolute",
        "/relative                          | absolute",
        "ftp://example.com/                 | only http and https",
        "javascript://alert(1)              | only http and https",
        "https://user:pw@example.com/       | userinfo",
        "https://@example.com/              | userinfo",
        "https:///path                      | no host",
        "https://exa mple.com/              | whitespace",
        "https://example.com/a\\b           | backslash",
        "https://example.com:99999/         | invalid port",
        "https://example.com:0/             | invalid port",
        "https://example.com:8x/            | invalid port",
        "https://example.com/%zz            | incomplete percent escape",
        "https://example.com/%4             | incomplete percent escape",
        "https://exa_mple.com/              | invalid host name",
        "https://a..b/                      | invalid host name",
        "https://[::1/                      | unterminated IPv6",
        "https://[zz::1]/                   | invalid IPv6",
    })
    void rejects(String url, String reason) {
        assertThatThrownBy(() -> UrlNormalizer.normalize(url)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining(reason);
    }

    @org.junit.jupiter.api.Test
    void rejectsControlCharactersIncludingCrAndLfSoNoLocationCanBeSplit() {
        for (String url : new String[] {"https://example.com/a\r\nSet-Cookie: x=1", "https://example.com/\u0000",
            "https://example.com/\u0085", "https://example.com/\u2028", "https://example.com/a\tb"}) {
            assertThatThrownBy(() -> UrlNormalizer.normalize(url)).hasMessageContaining("control character");
        }
    }

    @org.junit.jupiter.api.Test
    void refusesAUrlLongerThanTheLimitAfterNormalization() {
        String base = "https://example.com/";
        assertThat(UrlNormalizer.normalize(base + "a".repeat(UrlNormalizer.MAX_LENGTH - base.length()))).hasSize(4096);
        assertThatThrownBy(() -> UrlNormalizer.normalize(base + "a".repeat(UrlNormalizer.MAX_LENGTH - base.length() + 1)))
            .hasMessageContaining("longer than 4096");
        assertThatThrownBy(() -> UrlNormalizer.normalize(base + "é".repeat(1400))).hasMessageContaining("longer than 4096");
    }

    @org.junit.jupiter.api.Test
    void takesTheFastPathExactlyForTheAsciiHostsIdnWouldLeaveAsTheyAre() {
        for (String host : new String[] {"example.com", "EXAMPLE.com", "a-b.c", "-ab.c", "ab-.c", "a..b", ".a", "a.",
            "x".repeat(63) + ".com", "x".repeat(64) + ".com", "a_b.com", "1.2.3.4", "b\u00fccher.example", "a"}) {
            String viaIdn;
            try {
                viaIdn = java.net.IDN.toASCII(host, java.net.IDN.USE_STD3_ASCII_RULES).toLowerCase(java.util.Locale.ROOT);
            } catch (IllegalArgumentException e) {
                viaIdn = null;
            }
            boolean plainAndValid = UrlNormalizer.isPlainAsciiHost(host);
            boolean idnKeepsItAsIs = host.toLowerCase(java.util.Locale.ROOT).equals(viaIdn)
                && host.chars().allMatch(c -> c < 0x80);
            assertThat(plainAndValid).as(host).isEqualTo(idnKeepsItAsIs);
        }
    }

    @org.junit.jupiter.api.Test
    void findsTheHostOfANormalizedUrl() {
        assertThat(UrlNormalizer.hostOf("https://xn--bcher-kva.example:8443/a")).isEqualTo("xn--bcher-kva.example");
        assertThat(UrlNormalizer.hostOf("https://[2001:db8::1]:8080/x")).isEqualTo("[2001:db8::1]");
    }
}
