package dev.hotpath.apps.shortener.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;

/**
 * Codes as the scale-out mode looks them up: a generated code stands for its id (a {@code Long} key),
 * an alias or protected code for itself (a {@code String} key); and a {@link LinkRow} back as its
 * code and the contract's link object.
 */
final class LinkKeys {
    private final CodeScheme codes;
    private final String publicBase;

    LinkKeys(CodeScheme codes, String publicBase) {
        this.codes = codes;
        this.publicBase = publicBase;
    }

    /**
     * The key of {@code code}: its id, its name, or null when no link can have it (it has a generated
     * code's shape but decodes to no id, or it is too short or long for a name).
     */
    Object keyOf(CodeSpan code) {
        long id = idOf(code);
        return id >= 0 ? (Object) id : nameOf(code, id);
    }

    /** The id {@code code} stands for, or a negative {@link CodeScheme} answer: see {@link #nameOf}. */
    long idOf(CodeSpan code) {
        return codes.decode(code);
    }

    /** The name {@code code} stands for, given {@code id}, its {@link #idOf} answer; null when none. */
    String nameOf(CodeSpan code, long id) {
        return id == CodeScheme.NOT_SHAPED ? LinkIndex.nameOf(code) : null;
    }

    /** The code clients use for a link: its name, else its generated code. */
    String codeOf(long id, String name) {
        return name != null ? name : codes.encode(id);
    }

    /** Writes {@code row} as the contract's link object. */
    void writeLink(JsonGenerator json, LinkRow row) throws IOException {
        String code = codeOf(row.id(), row.name());
        LinkJson.writeLink(json, code, publicBase + "/" + code, row.url(), row.createdAt(), row.expiresAt(),
            row.isProtected(), row.visits());
    }

    long capacity() {
        return codes.capacity();
    }
}
