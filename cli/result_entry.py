"""One result slip entered at a station: idempotent re-entry, conflicts said plainly.

Owns: ``enter_result`` — what ``result record`` and each row of ``result import`` do inside
one ``Ledger.write``: when the table already holds exactly this result, nothing is written
and the earlier event is returned (a retried or doubly keyed slip is a success); when it
holds another result, the refusal says what is recorded, at which seq and by whom, and
how a judge corrects it; otherwise the ledger records it.  ``correct_entry`` does the same
for ``result correct`` (an identical correction writes nothing).  What an entry decides
(winner, losers, reasons, games) is the format's own ``decided_result``, the decision its
``record_result`` makes, never redone here.

May import: ``cli.result_text`` (labels), ``ledger.*``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ledger.errors import RuleError

if TYPE_CHECKING:
    from ledger.aggregate import Tournament
    from ledger.events import SignedEvent
    from ledger.formats.match.model import ResultState
    from ledger.keys import Signer
    from ledger.state import TournamentState


@dataclass(frozen=True)
class Unchanged:
    """The table already holds exactly the entered result: nothing was written."""

    seq: int
    round: int
    table: int


def _same(t: Tournament, res: ResultState, kw: dict[str, Any]) -> bool:
    """Whether entry ``kw`` decides exactly the recorded result ``res`` (a format that
    cannot say so never counts as the same: the entry is then a conflict)."""
    from ledger.plugin import require_plugin

    fmt = t.state.format
    if fmt is None:
        return False
    plugin = require_plugin(fmt.id)
    args = {k: v for k, v in kw.items() if k not in ("reason", "note")}
    try:
        winner, losers, reasons, outcome, games = plugin.decided_result(t, **args)
    except RuleError:
        return False
    recorded = (res.winner, list(res.losers), list(res.loss_reasons), res.outcome,
                None if res.games is None else list(res.games))
    return (winner, losers, reasons, outcome, games) == recorded


def recorded_by(state: TournamentState, actor: str | None) -> str:
    """``Sam (scorekeeper, key 1a2b…)`` for the key that signed an event."""
    if actor is None:
        return "an unknown key"
    off = state.officials.get(actor)
    if off is None:
        return f"key {actor}"
    roles = "/".join(r.value.replace("_", " ") for r in off.roles if r.value != "organizer")
    return f"{off.name} ({roles}, key {actor})"


def describe(state: TournamentState, res: ResultState) -> str:
    from cli.result_text import result_text
    return result_text(res)


def enter_result(t: Tournament, signer: Signer, time: str, actor_of: Any,
                 **kw: Any) -> list[SignedEvent] | Unchanged:
    """Record one result (``kw`` as for ``Tournament.record_result``), idempotently.

    ``actor_of(seq)`` gives the key id that signed an earlier event (read on refusal)."""
    from ledger.formats.match.apply import find_table

    st = t.state
    tab = find_table(st.fmt, kw["round_no"], kw["table"])
    if tab is not None and tab.result is not None:
        res = tab.result
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
    from ledger.formats.match.apply import find_table

    st = t.state
    tab = find_table(st.fmt, kw["round_no"], kw["table"])
    if tab is not None and tab.result is not None:
        if _same(t, tab.result, kw):
            return Unchanged(tab.result.seq, kw["round_no"], kw["table"])
    return t.correct_result(signer, time, **kw)
