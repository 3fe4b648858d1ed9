package dev.hotpath.loadgen.scenario;

import java.nio.charset.StandardCharsets;

/** Request bytes the scenarios write: built once where they are fixed, per request where they vary. */
final class Requests {
    private Requests() {
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    static String text(byte[] ascii) {
        return new String(ascii, StandardCharsets.US_ASCII);
    }

    /** The head of a GET up to the path: the path and the rest follow. */
    static byte[] getPrefix() {
        return ascii("GET ");
    }

    /** What follows the path of a GET: version, Host, empty line. */
    static byte[] getSuffix(Target target) {
        return ascii(" HTTP/1.1\r\nHost: " + target.authority() + "\r\n\r\n");
    }

    /** What follows the path of an authenticated GET: version, Host, {@code Authorization: Bearer}, empty line. */
    static byte[] getSuffix(Target target, String bearerToken) {
        return ascii(" HTTP/1.1\r\nHost: " + target.authority() + "\r\nAuthorization: Bearer " + bearerToken + "\r\n\r\n");
    }

    /** A whole POST with a JSON body. */
    static byte[] postJson(Target target, String path, String apiKey, String json) {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        String head = "POST " + path + " HTTP/1.1\r\nHost: " + target.authority()
            + "\r\nContent-Type: application/json\r\nAuthorization: Bearer " + apiKey
            + "\r\nContent-Length: " + body.length + "\r\n\r\n";
        byte[] headBytes = ascii(head);
        byte[] all = new byte[headBytes.length + body.length];
        System.arraycopy(headBytes, 0, all, 0, headBytes.length);
        System.arraycopy(body, 0, all, headBytes.length, body.length);
        return all;
    }
}
