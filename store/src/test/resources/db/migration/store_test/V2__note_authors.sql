ALTER TABLE notes ADD COLUMN author text;
