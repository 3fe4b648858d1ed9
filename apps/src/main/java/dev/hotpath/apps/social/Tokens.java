package dev.hotpath.apps.social;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Mints the challenge's bearer tokens: HS256 JWTs whose payload is
 * {@code {"sub":"<id>","username":"<name>","iat":<s>,"exp":<s>}}, base64url without padding. For
 * {@code hotpath social tokens}, tests and load; the server only verifies.
 */
public final class Tokens {
    private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();
    private static final String HEADER = BASE64URL.encodeToString("{\"alg\":\"HS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));

    private final Mac mac;

    public Tokens(byte[] secret) {
        try {
            mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    /** A token for user {@code id} named {@code username}, issued at {@code iat}, valid until {@code exp} (epoch seconds). */
    public String mint(long id, String username, long iat, long exp) {
        String payload = "{\"sub\":\"" + id + "\",\"username\":" + jsonString(username) + ",\"iat\":" + iat + ",\"exp\":" + exp + "}";
        String signed = HEADER + "." + BASE64URL.encodeToString(payload.getBytes(StandardCharsets.UTF_8));
        byte[] signature = mac.doFinal(signed.getBytes(StandardCharsets.US_ASCII));
        return signed + "." + BASE64URL.encodeToString(signature);
    }

    static String jsonString(String s) {
        StringBuilder out = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
