package dev.hotpath.apps.messages.internal;

import dev.hotpath.http.HeaderName;
import dev.hotpath.http.Method;
import dev.hotpath.http.Request;
import java.nio.charset.StandardCharsets;

/** A {@code POST /message} with a JSON body and no headers, answered canned for a handler called directly. */
record StubRequest(String body) implements Request {
    @Override
    public Method method() {
        return Method.POST;
    }

    @Override
    public boolean isHttp10() {
        return false;
    }

    @Override
    public String path() {
        return "/message";
    }

    @Override
    public String query() {
        return null;
    }

    @Override
    public int queryLength() {
        return -1;
    }

    @Override
    public byte queryByte(int offset) {
        throw new IndexOutOfBoundsException(offset);
    }

    @Override
    public int pathParamCount() {
        return 0;
    }

    @Override
    public String pathParam(int index) {
        throw new IndexOutOfBoundsException(index);
    }

    @Override
    public int pathParamLength(int index) {
        throw new IndexOutOfBoundsException(index);
    }

    @Override
    public byte pathParamByte(int index, int offset) {
        throw new IndexOutOfBoundsException(index);
    }

    @Override
    public String header(HeaderName name) {
        return null;
    }

    /** No header, so no declared type. */
    @Override
    public boolean declaresJsonOrNothing() {
        return true;
    }

    @Override
    public int bodyLength() {
        return bodyBytes().length;
    }

    @Override
    public byte[] bodyBytes() {
        return body.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void copyBody(byte[] into) {
        byte[] bytes = bodyBytes();
        System.arraycopy(bytes, 0, into, 0, bytes.length);
    }
}
