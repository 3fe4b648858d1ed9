package dev.hotpath.apps.shortener.internal;

/** Read access to the bytes of a candidate code, wherever they are (a request path, a string). */
public interface CodeSpan {
    int length();

    byte byteAt(int index);

    /** A span over a string's low bytes; for tests and for codes that arrive as JSON. */
    static CodeSpan of(String s) {
        return new CodeSpan() {
            @Override
            public int length() {
                return s.length();
            }

            @Override
            public byte byteAt(int index) {
                char c = s.charAt(index);
                return c > 0xFF ? (byte) 0 : (byte) c;
            }
        };
    }
}
