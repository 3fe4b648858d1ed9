package dev.hotpath.http.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A blocking HTTP/1.1 client over a plain socket that sends exactly the bytes a test gives it and
 * parses responses strictly (status line, fields, {@code Content-Length} body). Tests use it to speak
 * malformed HTTP on purpose and to see exactly what the server wrote. The read timeout is a safety net
 * against a hung test, never a synchronization.
 */
public final class RawHttpClient implements AutoCloseable {
    private static final int SAFETY_TIMEOUT_MS = 20_000;

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    private RawHttpClient(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new java.io.BufferedInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    public static RawHttpClient connect(int port) {
        try {
            Socket socket = new Socket();
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(SAFETY_TIMEOUT_MS);
            socket.connect(new InetSocketAddress("127.0.0.1", port), SAFETY_TIMEOUT_MS);
            return new RawHttpClient(socket);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public RawHttpClient send(String ascii) {
        return send(ascii.getBytes(StandardCharsets.ISO_8859_1));
    }

    public RawHttpClient send(byte[] bytes) {
        try {
            out.write(bytes);
            out.flush();
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Half-closes: sends FIN (SHUT_WR) after what was sent, and can still read what the server answers. */
    public RawHttpClient shutdownOutput() {
        try {
            socket.shutdownOutput();
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads one response to a request that was not HEAD. */
    public RawResponse read() {
        return read(false);
    }

    /** Reads one response; a response to HEAD (or a 1xx, 204) has no body whatever its headers say. */
    public RawResponse read(boolean headRequest) {
        try {
            String statusLine = readLine();
            if (statusLine == null) {
                throw new AssertionError("connection closed before a response");
            }
            if (!statusLine.startsWith("HTTP/1.1 ") || statusLine.length() < 12) {
                throw new AssertionError("bad status line: " + statusLine);
            }
            int status = Integer.parseInt(statusLine.substring(9, 12));
            Map<String, List<String>> headers = new LinkedHashMap<>();
            String line;
            while (!(line = readLine()).isEmpty()) {
                int colon = line.indexOf(':');
                headers.computeIfAbsent(line.substring(0, colon).toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                    .add(line.substring(colon + 1).trim());
            }
            byte[] body = new byte[0];
            List<String> length = headers.get("content-length");
            if (!headRequest && status >= 200 && status != 204 && length != null) {
                body = in.readNBytes(Integer.parseInt(length.getFirst()));
            }
            return new RawResponse(status, headers, body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether the server closed the connection: the next read sees end of stream (or a reset). */
    public boolean closedByServer() {
        try {
            return in.read() < 0;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    /** Whether bytes are waiting to be read right now, without blocking. */
    public boolean hasBufferedBytes() {
        try {
            return in.available() > 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String readLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0) {
            if (b == '\n') {
                byte[] bytes = line.toByteArray();
                if (bytes.length == 0 || bytes[bytes.length - 1] != '\r') {
                    throw new AssertionError("server sent a line without CR: " + line);
                }
                return new String(bytes, 0, bytes.length - 1, StandardCharsets.ISO_8859_1);
            }
            line.write(b);
        }
        return line.size() == 0 ? null : line.toString(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
