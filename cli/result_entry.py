"""One result slip entered at a station: idempotent re-entry, conflicts said plainly.

Owns: ``enter_result`` — what ``result record`` and each row of ``result import`` do inside
one ``Ledger.write``: when the table already holds exactly this result, nothing is written
and the earlier event is returned (a retried or doubly keyed slip is a success); when it
holds another result, the refusal says what is recorded, at which seq and by whom, and
how a judge corrects it; otherwise the ledger records it.  ``correct_entry`` does the same
for ``result correct`` (an identical correction writes nothing).  The outcome → winner and
losers mapping is ``ledger.hotc.results.decide_result``'s, never redone here.

May import: ``cli.round_cmd`` (labels), ``ledger.*``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ledger.errors import RuleError

if TYPE_CHECKING:
    from ledger.aggregate import Tournament
    from ledger.events import SignedEvent
    from ledger.hotc.model import ResultState, TableState
    from ledger.keys import Signer
    from ledger.state import TournamentState


@dataclass(frozen=True)
class Unchanged:
    """The table already holds exactly the entered result: nothing was written."""

    seq: int
    round: int
    table: int


def _same(state: TournamentState, tab: TableState, res: ResultState,
          kw: dict[str, Any]) -> bool:
    from ledger.hotc.apply import find_round
    from ledger.hotc.results import decide_result

    rnd = find_round(state.hotc, kw["round_no"])
    if rnd is None:
        return False
    slow = kw.get("slow_play") or []
    d = decide_result(rnd.phase, tab.players, kw["outcome"], winner=kw.get("winner"),
                      loser=kw.get("loser"), turn_player=kw.get("turn_player"),
                      slow_play=slow)
    return (d.winner, list(d.losers), list(d.loss_reasons), kw["outcome"]) == (
        res.winner, list(res.losers), list(res.loss_reasons), res.outcome)


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
    from cli.round_cmd import result_text
    return result_text(res)


def enter_result(t: Tournament, signer: Signer, time: str, actor_of: Any,
                 **kw: Any) -> list[SignedEvent] | Unchanged:
    """Record one result (``kw`` as for ``Tournament.record_result``), idempotently.

    ``actor_of(seq)`` gives the key id that signed an earlier event (read on refusal)."""
    from ledger.hotc.apply import find_table

    st = t.state
    tab = find_table(st.hotc, kw["round_no"], kw["table"])
    if tab is not None and tab.result is not None:
        res = tab.result
        if _same(st, tab, res, kw):
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
    from ledger.hotc.apply import find_table
    from ledger.hotc.plan import correctable_table

    st = t.state
    correctable_table(st, kw["round_no"], kw["table"])  # its refusals come first
    tab = find_table(st.hotc, kw["round_no"], kw["table"])
    if tab is not None and tab.result is not None:
        args = {k: v for k, v in kw.items() if k != "reason"}
        if _same(st, tab, tab.result, args):
            return Unchanged(tab.result.seq, kw["round_no"], kw["table"])
    return t.correct_result(signer, time, **kw)
