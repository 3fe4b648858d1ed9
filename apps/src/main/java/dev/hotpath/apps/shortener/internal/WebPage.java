package dev.hotpath.apps.shortener.internal;

import dev.hotpath.http.Routes;

/**
 * What a shortener serves besides its JSON API, in both modes: the web page ({@code GET /} and its
 * files under {@code /ui/}, unless {@code --ui off}) and the API's OpenAPI document
 * ({@code GET /api/openapi.yaml}). The page is plain HTML, CSS and a script of our own, read from the
 * jar once at start; it talks to the JSON API only, with the key the user pastes (docs/WEB.md).
 *
 * <p>These are exact routes, which the router finds before it tries {@code /{code}}: the redirect
 * path is untouched, and {@code /ui/...} has two segments, so it can never shadow a code.
 */
public final class WebPage {
    private WebPage() {
    }

    /** Adds the OpenAPI document and, when {@code page}, the web page's routes to {@code routes}. */
    public static Routes.Builder addTo(Routes.Builder routes, boolean page) {
        routes.get("/api/openapi.yaml", StaticFile.load("openapi.yaml", "application/yaml"));
        if (page) {
            routes.get("/", StaticFile.load("ui/index.html", "text/html; charset=utf-8"))
                .get("/ui/app.js", StaticFile.load("ui/app.js", "text/javascript; charset=utf-8"))
                .get("/ui/app.css", StaticFile.load("ui/app.css", "text/css; charset=utf-8"))
                .get("/ui/icon.svg", StaticFile.load("ui/icon.svg", "image/svg+xml"));
        }
        return routes;
    }
}
