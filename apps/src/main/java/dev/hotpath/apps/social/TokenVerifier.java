package dev.hotpath.apps.social;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.hotpath.http.BearerToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Checks the challenge's bearer tokens on every request (the rules forbid remembering a
 * verification): {@code Bearer <JWT>}, HS256 only, signature compared in constant time, {@code exp}
 * after now, {@code nbf} (when present) not after now (RFC 7519 §4.1.5), then a payload whose {@code sub} is a positive integer in a string and whose
 * {@code username} is a string. Each answer maps to one of the contract's three 401 messages.
 *
 * <p>One {@link Mac} per thread (event loops), initialized once; a verification costs two small
 * base64 decodes, one HMAC and two tiny JSON parses.
 */
public final class TokenVerifier {
    private static final JsonFactory JSON = new JsonFactory();
    private static final Base64.Decoder BASE64URL = Base64.getUrlDecoder();
    private static final int SIGNATURE_BYTES = 32;
    /**
     * The header segment every common JWT library writes for HS256; a token that carries exactly it
     * skips decoding and parsing its header (TokenVerifierBenchmark). Any other header is parsed.
     */
    private static final String CANONICAL_HEADER = Base64.getUrlEncoder().withoutPadding()
        .encodeToString("{\"alg\":\"HS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));

    /** Why a token was refused, with the contract's message. */
    public enum Refusal {
        MISSING("missing bearer token"),
        INVALID("invalid or expired token"),
        BAD_PAYLOAD("invalid token payload");

        private final String message;

        Refusal(String message) {
            this.message = message;
        }

        public String message() {
            return message;
        }
    }

    /** The outcome: a user, or the refusal (exactly one is set). */
    public record Result(long userId, String username, Refusal refusal) {
        static Result refused(Refusal refusal) {
            return new Result(0, null, refusal);
        }

        public boolean verified() {
            return refusal == null;
        }
    }

    private final ThreadLocal<Mac> macs;

    public TokenVerifier(byte[] secret) {
        SecretKeySpec key = new SecretKeySpec(secret, "HmacSHA256");
        this.macs = ThreadLocal.withInitial(() -> {
            try {
                Mac mac = Mac.getInstance("HmacSHA256");
                mac.init(key);
                return mac;
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("HmacSHA256 is not available", e);
            }
        });
    }

    /**
     * Verifies an {@code Authorization} header value (null when absent) at {@code nowSeconds}.
     */
    public Result verify(String authorization, long nowSeconds) {
        String token = BearerToken.parse(authorization);
        if (token == null) {
            return Result.refused(BearerToken.namesTheScheme(authorization) ? Refusal.INVALID : Refusal.MISSING);
        }
        int first = token.indexOf('.');
        int second = first < 0 ? -1 : token.indexOf('.', first + 1);
        if (first <= 0 || second <= first + 1 || second == token.length() - 1 || token.indexOf('.', second + 1) >= 0) {
            return Result.refused(Refusal.INVALID);
        }
        try {
            boolean canonical = first == CANONICAL_HEADER.length() && token.startsWith(CANONICAL_HEADER);
            if (!canonical && !headerIsHs256(BASE64URL.decode(token.substring(0, first)))) {
                return Result.refused(Refusal.INVALID);
            }
            byte[] signature = BASE64URL.decode(token.substring(second + 1));
            byte[] expected = macs.get().doFinal(token.substring(0, second).getBytes(StandardCharsets.US_ASCII));
            if (signature.length != SIGNATURE_BYTES || !MessageDigest.isEqual(signature, expected)) {
                return Result.refused(Refusal.INVALID);
            }
            return payload(BASE64URL.decode(token.substring(first + 1, second)), nowSeconds);
        } catch (IllegalArgumentException | IOException e) {
            return Result.refused(Refusal.INVALID); // not base64url, not JSON
        }
    }

    private static boolean headerIsHs256(byte[] header) throws IOException {
        boolean hs256 = false;
        try (JsonParser p = JSON.createParser(header)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return false;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                if (field.equals("alg")) {
                    hs256 = value == JsonToken.VALUE_STRING && p.getText().equals("HS256");
                } else {
                    p.skipChildren();
                }
            }
            return hs256 && p.nextToken() == null;
        }
    }

    private static Result payload(byte[] payload, long nowSeconds) throws IOException {
        String sub = null;
        boolean subIsString = false;
        String username = null;
        boolean usernameIsString = false;
        double exp = Double.NaN;
        double notBefore = Double.NEGATIVE_INFINITY;
        try (JsonParser p = JSON.createParser(payload)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return Result.refused(Refusal.INVALID);
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                switch (field) {
                    case "exp" -> exp = numericDate(p, value);
                    case "nbf" -> notBefore = numericDate(p, value);
                    case "sub" -> {
                        subIsString = value == JsonToken.VALUE_STRING;
                        sub = subIsString ? p.getText() : null;
                    }
                    case "username" -> {
                        usernameIsString = value == JsonToken.VALUE_STRING;
                        username = usernameIsString ? p.getText() : null;
                    }
                    default -> p.skipChildren();
                }
            }
            if (p.nextToken() != null) {
                return Result.refused(Refusal.INVALID);
            }
        }
        if (!(exp > nowSeconds && notBefore <= nowSeconds)) { // a missing exp, or either not a number, is NaN: refused
            return Result.refused(Refusal.INVALID);
        }
        long id = subIsString ? positiveInteger(sub) : -1;
        if (id < 1 || !usernameIsString) {
            return Result.refused(Refusal.BAD_PAYLOAD);
        }
        return new Result(id, username, null);
    }

    /** A NumericDate claim in seconds, fraction kept; NaN when it is not a number. */
    private static double numericDate(JsonParser p, JsonToken value) throws IOException {
        return value == JsonToken.VALUE_NUMBER_INT || value == JsonToken.VALUE_NUMBER_FLOAT ? p.getDoubleValue() : Double.NaN;
    }

    /** The value of a string of 1 to 18 decimal digits, or -1. */
    private static long positiveInteger(String s) {
        if (s.isEmpty() || s.length() > 18) {
            return -1;
        }
        long value = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }
}
