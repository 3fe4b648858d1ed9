package dev.hotpath.apps.users.internal;

/** UTF-8 as RFC 3629 has it, checked where the users app reads bytes as text: a request's body, a row's columns. */
final class Utf8 {
    private Utf8() {
    }

    /**
     * The length of the UTF-8 sequence that starts at {@code bytes[start]} and ends before
     * {@code end}, or -1 where none does: a stray continuation byte, a lead byte no sequence has, a
     * sequence cut short, an overlong form, a surrogate or a code point past U+10FFFF. An ASCII byte
     * is a sequence of one.
     */
    static int sequenceLength(byte[] bytes, int start, int end) {
        int lead = bytes[start] & 0xFF;
        int length;
        int low = 0x80;
        int high = 0xBF;
        if (lead < 0x80) {
            return 1;
        } else if (lead >= 0xC2 && lead <= 0xDF) {
            length = 2;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            length = 3;
            low = lead == 0xE0 ? 0xA0 : 0x80;
            high = lead == 0xED ? 0x9F : 0xBF;
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            length = 4;
            low = lead == 0xF0 ? 0x90 : 0x80;
            high = lead == 0xF4 ? 0x8F : 0xBF;
        } else {
            return -1;
        }
        if (start + length > end) {
            return -1;
        }
        for (int i = 1; i < length; i++) {
            int b = bytes[start + i] & 0xFF;
            if (b < (i == 1 ? low : 0x80) || b > (i == 1 ? high : 0xBF)) {
                return -1;
            }
        }
        return length;
    }
}
