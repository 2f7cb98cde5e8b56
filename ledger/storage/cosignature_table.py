"""Witness cosignatures stored in the ledger beside the checkpoints (issue 21 item 7).

Owns: the ``tourney_cosignatures`` table (one row per tournament, tree size and
cosignature line; the same plumbing as ``ledger.storage.checkpoint_table``: SQLite file or
PostgreSQL schema, each write its own committed transaction) and ``with_cosignatures`` (a
stored note with its stored lines appended).  So a copied ``.db`` file, or a PostgreSQL
ledger audited from another machine, carries the witnesses' cosignatures like its
checkpoints; readers verify every line again.  Which lines to store (verified, by declared
witnesses) is ``ledger.proofs.cosignature_store``: storage sits below the proofs
(docs/adr/0039-layering-layers-and-rule-ids.md).

May import: ``ledger.storage.checkpoint_table``.
"""

from __future__ import annotations

from ledger.storage.checkpoint_table import CheckpointTable


class CosignatureTable(CheckpointTable):
    TABLE = "tourney_cosignatures"
    DDL = "log TEXT NOT NULL, size INTEGER NOT NULL, line BLOB NOT NULL, " \
          "PRIMARY KEY (log, size, line)"
    PG_DDL = "log TEXT NOT NULL, size BIGINT NOT NULL, line BYTEA NOT NULL, " \
             "PRIMARY KEY (log, size, line)"

    def add(self, log: str, size: int, line: bytes) -> None:
        self._create()
        self._run(self._sql("INSERT INTO {t} (log, size, line) VALUES (?, ?, ?) "
                            "ON CONFLICT (log, size, line) DO NOTHING"),
                  (log, size, line), commit=True)

    def lines(self, log: str) -> dict[int, list[bytes]]:
        rows = self._run(self._sql("SELECT size, line FROM {t} WHERE log = ? "
                                   "ORDER BY size, line"), (log,), commit=False)
        out: dict[int, list[bytes]] = {}
        for r in rows:
            out.setdefault(int(r["size"]), []).append(bytes(r["line"]))
        return out


def with_cosignatures(note: bytes, lines: list[bytes]) -> bytes:
    """``note`` with every stored line it does not hold yet appended (the text and the
    head judge's signature unchanged)."""
    have = set(note.splitlines(keepends=True))
    return note + b"".join(line for line in lines if line not in have)
