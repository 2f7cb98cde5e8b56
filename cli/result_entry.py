"""One result slip entered at a station: idempotent re-entry, conflicts said plainly.

Owns: ``enter_result`` — what ``result record`` and each row of ``result import`` do inside
one ``Ledger.write``: when the table already holds exactly this result, nothing is written
and the earlier event is returned (a retried or doubly keyed slip is a success); when it
holds another result, the refusal says what is recorded, at which seq and by whom, and
how a judge corrects it; otherwise the ledger records it.  ``correct_entry`` does the same
for ``result correct`` (an identical correction writes nothing).  What an entry decides
(winner, losers, reasons, games) is the format's own ``decided_result``, the decision its
``record_result`` makes, never redone here.

May import: ``cli.result_text`` (labels), ``projections.result_words``, ``ledger.*``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ledger.core.entry_facet import result_fields
from ledger.core.rules import authorize
from ledger.errors import RuleError
from projections.result_words import describe

if TYPE_CHECKING:
    from ledger.core.aggregate import Tournament
    from ledger.core.state import TournamentState
    from ledger.wire.events import SignedEvent
    from ledger.wire.keys import Signer


@dataclass(frozen=True)
class Unchanged:
    """The table already holds exactly the entered result: nothing was written."""

    seq: int
    round: int
    table: int


def _same(t: Tournament, res: Any, kw: dict[str, Any]) -> bool:
    """Whether entry ``kw`` decides exactly the recorded result ``res``: the format's
    own answer (``FormatPlugin.same_result``)."""
    args = {k: v for k, v in kw.items() if k not in ("reason", "note")}
    return t.plugin.entry.same_result(t.state, res, result_fields(args))


def recorded_by(state: TournamentState, actor: str | None) -> str:
    """``Sam (scorekeeper, key 1a2b…)`` for the key that signed an event."""
    if actor is None:
        return "an unknown key"
    off = state.officials.get(actor)
    if off is None:
        return f"key {actor}"
    roles = "/".join(r.value.replace("_", " ") for r in off.roles if r.value != "organizer")
    return f"{off.name} ({roles}, key {actor})"


def enter_result(t: Tournament, signer: Signer, time: str, actor_of: Any,
                 **kw: Any) -> list[SignedEvent] | Unchanged:
    """Record one result (``kw`` as for ``Tournament.record_result``), idempotently.

    ``actor_of(seq)`` gives the key id that signed an earlier event (read on refusal)."""
    st = t.state
    authorize(st, signer.key_id, "result_recorded")   # before any shortcut (issue 17 #21)
    seat = t.plugin.entry.table_at(st, kw["round_no"], kw["table"])
    if seat is not None and seat[1] is not None:
        res = seat[1]
        if _same(t, res, kw):
            return Unchanged(res.seq, kw["round_no"], kw["table"])
        raise RuleError(
            "LEDGER-RES-1",
            f"round {kw['round_no']} table {kw['table']} already has a different result: "
            f"{describe(st, res)} (seq {res.seq}, recorded by "
            f"{recorded_by(st, actor_of(res.seq))})",
            hint="if the slip says otherwise, a judge corrects it: tourney result correct "
                 f"--round {kw['round_no']} --table {kw['table']} … --reason TEXT")
    return t.record_result(signer, time, **kw)


def correct_entry(t: Tournament, signer: Signer, time: str,
                  **kw: Any) -> list[SignedEvent] | Unchanged:
    """Correct one result, or nothing when the table already holds exactly that result."""
    st = t.state
    authorize(st, signer.key_id, "result_corrected")  # before any shortcut (issue 17 #21)
    seat = t.plugin.entry.table_at(st, kw["round_no"], kw["table"])
    if seat is not None and seat[1] is not None:
        if _same(t, seat[1], kw):
            return Unchanged(seat[1].seq, kw["round_no"], kw["table"])
    return t.correct_result(signer, time, **kw)
