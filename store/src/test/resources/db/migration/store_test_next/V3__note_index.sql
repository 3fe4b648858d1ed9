-- A release after the one under test: applied, it makes the schema newer than store_test alone.
CREATE INDEX notes_author ON notes (author);
