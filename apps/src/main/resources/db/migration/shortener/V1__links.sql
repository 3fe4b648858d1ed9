-- The scale-out shortener's schema (docs/SCALE-OUT.md). Times are epoch milliseconds, as in the
-- embedded store, so a link moves between the two without conversion.

-- Link ids come from this sequence a block at a time: a write node takes 1024 ids with one nextval
-- and hands them out itself. A crash leaves a gap, never a reuse.
CREATE SEQUENCE link_ids AS bigint MINVALUE 0 START WITH 0 INCREMENT BY 1024;

CREATE TABLE links (
    id          bigint PRIMARY KEY,
    -- the alias or protected code; null for a link reached by its generated code
    name        text UNIQUE,
    protected   boolean NOT NULL,
    long_url    text NOT NULL,
    created_at  bigint NOT NULL,
    expires_at  bigint,
    deleted_at  bigint,
    visits      bigint NOT NULL DEFAULT 0,
    CHECK (name IS NOT NULL OR NOT protected)
) WITH (fillfactor = 90); -- room on each page for the visit-count updates to stay HOT

CREATE TABLE api_keys (
    id          text PRIMARY KEY,
    hash        text NOT NULL,
    created_at  bigint NOT NULL,
    revoked_at  bigint
);

-- The code secret and the code scheme, created once by the first write node and shared by all.
CREATE TABLE meta (
    key         text PRIMARY KEY,
    value       bytea NOT NULL
);
