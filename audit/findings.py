"""Audit findings and the report (the ``audit verify --json`` contract, docs/DESIGN.md §8).

Owns: ``Severity``, the closed set of finding ``CODES`` with their meaning (mirrored in
docs/AUDIT.md), ``Finding`` and ``Report`` and their JSON encoding.

May import: ``msgspec``.
"""

from __future__ import annotations

from enum import Enum

import msgspec


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


#: Every finding code the audit can emit, with its default severity (stable forever).
CODES: dict[str, Severity] = {
    "empty_log": Severity.ERROR,
    "malformed": Severity.ERROR,
    "non_canonical": Severity.ERROR,
    "seq_gap": Severity.ERROR,
    "seq_mismatch": Severity.ERROR,
    "log_mismatch": Severity.ERROR,
    "chain_broken": Severity.ERROR,
    "genesis": Severity.ERROR,
    "bad_signature": Severity.ERROR,
    "unknown_key": Severity.ERROR,
    "key_revoked": Severity.ERROR,
    "role_not_permitted": Severity.ERROR,
    "bad_key": Severity.ERROR,
    "seed_mismatch": Severity.ERROR,
    "draw_seed_unknown": Severity.ERROR,
    "draw_ctx_reused": Severity.ERROR,
    "draw_mismatch": Severity.ERROR,
    "rule_violation": Severity.ERROR,
    "pairing_mismatch": Severity.ERROR,
    "result_mismatch": Severity.ERROR,
    "drop_mismatch": Severity.ERROR,
    "standings_mismatch": Severity.ERROR,
    "cut_mismatch": Severity.ERROR,
    "bracket_mismatch": Severity.ERROR,
    "unknown_format": Severity.ERROR,
    "wot_result_invalid": Severity.ERROR,
    "wot_sides_mismatch": Severity.ERROR,
    "wot_override_invalid": Severity.ERROR,
    "wot_override_stale": Severity.ERROR,
    "forfeit_mismatch": Severity.ERROR,
    "tbp_override": Severity.INFO,
    # issue 30: judge calls and the extensions they earn (CALL-1..6, EOM-EXT-1)
    "call_invalid": Severity.ERROR,
    "extension_above_cap": Severity.ERROR,
    "extension_proposal_mismatch": Severity.ERROR,
    # verifiable randomness and re-roll hygiene (ledger.randomness.rules)
    "seed_attestation_missing": Severity.ERROR,
    "random_org_malformed": Severity.ERROR,
    "random_org_bad_signature": Severity.ERROR,
    "random_org_mismatch": Severity.ERROR,
    "random_org_serial_gap": Severity.ERROR,
    "random_org_serial_gap_explained": Severity.WARNING,
    "random_org_serial_reused": Severity.ERROR,
    "drand_malformed": Severity.ERROR,
    "drand_unknown_chain": Severity.ERROR,
    "drand_bad_signature": Severity.ERROR,
    "drand_round_mismatch": Severity.ERROR,
    "drand_randomness_mismatch": Severity.ERROR,
    "commit_unknown": Severity.ERROR,
    "commit_reused": Severity.ERROR,
    "reveal_mismatch": Severity.ERROR,
    "commitment_not_sealed": Severity.ERROR,
    "commitment_unrevealed": Severity.INFO,
    "draw_seed_other_ctx": Severity.ERROR,
    # issue 21 (ledger.randomness.binding): seeds bound to time and to their draw
    "seed_predates_need": Severity.ERROR,
    "drand_beacon_reused": Severity.ERROR,
    "random_org_userdata_mismatch": Severity.ERROR,
    "commitment_duplicate": Severity.ERROR,
    "commitment_bypassed": Severity.ERROR,
    "draw_seed_reused": Severity.ERROR,
    "draw_items_not_roster": Severity.ERROR,
    # issue 30 item 3 (ledger.formats.officiating.deck_rules): the deck-check draw
    "deck_draw_not_round": Severity.ERROR,
    "deck_draw_items": Severity.ERROR,
    "deck_draw_seed_early": Severity.ERROR,
    "deck_list_mismatch": Severity.ERROR,   # a published list is not the registered one
    "deck_draw_count": Severity.ERROR,      # DECK-DRAW-2: K announced is not 1..tables
    "deck_check_not_drawn": Severity.ERROR,  # DECK-DRAW-2: a "drawn" check not in the first K
    "deck_after_deadline": Severity.ERROR,  # DECK-LIST-1: a player's list after the deadline
    "deck_immutable": Severity.ERROR,       # BR-DECK-1: a second registration of a list
    "call_cites_not_ruling": Severity.ERROR,  # CALL-5: a call cites no ruling/penalty/appeal
    "report_mismatch": Severity.ERROR,
    "report_not_in_log": Severity.ERROR,
    "report_malformed": Severity.ERROR,
    "report_superseded": Severity.ERROR,  # issue 21 item 9: a later report replaced it
    "proof_invalid": Severity.ERROR,
    "event_not_sealed": Severity.WARNING,
    "swiss_after_stop": Severity.ERROR,       # HotC R2: a Swiss round paired once HOTC-STOP-1 held
    "invitation_missing": Severity.ERROR,     # HOTC-ENTRY-1: registered without an invitation
    "slow_play_mismatch": Severity.ERROR,     # HOTC-SLOW-1/2: a call or ruling the rules refuse
    "penalty_mismatch": Severity.ERROR,
    "penalty_not_applied": Severity.ERROR,
    "disqualified_paired": Severity.ERROR,
    "challenge_limit_exceeded": Severity.ERROR,
    "time_regressed": Severity.WARNING,
    "time_jump": Severity.WARNING,
    "time_malformed": Severity.ERROR,
    "unsafe_text": Severity.ERROR,
    "oversized": Severity.ERROR,
    "checkpoint_malformed": Severity.ERROR,
    "checkpoint_origin_mismatch": Severity.ERROR,
    "checkpoint_bad_signature": Severity.ERROR,
    "checkpoint_root_mismatch": Severity.ERROR,
    "checkpoint_beyond_log": Severity.ERROR,
    "checkpoint_fork": Severity.ERROR,
    "checkpoint_misnamed": Severity.WARNING,
    "no_checkpoint": Severity.WARNING,
    "unsealed_tail": Severity.INFO,
    "cosignature_bad": Severity.ERROR,
    "cosignature_inconsistent": Severity.ERROR,
    "cosignature_stale": Severity.ERROR,
    "cosignature_revoked": Severity.WARNING,
    "witness_quorum_missing": Severity.ERROR,
    "witness_quorum_pending": Severity.INFO,
    "pairing_overridden": Severity.INFO,
    "pairing_voided": Severity.INFO,
    "pairing_voided_again": Severity.WARNING,  # issue 21 item 3: a round voided twice or more
    # issue 19 (ADR 0027): players' credentials and self-reported results (REPORT-1..8)
    "credential_malformed": Severity.ERROR,        # REPORT-1
    "credential_unknown_holder": Severity.ERROR,   # REPORT-1
    "credential_twice": Severity.ERROR,            # REPORT-2
    "credential_not_live": Severity.ERROR,         # REPORT-3
    "player_report_credential": Severity.ERROR,    # REPORT-4
    "player_report_wrong_table": Severity.ERROR,   # REPORT-5
    "player_report_closed": Severity.ERROR,        # REPORT-6
    "player_report_invalid": Severity.ERROR,       # REPORT-7
    "player_report_duplicate": Severity.ERROR,     # REPORT-8
    "report_rejection_invalid": Severity.ERROR,    # REPORT-14
    "player_act_credential": Severity.ERROR,       # REPORT-15
    "device_key_invalid": Severity.ERROR,          # REPORT-16
    "player_report_device_sig": Severity.ERROR,    # REPORT-17
    "device_key_rebound": Severity.ERROR,          # REPORT-18 (issue 27)
    "device_statement_replayed": Severity.ERROR,   # REPORT-19 (issue 27)
    "player_act_device_sig": Severity.ERROR,       # REPORT-20 (issue 27)
    "player_report_seat": Severity.ERROR,          # REPORT-21 (issue 32: team seats)
    "result_citation_invalid": Severity.ERROR,     # REPORT-10
    "station_result_invalid": Severity.ERROR,      # REPORT-11/12
}


class Finding(msgspec.Struct, frozen=True):
    code: str
    seq: int | None
    severity: Severity
    message: str


def finding(code: str, seq: int | None, message: str) -> Finding:
    return Finding(code=code, seq=seq, severity=CODES[code], message=message)


def rule_finding(code: str, seq: int | None, message: str) -> Finding:
    """A refused rule as a finding: its own code when it is one of ``CODES``, else
    ``rule_violation`` naming the rule module's code (the set stays closed and stable)."""
    if code in CODES:
        return finding(code, seq, message)
    return finding("rule_violation", seq, f"{message} ({code})")


class Report(msgspec.Struct):
    ok: bool
    log: str | None
    events: int
    root: str | None
    checkpoints: int
    findings: list[Finding]
    source: str = ""


def make_report(*, log: str | None, events: int, root: str | None, checkpoints: int,
                findings: list[Finding], source: str) -> Report:
    ordered = sorted(findings, key=lambda f: (f.seq is None, f.seq or 0, f.code))
    ok = not any(f.severity is Severity.ERROR for f in ordered)
    return Report(ok=ok, log=log, events=events, root=root, checkpoints=checkpoints,
                  findings=ordered, source=source)


def report_json(report: Report) -> bytes:
    return msgspec.json.encode(report)
