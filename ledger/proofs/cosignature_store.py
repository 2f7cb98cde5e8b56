"""Storing the witnesses' cosignatures of a note in the ledger (issue 21 item 7).

Owns: ``store_cosignatures`` — the valid cosignature lines of witnesses the log declares,
over the note the ledger holds for that size, into the ledger's cosignature table
(``ledger.storage.cosignature_table``).  Moved here from the table so that storage imports
no proof (docs/adr/0039-layering-layers-and-rule-ids.md).

May import: ``ledger.proofs.checkpoint``, ``ledger.proofs.cosign``,
``ledger.storage.cosignature_table``, ``ledger.core.state`` and
``ledger.storage.storage_handle`` (types only).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ledger.proofs.checkpoint import parse_checkpoint_note, split_note
from ledger.proofs.cosign import cosignatures, signature_line, witness_key_name, witnesses_of
from ledger.storage.cosignature_table import CosignatureTable

if TYPE_CHECKING:
    from ledger.core.state import TournamentState
    from ledger.storage.storage_handle import LedgerHandle


def store_cosignatures(ledger: LedgerHandle, state: TournamentState, note: bytes) -> int:
    """Store the valid cosignatures of declared witnesses in ``note`` when the ledger
    holds a checkpoint of the same size and root; returns how many lines were new."""
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
