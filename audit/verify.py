"""The independent verifier: bytes → canonical form → signature → chain → roles → rules
→ Merkle roots at every checkpoint (docs/DESIGN.md §2, docs/AUDIT.md).

Owns: ``audit_leaves`` (the whole audit over a sequence of stored leaves plus checkpoint
notes), ``start_signatures`` (the key map and every signature job, started before anything
else), ``verify_ledger`` (a SQLite file or PostgreSQL URL), ``verify_bundle`` (an exported
directory) and ``load_target``.  Collects findings with stable codes and never stops at
the first.  Light on purpose: the fold (``audit.fold``, which imports every format) and the
store are imported only once the signature workers run, so start-up overlaps with them.

May import: ``ledger.*``, ``audit.findings``, ``audit.sigpool``, ``audit.fold``,
``audit.checkpoints``.
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from audit.findings import Finding, Report, finding, make_report
from audit.sigpool import SignaturePool
from ledger.errors import StorageError, UsageError
from ledger.wire.canonical import NonCanonicalError
from ledger.wire.events import SIG_DOMAIN, OfficialAdded, TournamentCreated, parse_leaf

if TYPE_CHECKING:
    from audit.checkpoints import NoteFile
    from ledger.storage.location import Location
    from ledger.storage.store import Ledger

Progress = Callable[[int, int], None]
_GENESIS = b'"kind":"tournament_created"'


def _key_map(leaves: Sequence[tuple[int, bytes]]) -> dict[str, bytes]:
    """Every key the log declares (key id → raw public key), for signature checks.

    Whether a key may sign at a given seq is decided later, in order, by the rules.
    """
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


def start_signatures(leaves: Sequence[tuple[int, bytes]], log: str | None = None, *,
                     workers: int | None = None) -> tuple[SignaturePool, dict[str, bytes]]:
    """The key map and a signature pool already running the stateless checks of every
    leaf of ``log`` and verifying its presumed job (``audit.sigpool``, ``audit.prechecks``;
    ``workers``: how many, default one fewer than the usable cores); the fold uses or
    redoes each."""
    keys = _key_map(leaves)
    sigs = SignaturePool(len(leaves), workers)
    sigs.presubmit(leaves, keys, SIG_DOMAIN, log)
    return sigs, keys


def audit_leaves(leaves: Sequence[tuple[int, bytes]], notes: Sequence[NoteFile], *,
                 log: str | None = None, source: str = "",
                 progress: Progress | None = None,
                 signatures: tuple[SignaturePool, dict[str, bytes]] | None = None) -> Report:
    """Audit stored leaves ``(stored version, bytes)`` in order, plus checkpoint notes
    (``signatures``: what ``start_signatures`` returned for these leaves, if called)."""
    log = log if log is not None else _expected_log(leaves)
    if not leaves:
        findings: list[Finding] = [finding("empty_log", None, "the log holds no events")]
        return make_report(log=log, events=0, root=None, checkpoints=0, findings=findings,
                           source=source)
    sigs, keys = signatures if signatures is not None else start_signatures(leaves, log)
    with _closing_on_error(sigs):
        from audit.fold import fold_report

        return fold_report(leaves, notes, log=log, source=source, progress=progress,
                           sigs=sigs, keys=keys)


def read_notes(files: Sequence[Path]) -> list[NoteFile]:
    """(display path, bytes) of each note file; an unreadable file is a storage error."""
    out: list[NoteFile] = []
    for p in files:
        try:
            out.append((str(p), p.read_bytes()))
        except OSError as exc:
            raise StorageError(f"cannot read checkpoint note {p}: {exc.strerror}") from None
    return out


def published_notes(directories: Sequence[Path], log: str,
                    genesis: bytes | None = None) -> list[NoteFile]:
    """The notes of ``log`` in the auditor's ``--checkpoints`` directories (issue 21, item
    15): ``DIR/*.note``, ``DIR/<log>/`` and ``DIR/<log>-<genesis hash>/`` (issue 17,
    defect 8).  A note of another tournament (another origin) is not about this log and is
    left out; an unparsable note is kept for the audit to report.  A directory that holds
    no note of ``log`` binds nothing, so it is a usage error rather than a silent pass
    (naming the tournaments whose notes it does hold)."""
    from ledger.proofs.checkpoint_store import note_files, origin_of

    out: list[NoteFile] = []
    for directory in directories:
        mine = [(name, note) for name, note in read_notes(note_files([directory], log,
                                                                     genesis))
                if _origin(note, log) == origin_of(log)]
        if not mine:
            subdirs = sorted(d for d in directory.iterdir() if d.is_dir()) \
                if directory.is_dir() else []
            others = {_origin(note, log)
                      for _n, note in read_notes(note_files([directory, *subdirs], ""))}
            others.discard(origin_of(log))
            held = f" (only notes of {', '.join(sorted(others))})" if others else ""
            raise UsageError(f"--checkpoints {directory} holds no checkpoint note of "
                             f"tournament {log}{held}",
                             hint="pass the directory where this tournament's *.note "
                                  "files were published")
        out += mine
    return out


def _origin(note: bytes, log: str) -> str:
    """A note's origin line (an unparsable note counts as this log's: the audit reports
    it)."""
    from ledger.proofs.checkpoint import CheckpointError, parse_checkpoint_note
    from ledger.proofs.checkpoint_store import origin_of

    try:
        return parse_checkpoint_note(note)[0].origin
    except CheckpointError:
        return origin_of(log)


def _merged(notes: list[NoteFile], more: list[NoteFile]) -> list[NoteFile]:
    """``notes`` then each of ``more`` whose bytes are not already among them."""
    known = {note for _n, note in notes}
    out = list(notes)
    for name, note in more:
        if note not in known:
            known.add(note)
            out.append((name, note))
    return out


def verify_ledger(location: Location, log: str | None, checkpoints: Path | None,
                  progress: Progress | None = None, *,
                  published: Sequence[Path] = ()) -> Report:
    """Audit one tournament of a ledger (SQLite file or PostgreSQL URL), reading raw rows
    through a read-only connection.  Notes: the ledger's own checkpoint directory plus
    every ``published`` directory of the auditor (issue 12, defect 1)."""
    from ledger.storage.store import Ledger

    with Ledger(location, readonly=True) as ledger:
        tid = ledger.resolve(log)
        leaves = list(ledger.raw_leaves(tid))
        signatures = start_signatures(leaves, tid)
        with _closing_on_error(signatures[0]):
            # the notes stored in the ledger itself (issue 7), then the note files
            notes = _ledger_notes(ledger, location, checkpoints, tid, leaves, published)
    return audit_leaves(leaves, notes, log=tid, source=location.display(), progress=progress,
                        signatures=signatures)


def verify_bundle(directory: Path, progress: Progress | None = None, *,
                  published: Sequence[Path] = ()) -> Report:
    """Audit an exported bundle: ``log.jsonl``, ``checkpoints/*.note`` and every note of
    the auditor's ``published`` directories.  The signature workers start as soon as the
    log is read, before the formats are imported."""
    log_file = directory / "log.jsonl"
    try:
        data = log_file.read_bytes()
    except FileNotFoundError:
        raise UsageError(f"{log_file} not found",
                         hint="pass a directory written by 'tourney export'") from None
    except OSError as exc:
        raise StorageError(f"cannot read {log_file}: {exc.strerror}") from None
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    leaves = [(i, line) for i, line in enumerate(lines, start=1)]
    log = _expected_log(leaves)
    signatures = start_signatures(leaves, log)
    with _closing_on_error(signatures[0]):
        from ledger.proofs.checkpoint_store import note_files

        notes = read_notes(note_files([directory / "checkpoints"], log or ""))
        if log:
            notes = _merged(notes, published_notes(published, log,
                                                   leaves[0][1] if leaves else None))
        else:
            notes += read_notes([p for d in published for p in note_files([d], "")])
    return audit_leaves(leaves, notes, source=str(directory), progress=progress,
                        signatures=signatures)


@contextmanager
def _closing_on_error(sigs: SignaturePool) -> Iterator[None]:
    """Stop the signature workers when the audit cannot go on (e.g. an unreadable note)."""
    try:
        yield
    except BaseException:
        sigs.close()
        raise


def load_target(target: str | None, tournament: str | None,
                published: Sequence[Path] = ()
                ) -> tuple[list[tuple[int, bytes]], list[NoteFile], str | None, str]:
    """(leaves, checkpoint notes, tournament id or None, source) of a ledger path/URL or an
    exported bundle directory; the auditor's ``published`` note directories bind every
    input (issue 12, defect 1)."""
    from ledger.proofs.checkpoint_store import note_files
    from ledger.storage.location import location_from
    from ledger.storage.store import Ledger

    path = Path(target) if target else None
    if path is not None and path.is_dir():
        log_file = path / "log.jsonl"
        if not log_file.is_file():
            raise UsageError(f"{path} is a directory without log.jsonl",
                             hint="pass a bundle written by 'tourney export' or a ledger")
        lines = log_file.read_bytes().split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        leaves = [(i, line) for i, line in enumerate(lines, start=1)]
        log = _expected_log(leaves) or ""
        own = read_notes(note_files([path / "checkpoints"], log))
        return (leaves, _merged(own, published_notes(published, log,
                                                     leaves[0][1] if leaves else None) if log else
                                read_notes(note_files(published, log))), None, str(path))
    location = location_from(target)
    if not location.exists():
        raise StorageError(f"ledger {location.display()} does not exist",
                           hint="pass a ledger path, URL or bundle directory")
    with Ledger(location, readonly=True) as ledger:
        tid = ledger.resolve(tournament)
        leaves = list(ledger.raw_leaves(tid))
        notes = _ledger_notes(ledger, location, None, tid, leaves, published)
    return leaves, notes, tid, location.display()


def _ledger_notes(ledger: Ledger, location: Location, checkpoints: Path | None, tid: str,
                  leaves: Sequence[tuple[int, bytes]],
                  published: Sequence[Path]) -> list[NoteFile]:
    """The notes of one tournament of a ledger: those stored in it (with their stored
    cosignatures), its note directory's (keyed by its genesis hash; issue 17, defect 8),
    its own notes in the old name-keyed directory, then every note of this log in the
    auditor's ``published`` directories (``published_notes``; issue 21, item 15)."""
    from ledger.proofs.checkpoint_store import (
        checkpoint_dir,
        ledger_notes,
        legacy_note_files,
        note_files,
    )

    own: list[Path] = []
    if leaves:
        genesis = leaves[0][1]
        own = [*note_files([checkpoint_dir(location, checkpoints, tid, genesis)], tid),
               *legacy_note_files(ledger, location, checkpoints, tid)]
    return _merged(ledger_notes(ledger, tid, own),
                   published_notes(published, tid, leaves[0][1] if leaves else None))
