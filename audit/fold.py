"""The audit's fold: every leaf in order through bytes, canonical form, chain, signature
job, roles, rules, text and state, then signatures, times and checkpoints
(DESIGN.md §2, docs/AUDIT.md §2).

Owns: ``fold_report`` (the audit of a non-empty log whose signature jobs are already
running, see ``audit.verify.start_signatures``).  Never trusts snapshots or projections:
it refolds every event with the same ``ledger.rules.check`` / ``ledger.state.apply_event``
the command side uses.  Imported by ``audit.verify`` only once the signature workers are
running, so its imports (every format) overlap with signature checks.

May import: ``ledger.*``, ``projections.report``, ``audit.findings``, ``audit.sigpool``,
``audit.checkpoints``, ``audit.timing``.
"""

from __future__ import annotations

import gc
import hashlib
from collections.abc import Callable, Sequence

import msgspec

import ledger.formats.registry  # noqa: F401  (the formats the audit re-runs)
from audit.checkpoints import NoteFile, note_findings, parse_notes
from audit.findings import Finding, Report, Severity, finding, make_report, rule_finding
from audit.sigpool import SignaturePool
from audit.timing import time_findings
from ledger.canonical import NonCanonicalError
from ledger.errors import RuleError
from ledger.events import (
    SIG_DOMAIN,
    ZERO_HASH,
    ReportPublished,
    SeedRecorded,
    TournamentCreated,
    parse_leaf,
)
from ledger.formats.officiating.notices import notice
from ledger.formats.wot.events import TbpOverridden
from ledger.merkle import MerkleAccumulator, leaf_hash
from ledger.rules import check
from ledger.state import TournamentState, apply_event
from ledger.text import (
    MAX_LEAF_BYTES,
    check_leaf_size,
    check_text,
    check_text_typed,
    leaf_is_plain,
    leaf_text_clean,
)

Progress = Callable[[int, int], None]


def _check_report_event(state: TournamentState, body: ReportPublished, seq: int,
                        root: bytes | None) -> list[Finding]:
    """A ``report_published`` states exactly what the log says at its size (recomputed
    with the projections, never trusted)."""
    from projections.report import compare_figures, report_figures

    if body.size != state.size or root is None:
        return []  # the rules already flag a report that does not cover the log before it
    if body.root != root.hex():
        return [finding("report_mismatch", seq, f"report root {body.root[:16]}… is not the "
                        f"log's root at size {body.size}")]
    try:
        derived = report_figures(state, body.size, root.hex())
    except Exception as exc:  # noqa: BLE001 - a hostile log must not stop the audit
        return [finding("report_mismatch", seq, f"figures cannot be recomputed: {exc}")]
    return [finding("report_mismatch", seq, d)
            for d in compare_figures(body.figures, derived)]


def _reveal_notes(leaves: Sequence[tuple[int, bytes]]) -> list[NoteFile]:
    """Checkpoint notes carried inside commit-reveal seeds: audited like exported ones,
    so a note whose root is not the log's is caught (THREATS T16)."""
    out: list[NoteFile] = []
    for _ver, leaf in leaves:
        if b'"commit_reveal"' not in leaf:
            continue
        try:
            ev = parse_leaf(leaf).event
        except NonCanonicalError:
            continue
        if isinstance(ev.body, SeedRecorded) and ev.body.checkpoint:
            out.append((f"checkpoint in seq {ev.seq}", ev.body.checkpoint.encode("utf-8")))
    return out


def _fold(leaves: Sequence[tuple[int, bytes]], log: str | None, wanted_sizes: set[int],
          keys: dict[str, bytes], sigs: SignaturePool, times: list[str],
          findings: list[Finding], progress: Progress | None
          ) -> tuple[TournamentState, MerkleAccumulator, dict[int, bytes], int]:
    """Every leaf in order: bytes, canonical form, chain, signature job, rules, text, state
    (the per-event steps of docs/AUDIT.md §2); returns the folded state, the Merkle
    accumulator, the roots at the wanted sizes and the champion's seq."""
    state = TournamentState()
    acc = MerkleAccumulator()
    roots: dict[int, bytes] = {}
    prev = ZERO_HASH
    champion_seq = 0
    total = len(leaves)
    for i, (version, leaf) in enumerate(leaves, start=1):
        root_before = acc.root() if b'"report_published"' in leaf else None
        acc.append(leaf_hash(leaf))
        if i in wanted_sizes:
            roots[i] = acc.root()
        this_hash = hashlib.sha256(leaf).hexdigest()
        if version != i:
            findings.append(finding("seq_gap", i, f"stored version {version} at position "
                                    f"{i}: an event was deleted or inserted"))
        try:
            parsed = parse_leaf(leaf)
        except NonCanonicalError as exc:
            findings.append(finding("malformed", i, exc.message))
            prev = this_hash
            times.append("")
            continue
        ev = parsed.event
        times.append(ev.time)
        if parsed.noncanonical is not None:
            findings.append(finding("non_canonical", i, parsed.noncanonical))
        if log is not None and ev.log != log:
            findings.append(finding("log_mismatch", i, f"event belongs to log {ev.log!r}, "
                                    f"not {log!r}"))
        if ev.seq != i:
            findings.append(finding("seq_mismatch", i, f"event says seq {ev.seq} at "
                                    f"position {i}"))
        if ev.prev != prev:
            findings.append(finding("chain_broken", i, f"prev {ev.prev[:16]}… is not the hash "
                                    f"of event {i - 1} ({prev[:16]}…)"))
        if (i == 1) != isinstance(ev.body, TournamentCreated):
            findings.append(finding("genesis", i, "seq 1 must be tournament_created, and only "
                                    "seq 1"))
        pub = keys.get(ev.actor)
        if pub is not None and not sigs.confirm(i, leaf, ev.actor, ev.sig,
                                                parsed.noncanonical is None):
            sigs.add(i, (pub, ev.sig, SIG_DOMAIN + parsed.signed_bytes))
        try:
            check(state, ev.body, ev.actor)
            if isinstance(ev.body, TbpOverridden):        # WOTOLD-FORF-2: listed for review
                b = ev.body
                findings.append(finding("tbp_override", i, f"Judge override: Game {b.round} "
                                        f"table {b.table}: #{b.number} TBP {b.old} -> {b.new} "
                                        f"(method: {b.method}; reason: {b.reason})"))
        except RuleError as exc:
            findings.append(rule_finding(exc.finding, i, exc.message))
        except Exception as exc:  # noqa: BLE001 - a hostile log must not stop the audit
            findings.append(finding("rule_violation", i, f"event cannot be checked "
                                    f"against the state: {type(exc).__name__}: {exc}"))
        if ev.kind == "champion_declared":
            champion_seq = i
        if isinstance(ev.body, ReportPublished):
            findings.extend(_check_report_event(state, ev.body, i, root_before))
        if isinstance(ev.body, SeedRecorded) and ev.body.gap_reason:
            findings.append(finding("random_org_serial_gap_explained", i, "RANDOM.ORG "
                                    f"serials skipped; the head judge says: "
                                    f"{ev.body.gap_reason}"))
        text_problems = _text_findings(i, leaf, ev.body, len(state.players))
        if text_problems:
            findings.extend(text_problems)
        try:
            noted = notice(state, ev.body)
        except Exception:  # noqa: BLE001 - a notice never stops the audit
            noted = None
        if noted is not None:
            findings.append(finding(noted[0], i, noted[1]))
        try:
            apply_event(state, ev, this_hash)
        except Exception as exc:  # noqa: BLE001 - report, keep going with the state so far
            findings.append(finding("malformed", i, f"event cannot be applied: "
                                    f"{type(exc).__name__}: {exc}"))
        prev = this_hash
        if progress is not None and (i % 1000 == 0 or i == total):
            progress(i, total)

    return state, acc, roots, champion_seq


def fold_report(leaves: Sequence[tuple[int, bytes]], notes: Sequence[NoteFile], *,
                log: str | None, source: str, progress: Progress | None,
                sigs: SignaturePool, keys: dict[str, bytes]) -> Report:
    """The audit of non-empty ``leaves`` whose signature jobs were started (``sigs``,
    ``keys``): notes, the fold, signatures, times, checkpoints, the report."""
    findings: list[Finding] = []
    parsed_notes, note_problems = parse_notes([*notes, *_reveal_notes(leaves)])
    findings.extend(note_problems)
    wanted_sizes = {cp.size for _n, _b, cp, _s in parsed_notes}
    times: list[str] = []

    was_enabled = gc.isenabled()
    gc.disable()  # the fold allocates many small acyclic objects: collections would dominate
    try:
        state, acc, roots, champion_seq = _fold(leaves, log, wanted_sizes, keys, sigs, times,
                                                findings, progress)
    finally:
        if was_enabled:
            gc.enable()
    for com in state.commitments.values():
        if com.revealed_seq is None:
            findings.append(finding("commitment_unrevealed", com.seq, "seed commitment "
                                    "was never revealed"))
    for seq in sigs.failures():
        findings.append(finding("bad_signature", seq, "Ed25519 signature does not verify "
                                "over the canonical event"))
    tolerance = state.ledger_policy.time_tolerance_s
    findings.extend(f for f in time_findings(times, tolerance)
                    if f.code != "time_malformed" or times[(f.seq or 1) - 1])
    total = len(leaves)
    notes_found = note_findings(parsed_notes, roots, state, total, log)
    findings.extend(notes_found)
    if champion_seq:
        bad = {f.seq for f in notes_found if f.severity is Severity.ERROR}
        sealed = max((cp.size for _n, _b, cp, _s in parsed_notes if cp.size not in bad),
                     default=0)
        if sealed < champion_seq:
            findings.append(finding("event_not_sealed", champion_seq, "the champion is "
                                    "declared but no end-of-event checkpoint covers it"))
    return make_report(log=log, events=total, root=acc.root().hex(),
                       checkpoints=len(parsed_notes), findings=findings, source=source)




def _text_findings(i: int, leaf: bytes, body: object, players: int = 0) -> list[Finding]:
    """Free text and size limits (docs/AUDIT.md §2 step 9a), the same rule the command
    side applies before signing; the exact check runs only on leaves the byte prefilter
    cannot clear."""
    out: list[Finding] = []
    if len(leaf) > MAX_LEAF_BYTES:
        try:
            check_leaf_size(len(leaf), players)
        except RuleError as exc:
            out.append(finding(exc.finding, i, exc.message))
    if leaf_text_clean(leaf):
        return out
    try:
        if leaf_is_plain(leaf):
            check_text_typed(body)  # type: ignore[arg-type]
        else:
            check_text(msgspec.json.decode(leaf).get("event", {}).get("body"))
    except RuleError as exc:
        out.append(finding(exc.finding, i, exc.message))
    except Exception as exc:  # noqa: BLE001 - a hostile body must not stop the audit
        out.append(finding("unsafe_text", i, f"text cannot be checked: {exc}"))
    return out
