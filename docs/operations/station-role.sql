-- tourney on PostgreSQL: stations may read and append, never rewrite (docs/OPERATIONS.md).
-- Run as the ledger's owner (the head judge's role) AFTER 'tourney init' created the tables:
--   psql "postgresql://OWNER@HOST/DB" -v station=tourney_station -f station-role.sql
-- Idempotent: running it again changes nothing.

-- The checkpoint table is created by the first checkpoint; make sure it exists now.
CREATE TABLE IF NOT EXISTS tourney_checkpoints (log TEXT NOT NULL, size BIGINT NOT NULL,
  root BYTEA NOT NULL, note BYTEA NOT NULL, PRIMARY KEY (log, size));

-- The event and checkpoint tables are append-only for every role, owner included.
CREATE OR REPLACE FUNCTION tourney_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: a tournament ledger is never rewritten', TG_TABLE_NAME;
END $$;
DROP TRIGGER IF EXISTS tourney_events_append_only ON tourney_events;
CREATE TRIGGER tourney_events_append_only BEFORE UPDATE OR DELETE ON tourney_events
  FOR EACH ROW EXECUTE FUNCTION tourney_append_only();
DROP TRIGGER IF EXISTS tourney_events_no_truncate ON tourney_events;
CREATE TRIGGER tourney_events_no_truncate BEFORE TRUNCATE ON tourney_events
  FOR EACH STATEMENT EXECUTE FUNCTION tourney_append_only();
DROP TRIGGER IF EXISTS tourney_checkpoints_append_only ON tourney_checkpoints;
CREATE TRIGGER tourney_checkpoints_append_only BEFORE UPDATE OR DELETE ON tourney_checkpoints
  FOR EACH ROW EXECUTE FUNCTION tourney_append_only();
DROP TRIGGER IF EXISTS tourney_checkpoints_no_truncate ON tourney_checkpoints;
CREATE TRIGGER tourney_checkpoints_no_truncate BEFORE TRUNCATE ON tourney_checkpoints
  FOR EACH STATEMENT EXECUTE FUNCTION tourney_append_only();

-- Stations: read everything, append events. The event store takes an EXCLUSIVE table lock
-- to number events gap-free, which PostgreSQL grants only with UPDATE: the triggers above
-- make that privilege useless for rewriting. Snapshots are caches the stations prune.
GRANT USAGE ON SCHEMA public TO :"station";
GRANT SELECT, INSERT, UPDATE ON tourney_events TO :"station";
GRANT USAGE ON SEQUENCE tourney_events_notification_id_seq TO :"station";
GRANT USAGE ON TYPE stored_event_text TO :"station";
GRANT SELECT, INSERT, DELETE ON tourney_snapshots TO :"station";
GRANT SELECT, INSERT ON tourney_checkpoints TO :"station";  -- notes are signed by the head judge key

-- Witness cosignatures stored beside the checkpoints (issue 21 item 7, ADR 0016):
-- append-only like them; stations and witnesses append, readers verify every line.
CREATE TABLE IF NOT EXISTS tourney_cosignatures (log TEXT NOT NULL, size BIGINT NOT NULL,
  line BYTEA NOT NULL, PRIMARY KEY (log, size, line));
DROP TRIGGER IF EXISTS tourney_cosignatures_append_only ON tourney_cosignatures;
CREATE TRIGGER tourney_cosignatures_append_only BEFORE UPDATE OR DELETE ON tourney_cosignatures
  FOR EACH ROW EXECUTE FUNCTION tourney_append_only();
DROP TRIGGER IF EXISTS tourney_cosignatures_no_truncate ON tourney_cosignatures;
CREATE TRIGGER tourney_cosignatures_no_truncate BEFORE TRUNCATE ON tourney_cosignatures
  FOR EACH STATEMENT EXECUTE FUNCTION tourney_append_only();
GRANT SELECT, INSERT ON tourney_cosignatures TO :"station";  -- lines are verified on read
