"""Witness cosignatures stored in the ledger beside the checkpoints (issue 21 item 7).

Owns: the ``tourney_cosignatures`` table (one row per tournament, tree size and
cosignature line; the same plumbing as ``ledger.storage.checkpoint_table``: SQLite file or
PostgreSQL schema, each write its own committed transaction), ``signature_line`` (a note
signature as its exact line), ``store_cosignatures`` (the verified cosignature lines of a
cosigned note, by witnesses the log declares, over the note the ledger holds for that
size) and ``with_cosignatures`` (a stored note with its stored lines appended).  So a
copied ``.db`` file, or a PostgreSQL ledger audited from another machine, carries the
witnesses' cosignatures like its checkpoints; readers verify every line again.

May import: ``ledger.proofs.checkpoint``, ``ledger.storage.checkpoint_table``,
``ledger.proofs.witness``,
``ledger.core.state``, ``ledger.storage.storage_handle`` (types only).
"""

from __future__ import annotations

import base64
from typing import TYPE_CHECKING

from ledger.proofs.checkpoint import SIG_PREFIX, NoteSignature, parse_checkpoint_note, split_note
from ledger.storage.checkpoint_table import CheckpointTable

if TYPE_CHECKING:
    from ledger.core.state import TournamentState
    from ledger.storage.storage_handle import LedgerHandle


def signature_line(sig: NoteSignature) -> bytes:
    """The exact signed-note line of ``sig`` (``— name base64(key hash ‖ signature)``)."""
    return (f"{SIG_PREFIX}{sig.name} ".encode()
            + base64.b64encode(sig.key_hash + sig.signature) + b"\n")


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


def store_cosignatures(ledger: LedgerHandle, state: TournamentState, note: bytes) -> int:
    """Store the valid cosignatures of declared witnesses in ``note`` when the ledger
    holds a checkpoint of the same size and root; returns how many lines were new."""
    from ledger.proofs.cosign import cosignatures, witness_key_name, witnesses_of

    cp, sigs = parse_checkpoint_note(note)
    stored = dict(ledger.checkpoints.notes(state.log)).get(cp.size)
    if stored is None or parse_checkpoint_note(stored)[0].root != cp.root:
        return 0
    text, _ = split_note(note)
    witnesses = witnesses_of(state)
    table = CosignatureTable(ledger)
    known = set(table.lines(state.log).get(cp.size, []))
    new = 0
    for sig in sigs:
        w = witnesses.get(sig.key_hash)
        if w is None or sig.name != witness_key_name(w.key_id) or \
                not all(co.valid for co in cosignatures(text, [sig], witnesses)):
            continue
        line = signature_line(sig)
        if line not in known:
            table.add(state.log, cp.size, line)
            new += 1
    return new
