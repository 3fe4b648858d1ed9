package dev.hotpath.apps.shortener.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The links as clients name them: from a code to a link id and back, and a link as the contract's
 * JSON object. Generated codes resolve by arithmetic ({@link CodeScheme}), aliases and protected
 * codes by a map look-up in the {@link LinkTable}.
 */
final class LinkIndex {
    /** Shortest and longest name (alias or protected code) a link can have. */
    private static final int MIN_NAME = 3;
    private static final int MAX_NAME = 64;

    private final LinkTable table;
    private final CodeScheme codes;
    private final String publicBase;

    LinkIndex(LinkTable table, CodeScheme codes, String publicBase) {
        this.table = table;
        this.codes = codes;
        this.publicBase = publicBase;
    }

    /** The link a code names, or -1. A generated code allocates nothing; a name, one string. */
    int find(CodeSpan code) {
        long id = codes.decode(code);
        if (id != CodeScheme.NOT_SHAPED) {
            return id >= 0 && id < table.size() && (table.flags((int) id) & LinkTable.NAMED) == 0 ? (int) id : -1;
        }
        String name = nameOf(code);
        return name == null ? -1 : table.findByName(name);
    }

    /** {@code code} as a link name (alias or protected code), or null when no name has its length. */
    static String nameOf(CodeSpan code) {
        int length = code.length();
        if (length < MIN_NAME || length > MAX_NAME) {
            return null;
        }
        byte[] name = new byte[length];
        for (int i = 0; i < length; i++) {
            name[i] = code.byteAt(i);
        }
        return new String(name, StandardCharsets.ISO_8859_1);
    }

    /** The code clients use for link {@code id}: its name, else its generated code. */
    String codeOf(int id) {
        String name = table.name(id);
        return name != null ? name : codes.encode(id);
    }

    /** Writes link {@code id} as the contract's link object. */
    void writeLink(JsonGenerator json, int id) throws IOException {
        String code = codeOf(id);
        LinkJson.writeLink(json, code, publicBase + "/" + code, table.longUrl(id), table.createdAt(id),
            table.expiresAt(id), (table.flags(id) & LinkTable.PROTECTED) != 0, table.visits(id));
    }
}
