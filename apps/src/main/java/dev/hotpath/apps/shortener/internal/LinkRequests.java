package dev.hotpath.apps.shortener.internal;

import dev.hotpath.http.Deferred;
import dev.hotpath.http.Request;
import dev.hotpath.http.Response;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Checks a parsed create request against the contract and turns it into the {@link NewLink} to store:
 * the URL in normal form and not to a denied host, an expiry in the future, an alias of the allowed
 * characters that is neither reserved nor shaped like a generated code, a random code for a protected
 * link. Checks only this request: whether its alias is free is {@link CreateAdmission}'s question.
 *
 * <p>Both modes' create routes start here ({@link #createOf}, {@link #bulkOf}): key, media type, JSON,
 * then these checks, each refusal answered at once.
 */
final class LinkRequests {
    static final int PROTECTED_CODE_LENGTH = 16;
    private static final Pattern ALIAS = Pattern.compile("[A-Za-z0-9_-]{3,64}");
    private static final Set<String> RESERVED = Set.of("api", "health", "ready", "metrics", "shorten", "favicon.ico",
        "robots.txt");
    private static final SecureRandom RANDOM = new SecureRandom();

    private final CodeScheme codes;
    private final Set<String> deniedHosts;
    private final Clock clock;

    /**
     * @param deniedHosts hosts refused as targets; {@code *.example.com} covers the domain and every
     *     name under it
     */
    LinkRequests(CodeScheme codes, Set<String> deniedHosts, Clock clock) {
        this.codes = codes;
        this.deniedHosts = deniedHosts;
        this.clock = clock;
    }


    /** The link {@code create} asks for, created now. */
    NewLink toNewLink(LinkJson.CreateRequest create) throws LinkJson.Invalid {
        String url;
        try {
            url = UrlNormalizer.normalize(create.url());
        } catch (IllegalArgumentException e) {
            throw new LinkJson.Invalid("invalid_url", e.getMessage());
        }
        if (denied(UrlNormalizer.hostOf(url))) {
            throw new LinkJson.Invalid("denied_host", "links to this host are not accepted here");
        }
        long now = clock.millis();
        long expires = -1;
        if (create.expiresAt() != null) {
            expires = create.expiresAt().toEpochMilli();
            if (expires <= now) {
                throw new LinkJson.Invalid("invalid_expiry", "expires_at is not in the future");
            }
        }
        String name = null;
        if (create.isProtected()) {
            if (create.alias() != null) {
                throw new LinkJson.Invalid("invalid_alias", "a protected link gets a random code: omit alias");
            }
            name = randomCode();
        } else if (create.alias() != null) {
            name = create.alias();
            checkAlias(name);
        }
        return new NewLink(url, name, create.isProtected(), now, expires);
    }

    /**
     * The link a create request asks for; or null once {@code response} has the refusal (no key, a body
     * that is not JSON, an invalid request).
     */
    NewLink createOf(Request request, ApiKeyAuth auth, Deferred response) {
        Response refusal = auth.refusesWrite(request);
        if (refusal != null) {
            response.complete(refusal);
            return null;
        }
        try {
            return toNewLink(LinkJson.parseCreate(request.bodyBytes()));
        } catch (LinkJson.Invalid e) {
            response.complete(Errors.Refusal.of(e).response);
            return null;
        }
    }

    /**
     * The items of a bulk create as {@link #toNewLinks} gives them; or null once {@code response} has the
     * refusal of the whole request (no key, not JSON, not a bulk body).
     */
    Object[] bulkOf(Request request, ApiKeyAuth auth, Deferred response) {
        Response refusal = auth.refusesWrite(request);
        if (refusal != null) {
            response.complete(refusal);
            return null;
        }
        try {
            return toNewLinks(LinkJson.parseBulk(request.bodyBytes()));
        } catch (LinkJson.Invalid e) {
            response.complete(Errors.Refusal.of(e).response);
            return null;
        }
    }

    /**
     * Each item of a bulk request, in input order, as the {@link NewLink} it asks for or as the
     * {@link Errors.Refusal} that refuses it.
     */
    Object[] toNewLinks(List<LinkJson.BulkItem> items) {
        Object[] converted = new Object[items.size()];
        for (int i = 0; i < converted.length; i++) {
            LinkJson.BulkItem item = items.get(i);
            try {
                if (item.invalid() != null) {
                    throw item.invalid();
                }
                converted[i] = toNewLink(item.create());
            } catch (LinkJson.Invalid e) {
                converted[i] = Errors.Refusal.of(e);
            }
        }
        return converted;
    }

    private void checkAlias(String alias) throws LinkJson.Invalid {
        if (!ALIAS.matcher(alias).matches()) {
            throw new LinkJson.Invalid("invalid_alias", "alias must be 3 to 64 of A-Z a-z 0-9 _ -");
        }
        if (RESERVED.contains(alias.toLowerCase(Locale.ROOT))) {
            throw new LinkJson.Invalid("invalid_alias", "this alias is reserved");
        }
        if (codes.hasShape(CodeSpan.of(alias))) {
            throw new LinkJson.Invalid("invalid_alias", codes.aliasShapeRefusal());
        }
    }

    private boolean denied(String host) {
        if (deniedHosts.isEmpty()) {
            return false;
        }
        if (deniedHosts.contains(host)) {
            return true;
        }
        for (String h = host; h.indexOf('.') >= 0; h = h.substring(h.indexOf('.') + 1)) {
            if (deniedHosts.contains("*." + h)) {
                return true;
            }
        }
        return false;
    }

    private static String randomCode() {
        StringBuilder code = new StringBuilder(PROTECTED_CODE_LENGTH);
        for (int i = 0; i < PROTECTED_CODE_LENGTH; i++) {
            code.append(Base62.ALPHABET.charAt(RANDOM.nextInt(62)));
        }
        return code.toString();
    }
}
