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
