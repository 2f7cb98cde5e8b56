"""Export bundles (docs/DESIGN.md §4): everything an auditor needs, nothing else.

Owns: ``export_bundle`` — ``DIR/log.jsonl`` (the stored leaf bytes verbatim, one per
line, in seq order), ``DIR/checkpoints/<size>.note`` and ``DIR/README.txt``, written into
a staging directory beside DIR and renamed into place (issue 21, item 14): an interrupted
or failed export (a full disk) leaves no bundle, or the earlier one, never a partial one.

May import: ``ledger.*``.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ledger.errors import UsageError, write_failure
from ledger.proofs.checkpoint import CheckpointError, parse_checkpoint_note
from ledger.proofs.checkpoint_store import fsync_directory, ledger_notes, list_checkpoint_files
from ledger.storage.store import Ledger

README = """This directory is a tourney export bundle of tournament {log}.

  log.jsonl           every signed event (tourney-leaf/v1), one per line, seq order
  checkpoints/*.note  C2SP tlog-checkpoint notes signed by the head judge (origin tourney/{log})

Verify it with:   tourney audit verify {dirname}
Or by hand, following docs/AUDIT.md: each line is canonical JSON {{"event":…,"sig":…}};
the signature is Ed25519 over b"tourney-event/v1\\n" + canonical(event) by the key whose
id is event.actor (keys are declared in the log itself: genesis head_judge and
official_added events); event.prev is the SHA-256 of the previous line; the RFC 6962
root over the lines at each checkpoint's size must equal the signed root.
"""


@dataclass(frozen=True)
class BundleInfo:
    directory: Path
    events: int
    checkpoints: int


BUNDLE_FILES = ("log.jsonl", "checkpoints", "README.txt")


def export_bundle(ledger: Ledger, log: str, directory: Path, checkpoints: Path | None,
                  *, force: bool = False, note_files: Sequence[Path] = ()) -> BundleInfo:
    """Write the bundle of ``log``: its leaves, every checkpoint note stored in the ledger
    (plus those of the ``checkpoints`` directory and ``note_files``) and the README.  An
    existing non-empty directory is refused unless ``force`` — and even then only a
    directory holding nothing but an earlier bundle is replaced."""
    if directory.exists() and not directory.is_dir():
        raise UsageError(f"{directory} exists and is not a directory",
                         hint="export into a new directory")
    if directory.is_dir() and any(directory.iterdir()):
        if not force:
            raise UsageError(f"{directory} exists and is not empty",
                             hint="export into a new directory, or pass --force to replace "
                                  "an earlier bundle there")
        strays = sorted(p.name for p in directory.iterdir() if p.name not in BUNDLE_FILES)
        if strays:
            raise UsageError(f"{directory} holds files that are not part of a bundle "
                             f"({', '.join(strays[:3])}); --force replaces only a bundle",
                             hint="export into a new directory")
    leaves = [leaf for _v, leaf in ledger.raw_leaves(log)]
    if any(b"\n" in leaf for leaf in leaves):
        raise UsageError("a stored leaf contains a newline; run 'tourney audit verify'")
    named = _bundle_note_names(ledger_notes(
        ledger, log, [*(list_checkpoint_files(checkpoints) if checkpoints is not None else []),
                      *note_files]))
    staging = directory.parent / f".{directory.name}.export-{os.getpid()}"
    try:
        _write_staging(staging, leaves, named, README.format(log=log, dirname=directory.name))
        _swap_in(staging, directory)
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise write_failure(exc, f"cannot write bundle to {directory}",
                            hint="free disk space or choose another directory; nothing was "
                                 "exported and an earlier bundle there is unchanged") from None
    return BundleInfo(directory=directory, events=len(leaves), checkpoints=len(named))


def _write_staging(staging: Path, leaves: list[bytes], named: list[tuple[str, bytes]],
                   readme: str) -> None:
    """The whole bundle in a fresh staging directory, every file fsynced (issue 21, item
    14): notes first, then the log, then the README, so nothing is visible until the
    rename and a bundle is never a prefix of one."""
    shutil.rmtree(staging, ignore_errors=True)
    (staging / "checkpoints").mkdir(parents=True)
    for name, note in named:
        _write_durably(staging / "checkpoints" / name, [note])
    fsync_directory(staging / "checkpoints")
    _write_durably(staging / "log.jsonl", (leaf + b"\n" for leaf in leaves))
    _write_durably(staging / "README.txt", [readme.encode("utf-8")])
    fsync_directory(staging)


def _write_durably(path: Path, chunks: Iterable[bytes]) -> None:
    with open(path, "wb") as fh:
        for chunk in chunks:
            fh.write(chunk)
        fh.flush()
        os.fsync(fh.fileno())


def _swap_in(staging: Path, directory: Path) -> None:
    """Rename the finished bundle into place; an earlier bundle (``--force``) is moved
    aside first and removed only once the new one is there."""
    old: Path | None = None
    if directory.is_dir() and any(directory.iterdir()):
        old = directory.parent / f".{directory.name}.replaced-{os.getpid()}"
        shutil.rmtree(old, ignore_errors=True)
        os.rename(directory, old)
    try:
        os.rename(staging, directory)  # replaces an empty directory atomically
    except OSError:
        if old is not None:
            os.rename(old, directory)
        raise
    fsync_directory(directory.parent)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def _bundle_note_names(notes: list[tuple[str, bytes]]) -> list[tuple[str, bytes]]:
    """A file name for every distinct note: ``<size>.note`` for the first of a size, then
    ``<size>-<k>.note``, so a second note of one size (an equivocation) travels with the
    bundle and the audit reports it (issue 12, defect 2); an unparsable note is kept as
    ``unparsed-<k>.note`` for the audit to report."""
    out: list[tuple[str, bytes]] = []
    seen: set[bytes] = set()
    per_size: dict[int, int] = {}
    for _name, note in notes:
        if note in seen:
            continue
        seen.add(note)
        try:
            size = parse_checkpoint_note(note)[0].size
        except CheckpointError:
            out.append((f"unparsed-{len(out) + 1}.note", note))
            continue
        k = per_size[size] = per_size.get(size, 0) + 1
        out.append((f"{size}.note" if k == 1 else f"{size}-{k}.note", note))
    return out
