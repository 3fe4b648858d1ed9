-- The messages table of docs/MESSAGES.md in PostgreSQL, the same shape as the SQLite one:
-- id is the UUIDv7's 16 bytes (bytea compares byte by byte, so id order is time order);
-- names compare as bytes (COLLATE "C"), exactly as the contract says, whatever the locale;
-- body is the text's UTF-8 as bytea, since text cannot hold U+0000 and a message may;
-- created_at is the answer's text, so no read formats a time.
CREATE TABLE messages (
  id bytea NOT NULL PRIMARY KEY CHECK (octet_length(id) = 16),
  from_user text COLLATE "C" NOT NULL,
  to_user text COLLATE "C" NOT NULL,
  body bytea NOT NULL,
  created_at text NOT NULL);
CREATE INDEX messages_to_user_id ON messages (to_user, id);
CREATE INDEX messages_from_user_id ON messages (from_user, id);
