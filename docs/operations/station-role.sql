-- tourney on PostgreSQL: stations may read and append, never rewrite (docs/OPERATIONS.md).
-- Run as the ledger's owner (the head judge's role) AFTER 'tourney init' created the tables:
--   psql "postgresql://OWNER@HOST/DB" -v station=tourney_station -f station-role.sql
-- Idempotent: running it again changes nothing; on an existing ledger it upgrades it.
-- Installs: the log's roles table (tourney_signing_roles, generated from the audit's),
-- the admission functions every inserted event and checkpoint row goes through
-- (tourney_admit_event, tourney_admit_checkpoint), the append-only triggers, the station
-- grants, and the owner's recovery for a bad row (tourney_withdraw,
-- tourney_withdraw_checkpoint; docs/OPERATIONS.md, "A bad row"; ADR 0017).

-- The checkpoint table is created by the first checkpoint; make sure it exists now.
CREATE TABLE IF NOT EXISTS tourney_checkpoints (log TEXT NOT NULL, size BIGINT NOT NULL,
  root BYTEA NOT NULL, note BYTEA NOT NULL, PRIMARY KEY (log, size));

-- Keys the log declares (genesis organizer and head judge, official_added) with their
-- roles and the seq that revoked them (official_revoked), kept by the admission function
-- below; backfilled from the rows already there.
CREATE TABLE IF NOT EXISTS tourney_declared_keys (log TEXT NOT NULL, key_id TEXT NOT NULL,
  public_key TEXT NOT NULL, role TEXT NOT NULL, seq BIGINT NOT NULL,
  PRIMARY KEY (log, key_id, role));
ALTER TABLE tourney_declared_keys ADD COLUMN IF NOT EXISTS revoked_seq BIGINT;

-- BEGIN roles table (generated from ledger/core/signing.py by 'python -m cli.station_sql';
-- do not edit by hand: tests/test_station_roles_pg.py checks that the two agree)
CREATE TABLE IF NOT EXISTS tourney_signing_roles (format TEXT NOT NULL, kind TEXT NOT NULL,
  role TEXT NOT NULL, needs TEXT NOT NULL, PRIMARY KEY (format, kind, role));
BEGIN;
DELETE FROM tourney_signing_roles;
INSERT INTO tourney_signing_roles (format, kind, role, needs) VALUES
  ('*', 'announcement_made', 'head_judge', 'always'),
  ('*', 'call_claimed', 'head_judge', 'always'),
  ('*', 'call_claimed', 'judge', 'always'),
  ('*', 'call_closed', 'head_judge', 'always'),
  ('*', 'call_closed', 'judge', 'always'),
  ('*', 'call_opened', 'head_judge', 'always'),
  ('*', 'call_opened', 'judge', 'always'),
  ('*', 'call_opened', 'station', 'credential'),
  ('*', 'credential_issued', 'head_judge', 'always'),
  ('*', 'credential_issued', 'organizer', 'always'),
  ('*', 'credential_revoked', 'head_judge', 'always'),
  ('*', 'credential_revoked', 'organizer', 'always'),
  ('*', 'device_key_bound', 'station', 'always'),
  ('*', 'draw_made', 'head_judge', 'always'),
  ('*', 'official_added', 'organizer', 'always'),
  ('*', 'official_revoked', 'organizer', 'always'),
  ('*', 'pairings_posted', 'head_judge', 'always'),
  ('*', 'player_registered', 'head_judge', 'always'),
  ('*', 'player_registered', 'scorekeeper', 'always'),
  ('*', 'player_renamed', 'head_judge', 'always'),
  ('*', 'player_renamed', 'scorekeeper', 'always'),
  ('*', 'player_withdrawn', 'head_judge', 'always'),
  ('*', 'player_withdrawn', 'scorekeeper', 'always'),
  ('*', 'public_pages_set', 'head_judge', 'always'),
  ('*', 'public_pages_set', 'organizer', 'always'),
  ('*', 'registration_closed', 'head_judge', 'always'),
  ('*', 'report_published', 'head_judge', 'always'),
  ('*', 'report_rejected', 'head_judge', 'always'),
  ('*', 'report_rejected', 'judge', 'always'),
  ('*', 'report_rejected', 'scorekeeper', 'always'),
  ('*', 'result_reported', 'station', 'always'),
  ('*', 'seed_committed', 'head_judge', 'always'),
  ('*', 'seed_recorded', 'head_judge', 'always'),
  ('*', 'tournament_created', 'organizer', 'always'),
  ('hotc-swiss-de', 'bracket_seeded', 'head_judge', 'always'),
  ('hotc-swiss-de', 'challenge_decided', 'head_judge', 'always'),
  ('hotc-swiss-de', 'challenge_raised', 'head_judge', 'always'),
  ('hotc-swiss-de', 'challenge_raised', 'judge', 'always'),
  ('hotc-swiss-de', 'champion_declared', 'head_judge', 'always'),
  ('hotc-swiss-de', 'champion_declared', 'judge', 'always'),
  ('hotc-swiss-de', 'champion_declared', 'scorekeeper', 'always'),
  ('hotc-swiss-de', 'champion_declared', 'station', 'always'),
  ('hotc-swiss-de', 'cut_made', 'head_judge', 'always'),
  ('hotc-swiss-de', 'deck_check_ended', 'head_judge', 'always'),
  ('hotc-swiss-de', 'deck_check_ended', 'judge', 'always'),
  ('hotc-swiss-de', 'deck_check_started', 'head_judge', 'always'),
  ('hotc-swiss-de', 'deck_check_started', 'judge', 'always'),
  ('hotc-swiss-de', 'deck_checked', 'head_judge', 'always'),
  ('hotc-swiss-de', 'deck_corrected', 'head_judge', 'always'),
  ('hotc-swiss-de', 'deck_corrected', 'judge', 'always'),
  ('hotc-swiss-de', 'deck_deadline_set', 'head_judge', 'always'),
  ('hotc-swiss-de', 'deck_deadline_set', 'organizer', 'always'),
  ('hotc-swiss-de', 'deck_published', 'head_judge', 'always'),
  ('hotc-swiss-de', 'deck_registered', 'head_judge', 'always'),
  ('hotc-swiss-de', 'deck_registered', 'judge', 'always'),
  ('hotc-swiss-de', 'deck_registered', 'scorekeeper', 'always'),
  ('hotc-swiss-de', 'deck_submitted', 'station', 'credential'),
  ('hotc-swiss-de', 'eom_decided', 'head_judge', 'always'),
  ('hotc-swiss-de', 'eom_decided', 'judge', 'always'),
  ('hotc-swiss-de', 'level_amended', 'organizer', 'always'),
  ('hotc-swiss-de', 'no_champion_ruled', 'head_judge', 'always'),
  ('hotc-swiss-de', 'pairing_overridden', 'head_judge', 'always'),
  ('hotc-swiss-de', 'pairing_voided', 'head_judge', 'always'),
  ('hotc-swiss-de', 'penalty_issued', 'head_judge', 'always'),
  ('hotc-swiss-de', 'penalty_issued', 'judge', 'always'),
  ('hotc-swiss-de', 'player_added_late', 'head_judge', 'always'),
  ('hotc-swiss-de', 'player_disqualified', 'head_judge', 'always'),
  ('hotc-swiss-de', 'player_dropped', 'head_judge', 'always'),
  ('hotc-swiss-de', 'player_dropped', 'scorekeeper', 'always'),
  ('hotc-swiss-de', 'player_dropped', 'station', 'credential'),
  ('hotc-swiss-de', 'player_undropped', 'head_judge', 'always'),
  ('hotc-swiss-de', 'result_amended', 'head_judge', 'always'),
  ('hotc-swiss-de', 'result_corrected', 'head_judge', 'always'),
  ('hotc-swiss-de', 'result_corrected', 'judge', 'always'),
  ('hotc-swiss-de', 'result_corrected', 'scorekeeper', 'always'),
  ('hotc-swiss-de', 'result_recorded', 'head_judge', 'always'),
  ('hotc-swiss-de', 'result_recorded', 'judge', 'always'),
  ('hotc-swiss-de', 'result_recorded', 'scorekeeper', 'always'),
  ('hotc-swiss-de', 'result_recorded', 'station', 'reports'),
  ('hotc-swiss-de', 'round_closed', 'head_judge', 'always'),
  ('hotc-swiss-de', 'round_closed', 'judge', 'always'),
  ('hotc-swiss-de', 'round_closed', 'scorekeeper', 'always'),
  ('hotc-swiss-de', 'round_closed', 'station', 'always'),
  ('hotc-swiss-de', 'round_paired', 'head_judge', 'always'),
  ('hotc-swiss-de', 'round_started', 'head_judge', 'always'),
  ('hotc-swiss-de', 'round_started', 'judge', 'always'),
  ('hotc-swiss-de', 'round_started', 'time_keeper', 'always'),
  ('hotc-swiss-de', 'round_time_called', 'head_judge', 'always'),
  ('hotc-swiss-de', 'round_time_called', 'judge', 'always'),
  ('hotc-swiss-de', 'round_time_called', 'time_keeper', 'always'),
  ('hotc-swiss-de', 'ruling_made', 'head_judge', 'always'),
  ('hotc-swiss-de', 'ruling_made', 'judge', 'always'),
  ('hotc-swiss-de', 'score_sheet_reissued', 'head_judge', 'always'),
  ('hotc-swiss-de', 'score_sheet_reissued', 'organizer', 'always'),
  ('hotc-swiss-de', 'slow_play_called', 'head_judge', 'always'),
  ('hotc-swiss-de', 'slow_play_called', 'judge', 'always'),
  ('hotc-swiss-de', 'slow_play_ruled', 'head_judge', 'always'),
  ('hotc-swiss-de', 'slow_play_ruled', 'judge', 'always'),
  ('hotc-swiss-de', 'time_extended', 'head_judge', 'always'),
  ('hotc-swiss-de', 'time_extended', 'judge', 'always'),
  ('bushiroad-swiss', 'bracket_seeded', 'head_judge', 'always'),
  ('bushiroad-swiss', 'challenge_decided', 'head_judge', 'always'),
  ('bushiroad-swiss', 'challenge_raised', 'head_judge', 'always'),
  ('bushiroad-swiss', 'challenge_raised', 'judge', 'always'),
  ('bushiroad-swiss', 'champion_declared', 'head_judge', 'always'),
  ('bushiroad-swiss', 'champion_declared', 'judge', 'always'),
  ('bushiroad-swiss', 'champion_declared', 'scorekeeper', 'always'),
  ('bushiroad-swiss', 'champion_declared', 'station', 'always'),
  ('bushiroad-swiss', 'deck_check_ended', 'head_judge', 'always'),
  ('bushiroad-swiss', 'deck_check_ended', 'judge', 'always'),
  ('bushiroad-swiss', 'deck_check_started', 'head_judge', 'always'),
  ('bushiroad-swiss', 'deck_check_started', 'judge', 'always'),
  ('bushiroad-swiss', 'deck_checked', 'head_judge', 'always'),
  ('bushiroad-swiss', 'deck_corrected', 'head_judge', 'always'),
  ('bushiroad-swiss', 'deck_corrected', 'judge', 'always'),
  ('bushiroad-swiss', 'deck_deadline_set', 'head_judge', 'always'),
  ('bushiroad-swiss', 'deck_deadline_set', 'organizer', 'always'),
  ('bushiroad-swiss', 'deck_published', 'head_judge', 'always'),
  ('bushiroad-swiss', 'deck_registered', 'head_judge', 'always'),
  ('bushiroad-swiss', 'deck_registered', 'judge', 'always'),
  ('bushiroad-swiss', 'deck_registered', 'scorekeeper', 'always'),
  ('bushiroad-swiss', 'deck_submitted', 'station', 'credential'),
  ('bushiroad-swiss', 'eom_decided', 'head_judge', 'always'),
  ('bushiroad-swiss', 'eom_decided', 'judge', 'always'),
  ('bushiroad-swiss', 'finalists_decided', 'head_judge', 'always'),
  ('bushiroad-swiss', 'level_amended', 'organizer', 'always'),
  ('bushiroad-swiss', 'pairing_overridden', 'head_judge', 'always'),
  ('bushiroad-swiss', 'pairing_voided', 'head_judge', 'always'),
  ('bushiroad-swiss', 'penalty_issued', 'head_judge', 'always'),
  ('bushiroad-swiss', 'penalty_issued', 'judge', 'always'),
  ('bushiroad-swiss', 'player_added_late', 'head_judge', 'always'),
  ('bushiroad-swiss', 'player_disqualified', 'head_judge', 'always'),
  ('bushiroad-swiss', 'player_dropped', 'head_judge', 'always'),
  ('bushiroad-swiss', 'player_dropped', 'scorekeeper', 'always'),
  ('bushiroad-swiss', 'player_dropped', 'station', 'credential'),
  ('bushiroad-swiss', 'player_undropped', 'head_judge', 'always'),
  ('bushiroad-swiss', 'result_amended', 'head_judge', 'always'),
  ('bushiroad-swiss', 'result_corrected', 'head_judge', 'always'),
  ('bushiroad-swiss', 'result_corrected', 'judge', 'always'),
  ('bushiroad-swiss', 'result_corrected', 'scorekeeper', 'always'),
  ('bushiroad-swiss', 'result_recorded', 'head_judge', 'always'),
  ('bushiroad-swiss', 'result_recorded', 'judge', 'always'),
  ('bushiroad-swiss', 'result_recorded', 'scorekeeper', 'always'),
  ('bushiroad-swiss', 'result_recorded', 'station', 'reports'),
  ('bushiroad-swiss', 'round_closed', 'head_judge', 'always'),
  ('bushiroad-swiss', 'round_closed', 'judge', 'always'),
  ('bushiroad-swiss', 'round_closed', 'scorekeeper', 'always'),
  ('bushiroad-swiss', 'round_closed', 'station', 'always'),
  ('bushiroad-swiss', 'round_paired', 'head_judge', 'always'),
  ('bushiroad-swiss', 'round_started', 'head_judge', 'always'),
  ('bushiroad-swiss', 'round_started', 'judge', 'always'),
  ('bushiroad-swiss', 'round_started', 'time_keeper', 'always'),
  ('bushiroad-swiss', 'round_time_called', 'head_judge', 'always'),
  ('bushiroad-swiss', 'round_time_called', 'judge', 'always'),
  ('bushiroad-swiss', 'round_time_called', 'time_keeper', 'always'),
  ('bushiroad-swiss', 'ruling_made', 'head_judge', 'always'),
  ('bushiroad-swiss', 'ruling_made', 'judge', 'always'),
  ('bushiroad-swiss', 'score_sheet_reissued', 'head_judge', 'always'),
  ('bushiroad-swiss', 'score_sheet_reissued', 'organizer', 'always'),
  ('bushiroad-swiss', 'seat_result_amended', 'head_judge', 'always'),
  ('bushiroad-swiss', 'seat_result_corrected', 'head_judge', 'always'),
  ('bushiroad-swiss', 'seat_result_corrected', 'judge', 'always'),
  ('bushiroad-swiss', 'seat_result_recorded', 'head_judge', 'always'),
  ('bushiroad-swiss', 'seat_result_recorded', 'judge', 'always'),
  ('bushiroad-swiss', 'seat_result_recorded', 'scorekeeper', 'always'),
  ('bushiroad-swiss', 'seat_result_recorded', 'station', 'reports'),
  ('bushiroad-swiss', 'standings_finalized', 'head_judge', 'always'),
  ('bushiroad-swiss', 'team_added_late', 'head_judge', 'always'),
  ('bushiroad-swiss', 'team_registered', 'head_judge', 'always'),
  ('bushiroad-swiss', 'team_registered', 'scorekeeper', 'always'),
  ('bushiroad-swiss', 'time_extended', 'head_judge', 'always'),
  ('bushiroad-swiss', 'time_extended', 'judge', 'always'),
  ('bushiroad-de', 'bracket_seeded', 'head_judge', 'always'),
  ('bushiroad-de', 'challenge_decided', 'head_judge', 'always'),
  ('bushiroad-de', 'challenge_raised', 'head_judge', 'always'),
  ('bushiroad-de', 'challenge_raised', 'judge', 'always'),
  ('bushiroad-de', 'champion_declared', 'head_judge', 'always'),
  ('bushiroad-de', 'champion_declared', 'judge', 'always'),
  ('bushiroad-de', 'champion_declared', 'scorekeeper', 'always'),
  ('bushiroad-de', 'champion_declared', 'station', 'always'),
  ('bushiroad-de', 'deck_check_ended', 'head_judge', 'always'),
  ('bushiroad-de', 'deck_check_ended', 'judge', 'always'),
  ('bushiroad-de', 'deck_check_started', 'head_judge', 'always'),
  ('bushiroad-de', 'deck_check_started', 'judge', 'always'),
  ('bushiroad-de', 'deck_checked', 'head_judge', 'always'),
  ('bushiroad-de', 'deck_corrected', 'head_judge', 'always'),
  ('bushiroad-de', 'deck_corrected', 'judge', 'always'),
  ('bushiroad-de', 'deck_deadline_set', 'head_judge', 'always'),
  ('bushiroad-de', 'deck_deadline_set', 'organizer', 'always'),
  ('bushiroad-de', 'deck_published', 'head_judge', 'always'),
  ('bushiroad-de', 'deck_registered', 'head_judge', 'always'),
  ('bushiroad-de', 'deck_registered', 'judge', 'always'),
  ('bushiroad-de', 'deck_registered', 'scorekeeper', 'always'),
  ('bushiroad-de', 'deck_submitted', 'station', 'credential'),
  ('bushiroad-de', 'eom_decided', 'head_judge', 'always'),
  ('bushiroad-de', 'eom_decided', 'judge', 'always'),
  ('bushiroad-de', 'finalists_decided', 'head_judge', 'always'),
  ('bushiroad-de', 'level_amended', 'organizer', 'always'),
  ('bushiroad-de', 'pairing_overridden', 'head_judge', 'always'),
  ('bushiroad-de', 'pairing_voided', 'head_judge', 'always'),
  ('bushiroad-de', 'penalty_issued', 'head_judge', 'always'),
  ('bushiroad-de', 'penalty_issued', 'judge', 'always'),
  ('bushiroad-de', 'player_added_late', 'head_judge', 'always'),
  ('bushiroad-de', 'player_disqualified', 'head_judge', 'always'),
  ('bushiroad-de', 'player_dropped', 'head_judge', 'always'),
  ('bushiroad-de', 'player_dropped', 'scorekeeper', 'always'),
  ('bushiroad-de', 'player_dropped', 'station', 'credential'),
  ('bushiroad-de', 'player_undropped', 'head_judge', 'always'),
  ('bushiroad-de', 'result_amended', 'head_judge', 'always'),
  ('bushiroad-de', 'result_corrected', 'head_judge', 'always'),
  ('bushiroad-de', 'result_corrected', 'judge', 'always'),
  ('bushiroad-de', 'result_corrected', 'scorekeeper', 'always'),
  ('bushiroad-de', 'result_recorded', 'head_judge', 'always'),
  ('bushiroad-de', 'result_recorded', 'judge', 'always'),
  ('bushiroad-de', 'result_recorded', 'scorekeeper', 'always'),
  ('bushiroad-de', 'result_recorded', 'station', 'reports'),
  ('bushiroad-de', 'round_closed', 'head_judge', 'always'),
  ('bushiroad-de', 'round_closed', 'judge', 'always'),
  ('bushiroad-de', 'round_closed', 'scorekeeper', 'always'),
  ('bushiroad-de', 'round_closed', 'station', 'always'),
  ('bushiroad-de', 'round_paired', 'head_judge', 'always'),
  ('bushiroad-de', 'round_started', 'head_judge', 'always'),
  ('bushiroad-de', 'round_started', 'judge', 'always'),
  ('bushiroad-de', 'round_started', 'time_keeper', 'always'),
  ('bushiroad-de', 'round_time_called', 'head_judge', 'always'),
  ('bushiroad-de', 'round_time_called', 'judge', 'always'),
  ('bushiroad-de', 'round_time_called', 'time_keeper', 'always'),
  ('bushiroad-de', 'ruling_made', 'head_judge', 'always'),
  ('bushiroad-de', 'ruling_made', 'judge', 'always'),
  ('bushiroad-de', 'score_sheet_reissued', 'head_judge', 'always'),
  ('bushiroad-de', 'score_sheet_reissued', 'organizer', 'always'),
  ('bushiroad-de', 'seat_result_amended', 'head_judge', 'always'),
  ('bushiroad-de', 'seat_result_corrected', 'head_judge', 'always'),
  ('bushiroad-de', 'seat_result_corrected', 'judge', 'always'),
  ('bushiroad-de', 'seat_result_recorded', 'head_judge', 'always'),
  ('bushiroad-de', 'seat_result_recorded', 'judge', 'always'),
  ('bushiroad-de', 'seat_result_recorded', 'scorekeeper', 'always'),
  ('bushiroad-de', 'seat_result_recorded', 'station', 'reports'),
  ('bushiroad-de', 'standings_finalized', 'head_judge', 'always'),
  ('bushiroad-de', 'team_added_late', 'head_judge', 'always'),
  ('bushiroad-de', 'team_registered', 'head_judge', 'always'),
  ('bushiroad-de', 'team_registered', 'scorekeeper', 'always'),
  ('bushiroad-de', 'time_extended', 'head_judge', 'always'),
  ('bushiroad-de', 'time_extended', 'judge', 'always'),
  ('single-elim', 'bracket_seeded', 'head_judge', 'always'),
  ('single-elim', 'challenge_decided', 'head_judge', 'always'),
  ('single-elim', 'challenge_raised', 'head_judge', 'always'),
  ('single-elim', 'challenge_raised', 'judge', 'always'),
  ('single-elim', 'champion_declared', 'head_judge', 'always'),
  ('single-elim', 'champion_declared', 'judge', 'always'),
  ('single-elim', 'champion_declared', 'scorekeeper', 'always'),
  ('single-elim', 'champion_declared', 'station', 'always'),
  ('single-elim', 'deck_check_ended', 'head_judge', 'always'),
  ('single-elim', 'deck_check_ended', 'judge', 'always'),
  ('single-elim', 'deck_check_started', 'head_judge', 'always'),
  ('single-elim', 'deck_check_started', 'judge', 'always'),
  ('single-elim', 'deck_checked', 'head_judge', 'always'),
  ('single-elim', 'deck_corrected', 'head_judge', 'always'),
  ('single-elim', 'deck_corrected', 'judge', 'always'),
  ('single-elim', 'deck_deadline_set', 'head_judge', 'always'),
  ('single-elim', 'deck_deadline_set', 'organizer', 'always'),
  ('single-elim', 'deck_published', 'head_judge', 'always'),
  ('single-elim', 'deck_registered', 'head_judge', 'always'),
  ('single-elim', 'deck_registered', 'judge', 'always'),
  ('single-elim', 'deck_registered', 'scorekeeper', 'always'),
  ('single-elim', 'deck_submitted', 'station', 'credential'),
  ('single-elim', 'eom_decided', 'head_judge', 'always'),
  ('single-elim', 'eom_decided', 'judge', 'always'),
  ('single-elim', 'finalists_decided', 'head_judge', 'always'),
  ('single-elim', 'level_amended', 'organizer', 'always'),
  ('single-elim', 'pairing_overridden', 'head_judge', 'always'),
  ('single-elim', 'pairing_voided', 'head_judge', 'always'),
  ('single-elim', 'penalty_issued', 'head_judge', 'always'),
  ('single-elim', 'penalty_issued', 'judge', 'always'),
  ('single-elim', 'player_added_late', 'head_judge', 'always'),
  ('single-elim', 'player_disqualified', 'head_judge', 'always'),
  ('single-elim', 'player_dropped', 'head_judge', 'always'),
  ('single-elim', 'player_dropped', 'scorekeeper', 'always'),
  ('single-elim', 'player_dropped', 'station', 'credential'),
  ('single-elim', 'player_undropped', 'head_judge', 'always'),
  ('single-elim', 'result_amended', 'head_judge', 'always'),
  ('single-elim', 'result_corrected', 'head_judge', 'always'),
  ('single-elim', 'result_corrected', 'judge', 'always'),
  ('single-elim', 'result_corrected', 'scorekeeper', 'always'),
  ('single-elim', 'result_recorded', 'head_judge', 'always'),
  ('single-elim', 'result_recorded', 'judge', 'always'),
  ('single-elim', 'result_recorded', 'scorekeeper', 'always'),
  ('single-elim', 'result_recorded', 'station', 'reports'),
  ('single-elim', 'round_closed', 'head_judge', 'always'),
  ('single-elim', 'round_closed', 'judge', 'always'),
  ('single-elim', 'round_closed', 'scorekeeper', 'always'),
  ('single-elim', 'round_closed', 'station', 'always'),
  ('single-elim', 'round_paired', 'head_judge', 'always'),
  ('single-elim', 'round_started', 'head_judge', 'always'),
  ('single-elim', 'round_started', 'judge', 'always'),
  ('single-elim', 'round_started', 'time_keeper', 'always'),
  ('single-elim', 'round_time_called', 'head_judge', 'always'),
  ('single-elim', 'round_time_called', 'judge', 'always'),
  ('single-elim', 'round_time_called', 'time_keeper', 'always'),
  ('single-elim', 'ruling_made', 'head_judge', 'always'),
  ('single-elim', 'ruling_made', 'judge', 'always'),
  ('single-elim', 'score_sheet_reissued', 'head_judge', 'always'),
  ('single-elim', 'score_sheet_reissued', 'organizer', 'always'),
  ('single-elim', 'seat_result_amended', 'head_judge', 'always'),
  ('single-elim', 'seat_result_corrected', 'head_judge', 'always'),
  ('single-elim', 'seat_result_corrected', 'judge', 'always'),
  ('single-elim', 'seat_result_recorded', 'head_judge', 'always'),
  ('single-elim', 'seat_result_recorded', 'judge', 'always'),
  ('single-elim', 'seat_result_recorded', 'scorekeeper', 'always'),
  ('single-elim', 'seat_result_recorded', 'station', 'reports'),
  ('single-elim', 'standings_finalized', 'head_judge', 'always'),
  ('single-elim', 'team_added_late', 'head_judge', 'always'),
  ('single-elim', 'team_registered', 'head_judge', 'always'),
  ('single-elim', 'team_registered', 'scorekeeper', 'always'),
  ('single-elim', 'time_extended', 'head_judge', 'always'),
  ('single-elim', 'time_extended', 'judge', 'always'),
  ('round-robin', 'bracket_seeded', 'head_judge', 'always'),
  ('round-robin', 'challenge_decided', 'head_judge', 'always'),
  ('round-robin', 'challenge_raised', 'head_judge', 'always'),
  ('round-robin', 'challenge_raised', 'judge', 'always'),
  ('round-robin', 'champion_declared', 'head_judge', 'always'),
  ('round-robin', 'champion_declared', 'judge', 'always'),
  ('round-robin', 'champion_declared', 'scorekeeper', 'always'),
  ('round-robin', 'champion_declared', 'station', 'always'),
  ('round-robin', 'deck_check_ended', 'head_judge', 'always'),
  ('round-robin', 'deck_check_ended', 'judge', 'always'),
  ('round-robin', 'deck_check_started', 'head_judge', 'always'),
  ('round-robin', 'deck_check_started', 'judge', 'always'),
  ('round-robin', 'deck_checked', 'head_judge', 'always'),
  ('round-robin', 'deck_corrected', 'head_judge', 'always'),
  ('round-robin', 'deck_corrected', 'judge', 'always'),
  ('round-robin', 'deck_deadline_set', 'head_judge', 'always'),
  ('round-robin', 'deck_deadline_set', 'organizer', 'always'),
  ('round-robin', 'deck_published', 'head_judge', 'always'),
  ('round-robin', 'deck_registered', 'head_judge', 'always'),
  ('round-robin', 'deck_registered', 'judge', 'always'),
  ('round-robin', 'deck_registered', 'scorekeeper', 'always'),
  ('round-robin', 'deck_submitted', 'station', 'credential'),
  ('round-robin', 'eom_decided', 'head_judge', 'always'),
  ('round-robin', 'eom_decided', 'judge', 'always'),
  ('round-robin', 'finalists_decided', 'head_judge', 'always'),
  ('round-robin', 'level_amended', 'organizer', 'always'),
  ('round-robin', 'pairing_overridden', 'head_judge', 'always'),
  ('round-robin', 'pairing_voided', 'head_judge', 'always'),
  ('round-robin', 'penalty_issued', 'head_judge', 'always'),
  ('round-robin', 'penalty_issued', 'judge', 'always'),
  ('round-robin', 'player_added_late', 'head_judge', 'always'),
  ('round-robin', 'player_disqualified', 'head_judge', 'always'),
  ('round-robin', 'player_dropped', 'head_judge', 'always'),
  ('round-robin', 'player_dropped', 'scorekeeper', 'always'),
  ('round-robin', 'player_dropped', 'station', 'credential'),
  ('round-robin', 'player_undropped', 'head_judge', 'always'),
  ('round-robin', 'result_amended', 'head_judge', 'always'),
  ('round-robin', 'result_corrected', 'head_judge', 'always'),
  ('round-robin', 'result_corrected', 'judge', 'always'),
  ('round-robin', 'result_corrected', 'scorekeeper', 'always'),
  ('round-robin', 'result_recorded', 'head_judge', 'always'),
  ('round-robin', 'result_recorded', 'judge', 'always'),
  ('round-robin', 'result_recorded', 'scorekeeper', 'always'),
  ('round-robin', 'result_recorded', 'station', 'reports'),
  ('round-robin', 'round_closed', 'head_judge', 'always'),
  ('round-robin', 'round_closed', 'judge', 'always'),
  ('round-robin', 'round_closed', 'scorekeeper', 'always'),
  ('round-robin', 'round_closed', 'station', 'always'),
  ('round-robin', 'round_paired', 'head_judge', 'always'),
  ('round-robin', 'round_started', 'head_judge', 'always'),
  ('round-robin', 'round_started', 'judge', 'always'),
  ('round-robin', 'round_started', 'time_keeper', 'always'),
  ('round-robin', 'round_time_called', 'head_judge', 'always'),
  ('round-robin', 'round_time_called', 'judge', 'always'),
  ('round-robin', 'round_time_called', 'time_keeper', 'always'),
  ('round-robin', 'ruling_made', 'head_judge', 'always'),
  ('round-robin', 'ruling_made', 'judge', 'always'),
  ('round-robin', 'score_sheet_reissued', 'head_judge', 'always'),
  ('round-robin', 'score_sheet_reissued', 'organizer', 'always'),
  ('round-robin', 'seat_result_amended', 'head_judge', 'always'),
  ('round-robin', 'seat_result_corrected', 'head_judge', 'always'),
  ('round-robin', 'seat_result_corrected', 'judge', 'always'),
  ('round-robin', 'seat_result_recorded', 'head_judge', 'always'),
  ('round-robin', 'seat_result_recorded', 'judge', 'always'),
  ('round-robin', 'seat_result_recorded', 'scorekeeper', 'always'),
  ('round-robin', 'seat_result_recorded', 'station', 'reports'),
  ('round-robin', 'standings_finalized', 'head_judge', 'always'),
  ('round-robin', 'team_added_late', 'head_judge', 'always'),
  ('round-robin', 'team_registered', 'head_judge', 'always'),
  ('round-robin', 'team_registered', 'scorekeeper', 'always'),
  ('round-robin', 'time_extended', 'head_judge', 'always'),
  ('round-robin', 'time_extended', 'judge', 'always'),
  ('wot-2001', 'forfeiture_declared', 'head_judge', 'always'),
  ('wot-2001', 'result_corrected', 'head_judge', 'always'),
  ('wot-2001', 'result_corrected', 'judge', 'always'),
  ('wot-2001', 'result_recorded', 'head_judge', 'always'),
  ('wot-2001', 'result_recorded', 'judge', 'always'),
  ('wot-2001', 'result_recorded', 'scorekeeper', 'always'),
  ('wot-2001', 'result_recorded', 'station', 'reports'),
  ('wot-2001', 'round_paired', 'head_judge', 'always'),
  ('wot-2001', 'tbp_overridden', 'head_judge', 'always'),
  ('wot-classic', 'forfeiture_declared', 'head_judge', 'always'),
  ('wot-classic', 'result_corrected', 'head_judge', 'always'),
  ('wot-classic', 'result_corrected', 'judge', 'always'),
  ('wot-classic', 'result_recorded', 'head_judge', 'always'),
  ('wot-classic', 'result_recorded', 'judge', 'always'),
  ('wot-classic', 'result_recorded', 'scorekeeper', 'always'),
  ('wot-classic', 'result_recorded', 'station', 'reports'),
  ('wot-classic', 'round_paired', 'head_judge', 'always'),
  ('wot-classic', 'tbp_overridden', 'head_judge', 'always');
COMMIT;
-- END roles table
-- Rows the owner withdrew with tourney_withdraw (the recovery): kept, never deleted.
CREATE TABLE IF NOT EXISTS tourney_withdrawn (log TEXT NOT NULL, what TEXT NOT NULL,
  version BIGINT NOT NULL, data BYTEA, reason TEXT NOT NULL, withdrawn_by NAME NOT NULL,
  withdrawn_at TIMESTAMPTZ NOT NULL DEFAULT now());

-- Canonical JSON (docs/DESIGN.md §4: sorted keys, no whitespace, msgspec's escapes).
CREATE OR REPLACE FUNCTION tourney_canonical(j jsonb) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE out text;
BEGIN
  CASE jsonb_typeof(j)
  WHEN 'object' THEN
    SELECT '{' || coalesce(string_agg(to_json(key)::text || ':' || tourney_canonical(value),
                                      ',' ORDER BY key COLLATE "C"), '') || '}'
      INTO out FROM jsonb_each(j);
  WHEN 'array' THEN
    SELECT '[' || coalesce(string_agg(tourney_canonical(value), ',' ORDER BY n), '') || ']'
      INTO out FROM jsonb_array_elements(j) WITH ORDINALITY AS t(value, n);
  WHEN 'string' THEN out := to_json(j #>> '{}')::text;
  ELSE out := j::text;
  END CASE;
  RETURN out;
END $$;

-- The station write function (issue 21, item 10; issue 27, item 2): every row of
-- tourney_events, whoever inserts it, must be a canonical leaf {"event":…,"sig":…} of its
-- own tournament, the next in sequence, linked to its predecessor by SHA-256, signed (a
-- 64-byte signature) by a key the log declared before it and has not revoked, whose role
-- may sign that kind by the roles table above (kind × role, as the audit judges it; a
-- station's result citing reports or a player's own act only with that shape).  Anything
-- else is refused and never stored.  What it cannot judge (a signature's mathematics, the
-- rules of the tournament) the audit and the command side's head check do.
CREATE OR REPLACE FUNCTION tourney_admit_event() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  doc jsonb; ev jsonb; txt text; prev_state bytea; why text; fmt text; roles text;
BEGIN
  BEGIN
    txt := convert_from(NEW.state, 'UTF8');
    doc := txt::jsonb;
  EXCEPTION WHEN others THEN
    RAISE EXCEPTION 'tourney: refused row % of %: not a UTF-8 JSON leaf',
      NEW.originator_version, NEW.originator_id USING ERRCODE = 'check_violation';
  END;
  ev := doc -> 'event';
  IF jsonb_typeof(doc) <> 'object' OR ev IS NULL OR jsonb_typeof(ev) <> 'object'
     OR (SELECT count(*) FROM jsonb_object_keys(doc)) <> 2 OR doc ->> 'sig' IS NULL THEN
    why := 'not a leaf {"event":…,"sig":…}';
  ELSIF tourney_canonical(doc) <> txt THEN
    why := 'not canonical JSON';
  ELSIF ev ->> 'log' IS DISTINCT FROM NEW.originator_id
     OR jsonb_typeof(ev -> 'seq') <> 'number'
     OR (ev ->> 'seq') <> NEW.originator_version::text
     OR ev ->> 'kind' IS DISTINCT FROM NEW.topic THEN
    why := 'its log, seq or kind differs from the row';
  ELSIF (doc ->> 'sig') !~ '^[A-Za-z0-9+/]{86}==$' THEN
    why := 'no 64-byte signature';
  ELSIF NEW.originator_version = 1 THEN
    IF ev ->> 'kind' <> 'tournament_created' OR ev ->> 'prev' <> repeat('0', 64)
       OR ev #>> '{body,head_judge,key_id}' IS DISTINCT FROM ev ->> 'actor' THEN
      why := 'seq 1 is not a genesis signed by the head judge it names';
    END IF;
  ELSE
    SELECT state INTO prev_state FROM tourney_events
      WHERE originator_id = NEW.originator_id
        AND originator_version = NEW.originator_version - 1;
    IF prev_state IS NULL THEN
      why := 'it is not the next in sequence';
    ELSIF ev ->> 'prev' IS DISTINCT FROM encode(sha256(prev_state), 'hex') THEN
      why := 'it does not link to the row before it';
    ELSIF NOT EXISTS (SELECT 1 FROM tourney_declared_keys
                      WHERE log = NEW.originator_id AND key_id = ev ->> 'actor') THEN
      why := 'its signer ' || coalesce(ev ->> 'actor', '?') || ' is not a key the log declared';
    ELSIF NOT EXISTS (SELECT 1 FROM tourney_declared_keys WHERE log = NEW.originator_id
                      AND key_id = ev ->> 'actor' AND revoked_seq IS NULL) THEN
      why := 'its signer ' || (ev ->> 'actor') || ' was revoked at seq ' ||
        (SELECT max(revoked_seq) FROM tourney_declared_keys
         WHERE log = NEW.originator_id AND key_id = ev ->> 'actor');
    ELSE
      SELECT convert_from(state, 'UTF8')::jsonb #>> '{event,body,format,id}' INTO fmt
        FROM tourney_events WHERE originator_id = NEW.originator_id AND originator_version = 1;
      IF NOT EXISTS (
          SELECT 1 FROM tourney_declared_keys k JOIN tourney_signing_roles r ON r.role = k.role
          WHERE k.log = NEW.originator_id AND k.key_id = ev ->> 'actor'
            AND r.kind = ev ->> 'kind' AND r.format IN ('*', fmt)
            AND CASE r.needs WHEN 'always' THEN true
                  WHEN 'reports' THEN jsonb_typeof(ev #> '{body,reports}') = 'array'
                  WHEN 'credential' THEN jsonb_typeof(ev #> '{body,credential}') = 'string'
                  ELSE false END) THEN
        SELECT string_agg(role, ', ' ORDER BY role) INTO roles FROM tourney_declared_keys
          WHERE log = NEW.originator_id AND key_id = ev ->> 'actor';
        why := 'its signer ' || (ev ->> 'actor') || ' (' || roles || ') may not sign ' ||
          coalesce(ev ->> 'kind', '?') || ' (the roles table, RULES.md §1.3)';
      END IF;
    END IF;
  END IF;
  IF why IS NOT NULL THEN
    RAISE EXCEPTION 'tourney: refused row % of %: %', NEW.originator_version,
      NEW.originator_id, why USING ERRCODE = 'check_violation';
  END IF;
  IF ev ->> 'kind' = 'tournament_created' THEN
    INSERT INTO tourney_declared_keys (log, key_id, public_key, role, seq)
      SELECT NEW.originator_id, ev #>> '{body,head_judge,key_id}',
             ev #>> '{body,head_judge,public_key}', r, 1
      FROM unnest(ARRAY['organizer', 'head_judge']) AS r ON CONFLICT DO NOTHING;
  ELSIF ev ->> 'kind' = 'official_added' THEN
    INSERT INTO tourney_declared_keys (log, key_id, public_key, role, seq) VALUES
      (NEW.originator_id, ev #>> '{body,key_id}', ev #>> '{body,public_key}',
       ev #>> '{body,role}', NEW.originator_version) ON CONFLICT DO NOTHING;
  ELSIF ev ->> 'kind' = 'official_revoked' THEN
    UPDATE tourney_declared_keys SET revoked_seq = NEW.originator_version
      WHERE log = NEW.originator_id AND key_id = ev #>> '{body,key_id}'
        AND revoked_seq IS NULL;
  END IF;
  RETURN NEW;
END $$;
INSERT INTO tourney_declared_keys (log, key_id, public_key, role, seq)
  SELECT originator_id, j #>> '{event,body,head_judge,key_id}',
         j #>> '{event,body,head_judge,public_key}', r, 1
  FROM (SELECT originator_id, convert_from(state, 'UTF8')::jsonb AS j FROM tourney_events
        WHERE topic = 'tournament_created' AND originator_version = 1) g,
       unnest(ARRAY['organizer', 'head_judge']) AS r
  ON CONFLICT DO NOTHING;
INSERT INTO tourney_declared_keys (log, key_id, public_key, role, seq)
  SELECT originator_id, j #>> '{event,body,key_id}', j #>> '{event,body,public_key}',
         j #>> '{event,body,role}', originator_version
  FROM (SELECT originator_id, originator_version, convert_from(state, 'UTF8')::jsonb AS j
        FROM tourney_events WHERE topic = 'official_added') o
  ON CONFLICT DO NOTHING;
UPDATE tourney_declared_keys k SET revoked_seq = o.seq
  FROM (SELECT originator_id AS log, min(originator_version) AS seq,
               convert_from(state, 'UTF8')::jsonb #>> '{event,body,key_id}' AS key_id
        FROM tourney_events WHERE topic = 'official_revoked' GROUP BY 1, 3) o
  WHERE k.log = o.log AND k.key_id = o.key_id AND k.revoked_seq IS NULL;
DROP TRIGGER IF EXISTS tourney_events_admit ON tourney_events;
CREATE TRIGGER tourney_events_admit BEFORE INSERT ON tourney_events
  FOR EACH ROW EXECUTE FUNCTION tourney_admit_event();

-- Checkpoint rows: only a note of this log at this size and root, no larger than the log,
-- carrying a signature line by a head-judge key the log declared (C2SP signed-note key
-- hash).  Stations may not insert them at all (see the grants below).
CREATE OR REPLACE FUNCTION tourney_admit_checkpoint() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE txt text; body text; origin text; ok boolean;
BEGIN
  BEGIN
    txt := convert_from(NEW.note, 'UTF8');
  EXCEPTION WHEN others THEN
    txt := NULL;
  END;
  origin := 'tourney/' || NEW.log;
  body := origin || E'\n' || NEW.size || E'\n' || encode(NEW.root, 'base64') || E'\n\n';
  ok := txt IS NOT NULL AND length(NEW.root) = 32 AND left(txt, length(body)) = body
    AND NEW.size <= (SELECT coalesce(max(originator_version), 0) FROM tourney_events
                     WHERE originator_id = NEW.log)
    AND EXISTS (
      SELECT 1 FROM regexp_matches(substr(txt, length(body) + 1),
                                   E'— (\\S+) ([A-Za-z0-9+/=]+)\n', 'g') AS m(g),
                    tourney_declared_keys k
      WHERE k.log = NEW.log AND k.role = 'head_judge' AND m.g[1] = origin
        AND substr(decode(m.g[2], 'base64'), 1, 4) = substr(sha256(convert_to(origin, 'UTF8')
              || '\x0a01'::bytea || decode(k.public_key, 'base64')), 1, 4));
  IF NOT coalesce(ok, false) THEN
    RAISE EXCEPTION 'tourney: refused checkpoint of % at size %: not a note of this log '
      'signed by its head judge', NEW.log, NEW.size USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
DROP TRIGGER IF EXISTS tourney_checkpoints_admit ON tourney_checkpoints;
CREATE TRIGGER tourney_checkpoints_admit BEFORE INSERT ON tourney_checkpoints
  FOR EACH ROW EXECUTE FUNCTION tourney_admit_checkpoint();

-- The event and checkpoint tables are append-only for every role, owner included; the
-- one exception is the owner's recovery, tourney_withdraw, below.
CREATE OR REPLACE FUNCTION tourney_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND TG_TABLE_NAME = 'tourney_events' THEN
    IF current_setting('tourney.withdraw', true) =
       OLD.originator_id || ':' || OLD.originator_version THEN
      RETURN OLD;
    END IF;
  ELSIF TG_OP = 'DELETE' AND TG_TABLE_NAME = 'tourney_checkpoints' THEN
    IF current_setting('tourney.withdraw', true) = OLD.log || ':checkpoint:' || OLD.size THEN
      RETURN OLD;
    END IF;
  END IF;
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
GRANT SELECT ON tourney_checkpoints, tourney_declared_keys, tourney_withdrawn,
  tourney_signing_roles TO :"station";
-- checkpoint rows are written by the head judge's (owner) role only
REVOKE INSERT, UPDATE, DELETE ON tourney_checkpoints FROM :"station";

-- The recovery (docs/OPERATIONS.md, "A bad row"): the owner withdraws the newest rows of
-- a tournament from seq FROM_SEQ on, or one checkpoint row, when the audit or a refused
-- command names it as bad.  Only rows no checkpoint covers; each is kept in
-- tourney_withdrawn with the reason and the role that withdrew it.  Stations may not.
CREATE OR REPLACE FUNCTION tourney_withdraw(p_log text, p_from bigint, p_reason text)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE r record; n integer := 0; top bigint;
BEGIN
  IF coalesce(trim(p_reason), '') = '' THEN
    RAISE EXCEPTION 'tourney_withdraw: give the reason (the audit finding or error)';
  END IF;
  IF EXISTS (SELECT 1 FROM tourney_checkpoints WHERE log = p_log AND size >= p_from) THEN
    RAISE EXCEPTION 'tourney_withdraw: a checkpoint of % covers seq %: signed history is '
      'never withdrawn (withdraw the checkpoint row first if it is the bad one)', p_log, p_from;
  END IF;
  SELECT max(originator_version) INTO top FROM tourney_events WHERE originator_id = p_log;
  FOR r IN SELECT * FROM tourney_events WHERE originator_id = p_log
           AND originator_version >= p_from ORDER BY originator_version DESC LOOP
    INSERT INTO tourney_withdrawn (log, what, version, data, reason, withdrawn_by)
      VALUES (p_log, 'event', r.originator_version, r.state, p_reason, session_user);
    PERFORM set_config('tourney.withdraw', p_log || ':' || r.originator_version, true);
    DELETE FROM tourney_events WHERE originator_id = p_log
      AND originator_version = r.originator_version;
    n := n + 1;
  END LOOP;
  PERFORM set_config('tourney.withdraw', '', true);
  DELETE FROM tourney_snapshots WHERE originator_id = p_log;  -- caches: rebuilt on use
  DELETE FROM tourney_declared_keys WHERE log = p_log AND seq >= p_from;
  UPDATE tourney_declared_keys SET revoked_seq = NULL
    WHERE log = p_log AND revoked_seq >= p_from;
  RETURN n;
END $$;
CREATE OR REPLACE FUNCTION tourney_withdraw_checkpoint(p_log text, p_size bigint,
  p_reason text) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE n integer;
BEGIN
  IF coalesce(trim(p_reason), '') = '' THEN
    RAISE EXCEPTION 'tourney_withdraw_checkpoint: give the reason';
  END IF;
  INSERT INTO tourney_withdrawn (log, what, version, data, reason, withdrawn_by)
    SELECT log, 'checkpoint', size, note, p_reason, session_user FROM tourney_checkpoints
    WHERE log = p_log AND size = p_size;
  PERFORM set_config('tourney.withdraw', p_log || ':checkpoint:' || p_size, true);
  DELETE FROM tourney_checkpoints WHERE log = p_log AND size = p_size;
  GET DIAGNOSTICS n = ROW_COUNT;
  PERFORM set_config('tourney.withdraw', '', true);
  RETURN n;
END $$;
REVOKE ALL ON FUNCTION tourney_withdraw(text, bigint, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION tourney_withdraw_checkpoint(text, bigint, text) FROM PUBLIC;
DROP TRIGGER IF EXISTS tourney_withdrawn_append_only ON tourney_withdrawn;
CREATE TRIGGER tourney_withdrawn_append_only BEFORE UPDATE OR DELETE ON tourney_withdrawn
  FOR EACH ROW EXECUTE FUNCTION tourney_append_only();

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
