"""Audit findings and the report (the ``audit verify --json`` contract, DESIGN.md §8).

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
    "penalty_mismatch": Severity.ERROR,
    "penalty_not_applied": Severity.ERROR,
    "disqualified_paired": Severity.ERROR,
    "challenge_limit_exceeded": Severity.ERROR,
    "time_regressed": Severity.WARNING,
    "checkpoint_malformed": Severity.ERROR,
    "checkpoint_origin_mismatch": Severity.ERROR,
    "checkpoint_bad_signature": Severity.ERROR,
    "checkpoint_root_mismatch": Severity.ERROR,
    "checkpoint_beyond_log": Severity.ERROR,
    "checkpoint_fork": Severity.ERROR,
    "checkpoint_misnamed": Severity.WARNING,
    "no_checkpoint": Severity.WARNING,
    "unsealed_tail": Severity.INFO,
    "pairing_overridden": Severity.INFO,
}


class Finding(msgspec.Struct, frozen=True):
    code: str
    seq: int | None
    severity: Severity
    message: str


def finding(code: str, seq: int | None, message: str) -> Finding:
    return Finding(code=code, seq=seq, severity=CODES[code], message=message)


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
