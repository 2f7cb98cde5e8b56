"""Signed checkpoint notes stored in the ledger itself (docs/DESIGN.md §3–§4, issue 7).

Owns: the ``tourney_checkpoints`` table beside the library's event table (SQLite file or
PostgreSQL schema) and ``CheckpointTable`` — ``put`` (one row per tournament and tree
size, written in its own committed transaction through the library's datastore: WAL +
synchronous FULL on SQLite, so an acknowledged checkpoint survives a crash like an
acknowledged event), ``notes`` and ``latest``.  A copied ``.db`` file therefore audits
with its checkpoints; export bundles still carry them as ``checkpoints/<size>.note``.

Rows hold the exact note bytes (the signed text is never re-encoded) plus the size and
root parsed from them at write time, for lookups only: readers verify the note itself.
A second note for a size with a different root is refused (a fork), never stored.

May import: ``ledger.errors``, ``ledger.storage.sqlite_probe``,
``ledger.storage.dry_run``, ``ledger.storage.storage_handle`` (types only), the standard
library.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ledger.errors import StorageError, VerificationError
from ledger.storage import dry_run
from ledger.storage.sqlite_probe import storage_cause

if TYPE_CHECKING:
    from ledger.storage.storage_handle import LedgerHandle

TABLE = "tourney_checkpoints"


class CheckpointTable:
    """The checkpoint notes of every tournament in one ledger (subclasses store other
    rows beside them with the same plumbing: ``ledger.storage.cosignature_table``)."""

    TABLE = TABLE
    DDL = ("log TEXT NOT NULL, size INTEGER NOT NULL, root BLOB NOT NULL, note BLOB NOT NULL, "
           "PRIMARY KEY (log, size)")
    PG_DDL = ("log TEXT NOT NULL, size BIGINT NOT NULL, root BYTEA NOT NULL, note BYTEA NOT "
              "NULL, PRIMARY KEY (log, size)")

    def __init__(self, ledger: LedgerHandle) -> None:
        self._ledger = ledger
        rec: Any = ledger.app.recorder
        self._datastore = rec.datastore
        self._pg = ledger.location.is_postgres
        self._ready = False

    # -- SQL dialect ---------------------------------------------------------------------
    def _name(self) -> Any:
        if not self._pg:
            return self.TABLE
        from psycopg.sql import Identifier
        return Identifier(self._datastore.schema or "public", self.TABLE)

    def _sql(self, template: str) -> Any:
        """``template`` with ``{t}`` for the table and ``?`` placeholders, per backend."""
        if not self._pg:
            return template.format(t=self.TABLE)
        from psycopg.sql import SQL
        return SQL(template.replace("?", "%s").replace("{t}", "{}")).format(self._name())

    def _create(self) -> None:
        if self._ready:
            return
        columns = self.PG_DDL if self._pg else self.DDL
        ddl = self._sql(f"CREATE TABLE IF NOT EXISTS {{t}} ({columns})")
        try:
            self._run(ddl, (), commit=True)
        except StorageError as err:
            # a role that may not create tables (docs/OPERATIONS.md) finds it made already
            if "permission denied for schema" not in err.message:
                raise
        self._ready = True

    def _run(self, sql: Any, params: tuple[Any, ...], *, commit: bool) -> list[Any]:
        """One statement in its own transaction; rows of a read (``commit=False``)."""
        try:
            with self._datastore.transaction(commit=commit) as curs:
                curs.execute(sql, params)
                return [] if commit else list(curs.fetchall())
        except Exception as exc:  # the library wraps driver errors in its own classes
            if _missing_table(exc, self.TABLE):
                return []
            raise StorageError(f"cannot access checkpoints in "
                               f"{self._ledger.location.display()}: "
                               f"{storage_cause(self._ledger.location, exc)}",
                               hint="check disk space, permissions or the server") from None

    # -- API -----------------------------------------------------------------------------
    def put(self, log: str, size: int, root: bytes, note: bytes) -> bytes:
        """Store ``note`` (a signed checkpoint of ``log`` at ``size`` with ``root``) and
        return the note now stored for that size: the given one, or an earlier note with
        the same root.  Raises ``VerificationError`` if a different root is stored."""
        dry_run.check()
        self._ledger.prepare_write()
        self._create()
        sql = self._sql("INSERT INTO {t} (log, size, root, note) VALUES (?, ?, ?, ?) "
                        "ON CONFLICT (log, size) DO NOTHING")
        self._run(sql, (log, size, root, note), commit=True)
        rows = self._run(self._sql("SELECT root, note FROM {t} WHERE log = ? AND size = ?"),
                         (log, size), commit=False)
        if not rows:
            raise StorageError(f"checkpoint of {log} at size {size} was not stored")
        stored_root, stored_note = bytes(rows[0]["root"]), bytes(rows[0]["note"])
        if stored_root != root:
            raise VerificationError(
                f"the ledger already holds a checkpoint of {log} at size {size} with "
                "another root", hint="the log was forked or rewritten; run 'tourney audit "
                                     "verify'")
        return stored_note

    def notes(self, log: str) -> list[tuple[int, bytes]]:
        """Every stored note of ``log`` as (size, note bytes), by size."""
        rows = self._run(self._sql("SELECT size, note FROM {t} WHERE log = ? ORDER BY size"),
                         (log,), commit=False)
        return [(int(r["size"]), bytes(r["note"])) for r in rows]

    def latest(self, log: str) -> tuple[int, bytes] | None:
        """The note of the largest size, or None."""
        rows = self._run(self._sql("SELECT size, note FROM {t} WHERE log = ? "
                                   "ORDER BY size DESC LIMIT 1"), (log,), commit=False)
        return (int(rows[0]["size"]), bytes(rows[0]["note"])) if rows else None


def _missing_table(exc: BaseException, table: str = TABLE) -> bool:
    """A read before any row was written: the table does not exist yet."""
    seen: BaseException | None = exc
    while seen is not None:
        text = str(seen)
        if f"no such table: {table}" in text or (table in text and "does not exist" in text):
            return True
        seen = seen.__cause__ or seen.__context__
    return False
