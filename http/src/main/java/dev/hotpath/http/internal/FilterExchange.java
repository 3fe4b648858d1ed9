package dev.hotpath.http.internal;

import dev.hotpath.http.Exchange;
import dev.hotpath.http.Filter;
import dev.hotpath.http.HeaderName;
import dev.hotpath.http.Method;
import dev.hotpath.http.Request;
import dev.hotpath.http.Response;
import java.util.Arrays;

/**
 * The {@link Exchange} of a request that runs through a filter chain. One per event loop, reused for
 * every such request: starting one copies the path (tens of bytes) and nothing else, so a chained
 * request allocates nothing once the header buffer has grown. An async answer takes a {@link #copy()},
 * which travels with its {@link PendingResponse} until it is written; {@link #finish} then hands the
 * copy back to the loop's exchange, which keeps up to {@link #SPARE_COPIES} of them for the next
 * copies, their arrays grown as needed. So an async answer through a chain allocates no exchange
 * either, once the loop has as many spares as it has answers outstanding; a copy was about 150 bytes,
 * a third of what a create on SQLite left behind (docs/ENGINES.md).
 *
 * <p>The added headers are kept as wire bytes ({@code Name: value\r\n}), ready to be written after the
 * status line. Confined to the loop's thread (a copy is read on the loop too).
 */
final class FilterExchange implements Exchange {
    /**
     * How many finished copies a loop keeps. A copy is taken for each async answer outstanding on the
     * loop, so this and {@link #SPARE_BYTES} bound what a burst of them leaves resident: at most some
     * 160 KB a loop.
     */
    static final int SPARE_COPIES = 256;
    /** A finished copy whose arrays hold more (a long path, many added headers) is not kept. */
    static final int SPARE_BYTES = 512;

    private Request request;
    private Method method;
    private byte[] path;
    private int pathLength;
    private byte[] headers;
    private int headersLength;
    private long startedNanos;
    private int status;
    /** The loop's instances of the chain, in chain order. */
    private Filter[] filters;
    /** How many filters' {@code before} ran: those get {@code after}. */
    private int entered;
    /** The loop's exchange, which a copy goes back to once finished; null for the loop's own. */
    private final FilterExchange owner;
    /** The loop's exchange: its first spare copy; a spare: the next one. */
    private FilterExchange nextSpare;
    /** The loop's exchange: how many spares it keeps now. */
    private int spares;

    FilterExchange(int maxPathBytes) {
        this.path = new byte[maxPathBytes];
        this.headers = new byte[256];
        this.owner = null;
    }

    private FilterExchange(FilterExchange owner, byte[] path, byte[] headers) {
        this.owner = owner;
        this.path = path;
        this.headers = headers;
    }

    /** Starts the exchange of {@code head} through {@code filters}. */
    void begin(RequestHead head, Filter[] filters, long nanos) {
        this.request = head;
        this.method = head.method();
        this.filters = filters;
        this.entered = 0;
        this.status = 0;
        this.headersLength = 0;
        this.startedNanos = nanos;
        if (head.pathEnd == head.pathStart) {
            path[0] = '/';
            pathLength = 1;
        } else {
            pathLength = head.pathEnd - head.pathStart;
            System.arraycopy(head.bytes, head.pathStart, path, 0, pathLength);
        }
    }

    /**
     * Runs the filters' {@code before} in order until one answers; returns that answer, or null when
     * every filter let the request through. An exception propagates, after counting its filter as entered.
     */
    Response runBefore() {
        while (entered < filters.length) {
            Response answer = filters[entered++].before(this);
            if (answer != null) {
                return answer;
            }
        }
        return null;
    }

    /**
     * The answer with {@code status} was written: runs {@code after} of every entered filter, last first.
     * A copy is then the loop's spare again, so nothing may use it after this; finished twice, it would
     * be handed out twice, so that is refused.
     */
    void finish(int status) {
        if (owner != null && filters == null) {
            throw new IllegalStateException("an exchange copy finished twice");
        }
        this.status = status;
        for (int i = entered - 1; i >= 0; i--) {
            try {
                filters[i].after(this);
            } catch (RuntimeException e) {
                System.getLogger(FilterExchange.class.getName()).log(System.Logger.Level.ERROR,
                    "filter " + filters[i].getClass().getName() + " failed after the answer", e);
            }
        }
        request = null;
        if (owner != null) {
            owner.keepSpare(this);
        }
    }

    /**
     * A copy for an answer that comes later: without the request, which is gone by then. A spare when
     * the loop has one whose arrays are long enough, grown otherwise; a new one when it has none.
     */
    FilterExchange copy() {
        FilterExchange copy = nextSpare;
        if (copy == null) {
            copy = new FilterExchange(this, new byte[pathLength], new byte[headersLength]);
        } else {
            nextSpare = copy.nextSpare;
            copy.nextSpare = null;
            spares--;
            if (copy.path.length < pathLength) {
                copy.path = new byte[pathLength];
            }
            if (copy.headers.length < headersLength) {
                copy.headers = new byte[headersLength];
            }
        }
        System.arraycopy(path, 0, copy.path, 0, pathLength);
        System.arraycopy(headers, 0, copy.headers, 0, headersLength);
        copy.method = method;
        copy.pathLength = pathLength;
        copy.headersLength = headersLength;
        copy.startedNanos = startedNanos;
        copy.filters = filters;
        copy.entered = entered;
        copy.status = 0;
        return copy;
    }

    /** Keeps a finished copy for the next, unless the loop already keeps its share or the copy is too large. */
    private void keepSpare(FilterExchange copy) {
        copy.filters = null;
        if (spares < SPARE_COPIES && copy.path.length + copy.headers.length <= SPARE_BYTES) {
            copy.nextSpare = nextSpare;
            nextSpare = copy;
            spares++;
        }
    }

    byte[] headerBytes() {
        return headers;
    }

    int headerLength() {
        return headersLength;
    }

    @Override
    public Request request() {
        return request;
    }

    @Override
    public Method method() {
        return method;
    }

    @Override
    public int pathLength() {
        return pathLength;
    }

    @Override
    public int copyPath(byte[] into, int offset) {
        System.arraycopy(path, 0, into, offset, pathLength);
        return offset + pathLength;
    }

    @Override
    public long startedNanos() {
        return startedNanos;
    }

    @Override
    public int status() {
        return status;
    }

    @Override
    public void addResponseHeader(HeaderName name, byte[] value, int from, int to) {
        for (int i = from; i < to; i++) {
            if (!Ascii.isFieldValueChar(value[i])) {
                throw new IllegalArgumentException("invalid character in value of " + name);
            }
        }
        byte[] nameBytes = name.bytes();
        int needed = headersLength + nameBytes.length + 2 + (to - from) + 2;
        if (needed > headers.length) {
            headers = Arrays.copyOf(headers, Math.max(needed, headers.length * 2));
        }
        System.arraycopy(nameBytes, 0, headers, headersLength, nameBytes.length);
        int at = headersLength + nameBytes.length;
        headers[at++] = ':';
        headers[at++] = ' ';
        System.arraycopy(value, from, headers, at, to - from);
        at += to - from;
        headers[at++] = '\r';
        headers[at++] = '\n';
        headersLength = at;
    }

    @Override
    public int responseHeader(HeaderName name, byte[] into) {
        byte[] lowerCaseName = name.lowerCaseBytes();
        int line = 0;
        while (line < headersLength) {
            int colon = line;
            while (headers[colon] != ':') {
                colon++;
            }
            int end = colon + 2;
            while (headers[end] != '\r') {
                end++;
            }
            if (Ascii.equalsIgnoreCase(headers, line, colon, lowerCaseName)) {
                int length = end - colon - 2;
                System.arraycopy(headers, colon + 2, into, 0, Math.min(length, into.length));
                return length;
            }
            line = end + 2;
        }
        return -1;
    }
}
