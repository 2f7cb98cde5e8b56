"""Opening a SQLite ledger without touching it (issue 12, defects 3-5).

Owns: ``probe_sqlite`` — before the ``eventsourcing`` library opens a file (and would create
tables and switch it to WAL), a read-only look at its bytes and schema: a directory is a
usage error; a missing, empty, foreign, truncated or damaged file a storage error with a
message that says which; and the URI parameter a read-only connection needs (``mode=ro``,
or ``immutable=1`` on read-only media when no unmerged write-ahead log would be ignored).
``sqlite_uri`` builds such URIs; ``held_fd`` is the one way this package reads or fsyncs a
ledger file outside SQLite (a descriptor never closed: see there).  A file in
rollback-journal mode (a ``VACUUM INTO`` copy,
one the ``sqlite3`` shell made) is read as it is and switched to WAL only just before its
first write (``defer_wal``, ``switch_to_wal``; issue 21, item 12).

May import: ``sqlite3``, ``ledger.errors``, ``ledger.storage.location``.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ledger.errors import StorageError, UsageError
from ledger.storage.location import Location, sqlite_lock_timeout

SQLITE_MAGIC = b"SQLite format 3\x00"
FULL_BELOW = 64 * 1024  # bytes free: a disk with less is full for a ledger


_HELD: dict[tuple[int, int], int] = {}
_HELD_LOCK = threading.Lock()


def held_fd(path: Path) -> int:
    """A read-only descriptor of ``path``, kept open for the life of the process.

    Closing *any* descriptor of a file drops every POSIX lock this process holds on it,
    SQLite's included: the other connections of this process (the live server's writer
    and readers) would silently lose theirs, and another process closing the ledger could
    then remove the write-ahead log under them — their next commit would go to an
    unlinked file and be lost.  SQLite never closes such a descriptor itself; neither do
    we: one per file (inode) per process.  Descriptors of files deleted since are closed
    (a deleted inode's locks protect nothing)."""
    st = os.stat(path)
    with _HELD_LOCK:
        fd = _HELD.get((st.st_dev, st.st_ino))
        if fd is not None:
            return fd
        fd = os.open(path, os.O_RDONLY)
        st = os.fstat(fd)                 # the file opened (it may have been replaced)
        key = (st.st_dev, st.st_ino)
        if key in _HELD:
            _SPARE.append(fd)             # closing it would drop the locks: keep it
            return _HELD[key]
        _prune()
        _HELD[key] = fd
        return fd


_SPARE: list[int] = []


def _prune() -> None:
    """Close held descriptors of files that no longer exist (called under the lock)."""
    for key, fd in list(_HELD.items()):
        try:
            gone = os.fstat(fd).st_nlink == 0
        except OSError:
            gone = True
        if gone:
            del _HELD[key]
            os.close(fd)


def sqlite_uri(path: Path, mode: str) -> str:
    return f"file:{quote(str(path.resolve()))}?{mode}"


def probe_sqlite(path: Path, *, create: bool) -> str:
    """Check, without writing anything, that ``path`` is a tourney ledger (or, for
    ``create``, a place where one may be made).  Returns the ``mode=ro`` or
    ``immutable=1`` URI parameter a read-only connection needs."""
    if path.is_dir():
        raise UsageError(f"ledger {path} is a directory, not a ledger file",
                         hint=f"pass a file, e.g. --ledger {path / 'tournament.db'}")
    if not path.exists():
        if create:
            return "mode=ro"
        raise StorageError(f"ledger {path} does not exist",
                           hint="create it with 'tourney init' or pass --ledger / set "
                                "TOURNEY_LEDGER")
    try:
        fd = held_fd(path)
        header = os.pread(fd, 100, 0)
        size = os.fstat(fd).st_size
    except OSError as exc:
        raise StorageError(f"cannot read ledger {path}: {exc.strerror}",
                           hint="check the path and its permissions") from None
    if size == 0:
        if create:
            return "mode=ro"
        raise StorageError(f"{path} is an empty file, not a tourney ledger",
                           hint="create a ledger with 'tourney init' or pass the right "
                                "--ledger")
    if not header.startswith(SQLITE_MAGIC):
        raise StorageError(f"{path} is not a tourney ledger (not an SQLite database)",
                           hint="pass the .db file written by 'tourney init'")
    if len(header) == 100:
        page = int.from_bytes(header[16:18], "big")
        page = 65536 if page == 1 else page
        pages = int.from_bytes(header[28:32], "big")
        valid = header[24:28] == header[92:96]
        if page and (size % page or (valid and pages * page > size)):
            raise StorageError(f"ledger {path} is damaged: {size} bytes where the header "
                               f"promises {pages} pages of {page}",
                               hint="it was truncated or corrupted; restore it from a copy "
                                    "or audit an exported bundle")
    mode = "mode=ro"
    tables: set[str] = set()
    for attempt in ("mode=ro", "immutable=1"):
        try:
            con = sqlite3.connect(sqlite_uri(path, attempt), uri=True)
            try:
                tables = {str(r[0]) for r in con.execute(
                    "SELECT name FROM sqlite_master WHERE type='table'")}
            finally:
                con.close()
            mode = attempt
            break
        except sqlite3.OperationalError as exc:
            if attempt == "mode=ro" and "unable to open" in str(exc):
                wal = path.with_name(path.name + "-wal")
                if wal.exists() and wal.stat().st_size > 0:
                    raise StorageError(f"ledger {path} has unmerged writes in {wal.name} "
                                       "and cannot be opened read-only here",
                                       hint="open it once on writable storage, or copy "
                                            "both files there") from None
                continue
            raise StorageError(f"cannot open ledger {path}: {storage_cause(path, exc)}",
                               hint="free disk space, or copy the ledger to a disk with "
                                    "room; nothing was written") from None
        except sqlite3.DatabaseError as exc:
            raise StorageError(f"ledger {path} is damaged or not a tourney ledger ({exc})",
                               hint="restore it from a copy or audit an exported "
                                    "bundle") from None
    if "stored_events" not in tables and not (create and not tables):
        what = "an SQLite database of another program" if tables else "an empty database"
        raise StorageError(f"{path} is not a tourney ledger ({what})",
                           hint="pass the .db file written by 'tourney init'")
    return mode


def storage_cause(where: Path | Location, exc: BaseException | str) -> str:
    """What went wrong, in words (issue 21, item 13): a full disk is named as such, since
    SQLite reports one as "database or disk is full" on a write and as a bare "disk I/O
    error" when a reader cannot create its ``-shm`` index."""
    text = str(exc)
    if isinstance(where, Location):
        if where.is_postgres:
            return text
        where = where.path
    try:
        st = os.statvfs(where if where.is_dir() else where.parent)
        full = st.f_bavail * st.f_frsize < FULL_BELOW
    except OSError:
        full = False
    if full or "disk is full" in text or "No space left" in text:
        return f"the disk holding {where} is full ({text})"
    if "database is locked" in text:
        return f"another process kept the write lock of {where} too long ({text})"
    return text


def holds_wal_header(path: Path) -> bool:
    """The file is in WAL mode (header bytes 18–19 are 2; 1 is a rollback journal: a
    ``VACUUM INTO`` copy, a file the ``sqlite3`` shell made)."""
    try:
        header = os.pread(held_fd(path), 20, 0)
    except OSError:
        return False
    return len(header) == 20 and header[18] == 2


def defer_wal(pool: Any, path: Path, *, readonly: bool) -> bool:
    """Keep the library from switching a rollback-journal file to WAL when it connects
    (issue 21, item 12): a read, or a write that is refused, leaves the file as it is.
    True when the file must be switched (``switch_to_wal``) before its first write."""
    pending = path.is_file() and path.stat().st_size > 0 and not holds_wal_header(path)
    if pool is not None and (readonly or pending):
        pool.is_journal_mode_wal = True
    return pending and not readonly


def switch_to_wal(path: Path) -> None:
    """Put a rollback-journal ledger into WAL mode, just before its first write (issue 21,
    item 12): reads and refused writes leave the file as it is."""
    try:
        con = sqlite3.connect(sqlite_uri(path, "mode=rw"), uri=True,
                              timeout=sqlite_lock_timeout())
        try:
            con.execute("PRAGMA journal_mode=WAL")
        finally:
            con.close()
    except sqlite3.Error as exc:
        raise StorageError(f"cannot write to {path}: {exc}",
                           hint="check disk space and permissions") from None

