"""A consistent copy of a live SQLite ledger (``tourney backup FILE``; issue 32).

Owns: ``backup_sqlite`` — the SQLite online backup API (``sqlite3.Connection.backup``)
from a read-only connection to the ledger, in ONE step: one read transaction, so the
copy is the ledger as it was at one commit, whatever other processes append meanwhile
(in WAL mode a reader never blocks the desk's writers, nor they it).  A plain ``cp`` of
the ``.db`` file is not a copy: committed events still in ``-wal`` are missing, and a
file copied while a checkpoint writes into it can be torn.

The copy is written to a hidden temporary file beside FILE, switched to rollback-journal
mode (one self-contained file; the ledger switches it back to WAL on its first write:
``sqlite_probe.defer_wal``), checked (``PRAGMA quick_check``), flushed to disk, then moved
into place: FILE is never a partial copy.  An existing FILE is replaced only with
``force``; without it the move itself refuses (a hard link), so a FILE made meanwhile is
not overwritten either.  Any failure leaves no temporary file and FILE as it was.

May import: ``ledger.errors``, ``ledger.storage.sqlite_probe``, ``ledger.storage.location``,
the standard library.
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from ledger.errors import StorageError, UsageError
from ledger.storage import sqlite_probe as sq
from ledger.storage.location import sqlite_lock_timeout


@dataclass(frozen=True)
class BackupInfo:
    """What the copy holds: the events of each tournament, and its size in bytes."""

    file: Path
    bytes: int
    events: dict[str, int]


def _check_target(src: Path, dest: Path, *, force: bool) -> None:
    ledger_files = {src.resolve(), *(src.resolve().with_name(src.name + s)
                                     for s in ("-wal", "-shm", "-journal"))}
    if dest.resolve() in ledger_files:
        raise UsageError(f"{dest} is the ledger itself (or one of its files)",
                         hint="name a new file, e.g. backup-1130.db")
    if dest.is_dir():
        raise UsageError(f"{dest} is a directory",
                         hint=f"name a file, e.g. {dest / 'backup.db'}")
    if not dest.parent.is_dir():
        raise UsageError(f"folder {dest.parent} does not exist",
                         hint="create it, or name a file in an existing folder")
    if (dest.exists() or dest.is_symlink()) and not force:
        raise UsageError(f"{dest} already exists",
                         hint="name a new file, or pass --force to replace it")


def _events(con: sqlite3.Connection) -> dict[str, int]:
    rows = con.execute("SELECT originator_id, MAX(originator_version) FROM stored_events "
                       "GROUP BY originator_id ORDER BY originator_id").fetchall()
    return {str(log): int(size) for log, size in rows}


def _move(tmp: Path, dest: Path, *, force: bool) -> None:
    """``tmp`` to ``dest``: replacing it only with ``force``."""
    if force:
        os.replace(tmp, dest)
        return
    try:
        os.link(tmp, dest)            # fails if dest exists: never overwrites
    except FileExistsError:
        raise UsageError(f"{dest} already exists",
                         hint="name a new file, or pass --force to replace it") from None
    except OSError:                   # a file system without hard links
        if dest.exists():
            raise UsageError(f"{dest} already exists",
                             hint="name a new file, or pass --force to replace it") from None
        os.replace(tmp, dest)
        return
    tmp.unlink()


def backup_sqlite(src: Path, dest: Path, *, force: bool = False) -> BackupInfo:
    """Copy the SQLite ledger ``src`` to ``dest`` as it is at one commit (see the module
    docstring).  A usage error (exit 2) for a bad ``dest``; a storage error (exit 5) for a
    ledger that cannot be read or a copy that cannot be written."""
    mode = sq.probe_sqlite(src, create=False)   # missing, foreign, damaged: said here
    _check_target(src, dest, force=force)
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.backup-tmp")
    try:
        with closing(sqlite3.connect(sq.sqlite_uri(src, mode), uri=True,
                                   timeout=sqlite_lock_timeout())) \
                as source, closing(sqlite3.connect(tmp)) as copy:
            source.backup(copy, pages=-1)       # one step: one read transaction
            copy.execute("PRAGMA journal_mode=DELETE")
            check = copy.execute("PRAGMA quick_check").fetchone()
            if check is None or check[0] != "ok":
                raise StorageError(f"the copy of {src} does not check ({check})",
                                   hint="run tourney backup again")
            events = _events(copy)
        os.chmod(tmp, src.stat().st_mode & 0o777)   # as private as the ledger
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        size = tmp.stat().st_size
        _move(tmp, dest, force=force)
        try:
            dfd = os.open(dest.parent, os.O_RDONLY)
            try:
                os.fsync(dfd)
            finally:
                os.close(dfd)
        except OSError:               # a directory that cannot be synced (some FS)
            pass
    except (sqlite3.Error, OSError) as exc:
        raise StorageError(f"cannot back up {src} to {dest}: {sq.storage_cause(dest, exc)}",
                           hint="check the disk and the folder; nothing was "
                                "written") from None
    finally:
        for leftover in (tmp, *(tmp.with_name(tmp.name + s)
                                for s in ("-journal", "-wal", "-shm"))):
            try:
                leftover.unlink()
            except OSError:       # not there (the usual case), or not ours to remove
                pass
    return BackupInfo(file=dest, bytes=size, events=events)
