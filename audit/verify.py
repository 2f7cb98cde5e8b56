"""The independent verifier: bytes → canonical form → signature → chain → roles → rules
→ Merkle roots at every checkpoint (DESIGN.md §2, docs/AUDIT.md).

Owns: ``audit_leaves`` (the whole audit over a sequence of stored leaves plus checkpoint
notes), ``verify_ledger`` (a SQLite file or PostgreSQL URL) and ``verify_bundle`` (an
exported directory).  Collects findings with stable codes and never stops at the first;
never trusts snapshots or projections: it refolds every event with the same
``ledger.rules.check`` / ``ledger.state.apply_event`` the command side uses.

May import: ``ledger.*``, ``audit.findings``, ``audit.sigpool``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from pathlib import Path

from audit.findings import Finding, Report, finding, make_report
from audit.sigpool import SignaturePool
from ledger.canonical import NonCanonicalError
from ledger.checkpoint import Checkpoint, CheckpointError, parse_checkpoint_note
from ledger.checkpoint_store import (
    checkpoint_dir,
    ledger_notes,
    list_checkpoint_files,
    origin_of,
    trusted_checkpoint,
)
from ledger.errors import RuleError, UsageError
from ledger.events import (
    SIG_DOMAIN,
    ZERO_HASH,
    OfficialAdded,
    TournamentCreated,
    parse_leaf,
)
from ledger.merkle import MerkleAccumulator, leaf_hash
from ledger.rules import check
from ledger.state import TournamentState, apply_event
from ledger.store import Ledger, Location

Progress = Callable[[int, int], None]
NoteFile = tuple[str, bytes]  # (display name, note bytes)
_GENESIS = b'"kind":"tournament_created"'


def _key_map(leaves: Sequence[tuple[int, bytes]]) -> dict[str, bytes]:
    """Every key the log declares (key id → raw public key), for signature checks.

    Whether a key may sign at a given seq is decided later, in order, by the rules.
    """
    import base64

    keys: dict[str, bytes] = {}
    for _ver, leaf in leaves:
        if b"official_added" not in leaf and _GENESIS not in leaf:
            continue
        try:
            body = parse_leaf(leaf).event.body
        except NonCanonicalError:
            continue
        if isinstance(body, TournamentCreated):
            kid, pub = body.head_judge.key_id, body.head_judge.public_key
        elif isinstance(body, OfficialAdded):
            kid, pub = body.key_id, body.public_key
        else:
            continue
        try:
            raw = base64.b64decode(pub, validate=True)
        except ValueError:
            continue
        keys.setdefault(kid, raw)
    return keys


def _expected_log(leaves: Sequence[tuple[int, bytes]]) -> str | None:
    if not leaves:
        return None
    try:
        return parse_leaf(leaves[0][1]).event.log
    except NonCanonicalError:
        return None


def audit_leaves(leaves: Sequence[tuple[int, bytes]], notes: Sequence[NoteFile], *,
                 log: str | None = None, source: str = "",
                 progress: Progress | None = None) -> Report:
    """Audit stored leaves ``(stored version, bytes)`` in order, plus checkpoint notes."""
    log = log if log is not None else _expected_log(leaves)
    findings: list[Finding] = []
    if not leaves:
        findings.append(finding("empty_log", None, "the log holds no events"))
        return make_report(log=log, events=0, root=None, checkpoints=0, findings=findings,
                           source=source)

    parsed_notes: list[tuple[str, bytes, Checkpoint]] = []
    for name, note in notes:
        try:
            cp, _ = parse_checkpoint_note(note)
        except CheckpointError as exc:
            findings.append(finding("checkpoint_malformed", None, f"{name}: {exc.message}"))
            continue
        parsed_notes.append((name, note, cp))
    wanted_sizes = {cp.size for _n, _b, cp in parsed_notes}

    keys = _key_map(leaves)
    sigs = SignaturePool(len(leaves))
    state = TournamentState()
    acc = MerkleAccumulator()
    roots: dict[int, bytes] = {}
    prev = ZERO_HASH
    last_time = ""
    total = len(leaves)
    for i, (version, leaf) in enumerate(leaves, start=1):
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
            continue
        ev = parsed.event
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
        if pub is not None:
            sigs.add(i, (pub, ev.sig, SIG_DOMAIN + parsed.signed_bytes))
        try:
            check(state, ev.body, ev.actor)
        except RuleError as exc:
            findings.append(finding(exc.finding, i, exc.message))
        except Exception as exc:  # noqa: BLE001 - a hostile log must not stop the audit
            findings.append(finding("rule_violation", i, f"event cannot be checked "
                                    f"against the state: {type(exc).__name__}: {exc}"))
        if ev.time < last_time:
            findings.append(finding("time_regressed", i, f"time {ev.time} is before "
                                    f"{last_time}"))
        last_time = max(last_time, ev.time)
        try:
            apply_event(state, ev)
        except Exception as exc:  # noqa: BLE001 - report, keep going with the state so far
            findings.append(finding("malformed", i, f"event cannot be applied: "
                                    f"{type(exc).__name__}: {exc}"))
        prev = this_hash
        if progress is not None and (i % 1000 == 0 or i == total):
            progress(i, total)

    for seq in sigs.failures():
        findings.append(finding("bad_signature", seq, "Ed25519 signature does not verify "
                                "over the canonical event"))
    findings.extend(_check_notes(parsed_notes, roots, state, total, log))
    return make_report(log=log, events=total, root=acc.root().hex(),
                       checkpoints=len(parsed_notes), findings=findings, source=source)


def _check_notes(notes: list[tuple[str, bytes, Checkpoint]], roots: dict[int, bytes],
                 state: TournamentState, total: int, log: str | None) -> list[Finding]:
    out: list[Finding] = []
    if not notes:
        out.append(finding("no_checkpoint", None, "no checkpoint covers this log"))
        return out
    by_size: dict[int, tuple[str, bytes]] = {}
    for name, note, cp in notes:
        if log is not None and cp.origin != origin_of(log):
            out.append(finding("checkpoint_origin_mismatch", cp.size,
                               f"{name}: origin {cp.origin!r} is not {origin_of(log)!r}"))
            continue
        if Path(name).stem.isdigit() and int(Path(name).stem) != cp.size:
            out.append(finding("checkpoint_misnamed", cp.size, f"{name} holds size {cp.size}"))
        try:
            trusted_checkpoint(state, note)
        except CheckpointError as exc:
            out.append(finding("checkpoint_bad_signature", cp.size, f"{name}: {exc.message}"))
            continue
        seen = by_size.get(cp.size)
        if seen is not None and seen[1] != cp.root:
            out.append(finding("checkpoint_fork", cp.size, f"{name} and {seen[0]} are both "
                               f"signed for size {cp.size} with different roots"))
        by_size.setdefault(cp.size, (name, cp.root))
        if cp.size > total:
            out.append(finding("checkpoint_beyond_log", cp.size, f"{name} covers {cp.size} "
                               f"events but the log has {total}: the tail was truncated"))
        elif roots.get(cp.size) != cp.root:
            out.append(finding("checkpoint_root_mismatch", cp.size, f"{name}: the log's root "
                               f"at size {cp.size} differs from the signed root"))
    latest = max((cp.size for _n, _b, cp in notes), default=0)
    if 0 < latest < total:
        out.append(finding("unsealed_tail", latest + 1, f"events {latest + 1}..{total} are "
                           "not yet covered by a checkpoint"))
    return out


def _read_notes(directory: Path) -> list[NoteFile]:
    return [(p.name, p.read_bytes()) for p in list_checkpoint_files(directory)]


def verify_ledger(location: Location, log: str | None, checkpoints: Path | None,
                  progress: Progress | None = None) -> Report:
    """Audit one tournament of a ledger (SQLite file or PostgreSQL URL), reading raw rows:
    its events, the checkpoints stored in it, and the note files of ``checkpoints`` (or
    the default ``<ledger>.checkpoints/<id>/`` when it exists)."""
    with Ledger(location) as ledger:
        tid = ledger.resolve(log)
        leaves = list(ledger.raw_leaves(tid))
        notes = ledger_notes(ledger, tid, checkpoint_dir(location, checkpoints, tid))
    return audit_leaves(leaves, notes, log=tid, source=location.display(), progress=progress)


def verify_bundle(directory: Path, progress: Progress | None = None) -> Report:
    """Audit an exported bundle: ``log.jsonl`` plus ``checkpoints/*.note``."""
    log_file = directory / "log.jsonl"
    try:
        data = log_file.read_bytes()
    except FileNotFoundError:
        raise UsageError(f"{log_file} not found",
                         hint="pass a directory written by 'tourney export'") from None
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    leaves = [(i, line) for i, line in enumerate(lines, start=1)]
    notes = _read_notes(directory / "checkpoints")
    return audit_leaves(leaves, notes, source=str(directory), progress=progress)
