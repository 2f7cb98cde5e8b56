"""``tourney audit report``: does a published report equal what the log says?

Owns: ``report_document`` (the ``report.json`` that ``tourney publish`` writes: the figures,
their digest and the exact signed ``report_published`` leaf) and ``verify_report`` (the whole
audit of the log, plus: the report's leaf is in the log at its seq, no later report
superseded it, and every figure in the file equals the one recomputed from the first
``size`` events with the projections).

May import: ``msgspec``, ``ledger.*``, ``projections.*``, ``audit.findings``, ``audit.verify``.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from audit.findings import Finding, Report, finding, make_report
from audit.verify import audit_leaves, load_target
from ledger.core.state import TournamentState, apply_event
from ledger.proofs.merkle import leaf_hash, root_from_hashes
from ledger.wire.canonical import NonCanonicalError, canonical
from ledger.wire.events import ReportPublished, SignedEvent, parse_leaf
from projections.report import compare_figures, report_figures

REPORT_DOC = "tourney-report-file/v1"


def report_document(ev: SignedEvent, notes: dict[str, str]) -> dict[str, Any]:
    """What ``report.json`` holds: self-contained, checkable against any copy of the log."""
    body = ev.body
    if not isinstance(body, ReportPublished):
        raise TypeError(f"seq {ev.seq} is not a report_published")
    return {"version": REPORT_DOC, "tournament": ev.log, "seq": ev.seq, "actor": ev.actor,
            "digest": body.digest, "figures": body.figures,
            "leaf": base64.b64encode(ev.leaf).decode("ascii"),
            "leaf_hash": ev.leaf_hash_hex, "checkpoints": notes}


def _file_findings(doc: Any, leaves: list[tuple[int, bytes]]) -> list[Finding]:
    if not isinstance(doc, dict) or doc.get("version") != REPORT_DOC:
        return [finding("report_malformed", None, f"not a {REPORT_DOC} document (its "
                        "\"version\" is missing or other): pass the report.json that "
                        "'tourney publish' wrote")]
    seq, figures = doc.get("seq"), doc.get("figures")
    try:
        leaf = base64.b64decode(str(doc.get("leaf")), validate=True)
    except ValueError:
        return [finding("report_malformed", None, "leaf is not base64")]
    if not isinstance(seq, int) or not 1 <= seq <= len(leaves) or leaves[seq - 1][1] != leaf:
        return [finding("report_not_in_log", seq if isinstance(seq, int) else None,
                        "the report's signed event is not in this log at its seq")]
    try:
        body = parse_leaf(leaf).event.body
    except NonCanonicalError as exc:
        return [finding("report_malformed", seq, exc.message)]
    if not isinstance(body, ReportPublished):
        return [finding("report_malformed", seq, f"seq {seq} is not a report_published")]
    out: list[Finding] = _superseded(leaves, seq)
    if not isinstance(figures, dict):
        return [finding("report_malformed", seq, "figures are not an object")]
    try:
        digest = hashlib.sha256(canonical(figures)).hexdigest()
    except Exception as exc:  # noqa: BLE001 - floats, huge ints: not a valid report
        return [finding("report_malformed", seq, f"figures are not canonical JSON: {exc}")]
    if digest != body.digest or doc.get("digest") != body.digest:
        out.append(finding("report_mismatch", seq, "the file's figures are not the ones the "
                           "head judge signed (digest differs)"))
    state = TournamentState()
    for _v, raw in leaves[:body.size]:
        apply_event(state, parse_leaf(raw).event)
    root = root_from_hashes([leaf_hash(raw) for _v, raw in leaves[:body.size]])
    derived = report_figures(state, body.size, root.hex())
    out += [finding("report_mismatch", seq, d) for d in compare_figures(figures, derived)]
    return out


def _superseded(leaves: list[tuple[int, bytes]], seq: int) -> list[Finding]:
    """Issue 21 item 9: a report that a later ``report_published`` superseded (e.g. one
    made before a disqualification) is not the log's report any more: name the newest."""
    later = [i for i, (_v, raw) in enumerate(leaves[seq:], start=seq + 1)
             if b'"kind":"report_published"' in raw]
    if not later:
        return []
    newest = later[-1]
    return [finding("report_superseded", seq, f"the report at seq {seq} is superseded by "
                    f"the report at seq {newest} (published later"
                    + (f"; {len(later)} later reports in all" if len(later) > 1 else "")
                    + "): check that one instead")]


def verify_report(report_file: Path, target: str | None, *, tournament: str | None,
                  checkpoints: Sequence[Path] = ()) -> Report:
    """The audit of ``target`` (ledger or bundle) plus the report file's own checks."""
    from ledger.errors import UsageError

    try:
        raw = report_file.read_bytes()
    except FileNotFoundError:
        raise UsageError(f"report {report_file} not found",
                         hint="pass DIR/report.json written by 'tourney publish'") from None
    except IsADirectoryError:
        raise UsageError(f"report {report_file} is a directory",
                         hint="pass DIR/report.json written by 'tourney publish'") from None
    # a file that is not JSON is a malformed report, like any other that is not one:
    # finding report_malformed, exit 4 (docs/AUDIT.md §3.3; issue 21 item 23)
    unreadable: Finding | None = None
    doc: Any = None
    try:
        doc = msgspec.json.decode(raw)
    except msgspec.DecodeError as exc:
        unreadable = finding("report_malformed", None, f"{report_file.name} is not JSON "
                             f"({exc}): pass the report.json that 'tourney publish' wrote")
    leaves, notes, log, source = load_target(target, tournament, checkpoints)
    base = audit_leaves(leaves, notes, log=log, source=source)
    try:
        extra = [unreadable] if unreadable is not None else _file_findings(doc, leaves)
    except NonCanonicalError as exc:
        extra = [finding("report_malformed", None, f"the log cannot be folded: {exc.message}")]
    return make_report(log=base.log, events=base.events, root=base.root,
                       checkpoints=base.checkpoints, findings=[*base.findings, *extra],
                       source=source)
