"""The audit's fold: every leaf in order through bytes, canonical form, chain, signature
job, roles, rules, text and state, then signatures, times and checkpoints
(docs/DESIGN.md §2, docs/AUDIT.md §2).

Owns: ``fold_report`` (the audit of a non-empty log whose signature jobs are already
running, see ``audit.verify.start_signatures``).  Never trusts snapshots or projections:
it refolds every event with the same ``ledger.core.rules.check`` / ``ledger.core.state.apply_event``
the command side uses.  Imported by ``audit.verify`` only once the signature workers are
running, so its imports (every format) overlap with signature checks.

May import: ``ledger.*``, ``projections.report``, ``audit.findings``, ``audit.sigpool``,
``audit.leafcheck``, ``audit.checkpoints``, ``audit.timing``.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Sequence

import ledger.formats.registry  # noqa: F401  (the formats the audit re-runs)
from audit.checkpoints import NoteFile, note_findings, parse_notes
from audit.findings import Finding, Report, Severity, finding, make_report, rule_finding
from audit.leafcheck import chain_hash, leaf_findings
from audit.sigpool import SignaturePool
from audit.timing import time_findings
from ledger.core.event_time import event_time_scope
from ledger.core.format_socket import plugin_for
from ledger.core.rules import check
from ledger.core.state import TournamentState, apply_event
from ledger.errors import RuleError
from ledger.proofs.merkle import MerkleAccumulator, leaf_hash
from ledger.wire.canonical import NonCanonicalError
from ledger.wire.events import (
    SIG_DOMAIN,
    ZERO_HASH,
    ReportPublished,
    SeedRecorded,
    SignedEvent,
    decode_checked,
    parse_leaf,
)
from ledger.wire.text import MAX_LEAF_BYTES, check_leaf_size

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
    accumulator, the roots at the wanted sizes and the champion's seq.  The stateless
    steps of a leaf the signature workers cleared (``audit.prechecks``) are not run
    again: its hashes are theirs and it is decoded without checking its form."""
    state = TournamentState()
    acc = MerkleAccumulator()
    roots: dict[int, bytes] = {}
    prev = ZERO_HASH
    champion_seq = 0
    total = len(leaves)
    pre = sigs.prechecks(log)
    ahead = False  # the current block was checked by a worker
    for i, (version, leaf) in enumerate(leaves, start=1):
        k = i - 1
        if pre is not None and k % pre.block == 0:
            ahead = pre.take(k // pre.block)
        if ahead and pre is not None and pre.clear(k):
            digest, merkle_leaf = pre.chain_and_leaf_hash(k)
            this_hash = digest.hex()
            ev = decode_checked(leaf)
            if ev.actor in keys:
                sigs.counted(i)
        else:
            this_hash, merkle_leaf = chain_hash(leaf), leaf_hash(leaf)
            parsed = leaf_findings(i, version, leaf, log, prev, findings)
            if parsed is None:
                ev = None
            else:
                ev = parsed.event
                pub = keys.get(ev.actor)
                if pub is not None and not sigs.confirm(i, leaf, ev.actor, ev.sig,
                                                        parsed.noncanonical is None):
                    sigs.add(i, (pub, ev.sig, SIG_DOMAIN + parsed.signed_bytes))
        root_before = acc.root() if ev is not None and ev.kind == "report_published" \
            else None
        acc.append(merkle_leaf)
        if i in wanted_sizes:
            roots[i] = acc.root()
        prev = this_hash
        if ev is None:
            times.append("")
            continue
        times.append(ev.time)
        champion_seq = _transition(state, ev, i, leaf, this_hash, merkle_leaf, root_before,
                                   findings) or champion_seq
        if progress is not None and (i % 1000 == 0 or i == total):
            progress(i, total)

    return state, acc, roots, champion_seq


def _transition(state: TournamentState, ev: SignedEvent, i: int, leaf: bytes,
                this_hash: str, merkle_leaf: bytes, root_before: bytes | None,
                findings: list[Finding]) -> int:
    """The state's part of leaf ``i``: roles and rules, the size limit (it grows with the
    players), the report and the notices, then the transition; ``i`` if it declares the
    champion, else 0."""
    checked = False
    try:
        with event_time_scope(ev.time):
            check(state, ev.body, ev.actor)
        checked = True
    except RuleError as exc:
        findings.append(rule_finding(exc.finding, i, exc.message))
    except Exception as exc:  # noqa: BLE001 - a hostile log must not stop the audit
        findings.append(finding("rule_violation", i, f"event cannot be checked "
                                f"against the state: {type(exc).__name__}: {exc}"))
    if isinstance(ev.body, ReportPublished):
        findings.extend(_check_report_event(state, ev.body, i, root_before))
    if isinstance(ev.body, SeedRecorded) and ev.body.gap_reason:
        findings.append(finding("random_org_serial_gap_explained", i, "RANDOM.ORG "
                                f"serials skipped; the head judge says: "
                                f"{ev.body.gap_reason}"))
    if len(leaf) > MAX_LEAF_BYTES:
        try:
            check_leaf_size(len(leaf), len(state.players))
        except RuleError as exc:
            findings.append(finding(exc.finding, i, exc.message))
    try:       # the format's notices (a head judge's pairing, a Judge's override …)
        plugin = plugin_for(state.format.id if state.format else None)
        noted = None if plugin is None else plugin.rules.notice(state, ev.body, checked)
    except Exception:  # noqa: BLE001 - a notice never stops the audit
        noted = None
    if noted is not None:
        findings.append(finding(noted[0], i, noted[1]))
    try:
        apply_event(state, ev, this_hash, merkle_leaf)
    except Exception as exc:  # noqa: BLE001 - report, keep going with the state so far
        findings.append(finding("malformed", i, f"event cannot be applied: "
                                f"{type(exc).__name__}: {exc}"))
    return i if ev.kind == "champion_declared" else 0


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

