-- Visit counts as nodes flush them, about once a second each: one row per flush, the visited links'
-- ids (ascending) and their counts. Appending one row costs PostgreSQL next to nothing where adding
-- to every visited link's row cost a row update each; a fold moves the rows into links.visits about
-- once a minute and before an API read (docs/SCALE-OUT.md, "Visits").
CREATE TABLE visit_log (
    seq     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    ids     bigint[] NOT NULL,
    counts  bigint[] NOT NULL,
    CHECK (cardinality(ids) = cardinality(counts))
);

-- Each node's last flush that committed, by a random node id drawn at start: a flush whose commit
-- answer was lost is sent again with its sequence number, and stored only if that number is above the
-- node's last, so it is never counted twice. Rows of nodes silent for a week are pruned by the fold.
CREATE TABLE visit_flushes (
    node    bigint PRIMARY KEY,
    seq     bigint NOT NULL,
    at      bigint NOT NULL
);
