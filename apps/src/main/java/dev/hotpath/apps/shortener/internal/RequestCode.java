package dev.hotpath.apps.shortener.internal;

import dev.hotpath.http.Request;

/** The first path parameter of a request as a {@link CodeSpan}: read in place, no copy. */
record RequestCode(Request request) implements CodeSpan {
    @Override
    public int length() {
        return request.pathParamLength(0);
    }

    @Override
    public byte byteAt(int index) {
        return request.pathParamByte(0, index);
    }
}
