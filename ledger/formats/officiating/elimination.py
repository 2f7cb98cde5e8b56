"""When a result changes a DE fighter's elimination (BR-DE-1, BR-DE-5): the round of the
second loss, and the rule that an amendment of an earlier round may not eliminate a
fighter before rounds they played (issue 21 item 20, ADR 0018).

Owns: ``second_loss`` and ``no_retroactive_elimination``.

May import: ``ledger.core.state``, ``ledger.errors``, ``ledger.formats.match.*``,
``ledger.formats.match.history``, ``.events``, ``.rules``.
"""

from __future__ import annotations

from ledger.core.state import TournamentState
from ledger.errors import RuleError
from ledger.formats.match import history
from ledger.formats.match.history import Row
from ledger.formats.match.model import PlayerRecord
from ledger.formats.officiating.events import ResultAmended
from ledger.formats.officiating.rules import ms


def second_loss(rec: PlayerRecord) -> int | None:
    seen = 0
    for i, c in enumerate(rec.played, start=1):
        seen += c in ("L", "X", "N")
        if seen >= 2:
            return i
    return None


def no_retroactive_elimination(state: TournamentState, body: ResultAmended,
                                row: Row) -> None:
    """BR-DE-1: an amendment may not give a fighter the eliminating loss before a round
    they played — the rounds paired since stand, and a fighter out after round k has
    no result in a later round, so the event would have no standings (issue 21 item 20,
    ADR 0018)."""
    h = ms(state)
    if not h.eliminate_at:
        return
    for p in row.players:
        rec = h.records.get(p)
        if rec is None or p not in body.losers or p in row.losers:
            continue
        played = rec.played.ljust(body.round, "-")
        trial = PlayerRecord(number=p, played=played[:body.round - 1] + "L"
                             + played[body.round:])
        out = second_loss(trial)
        later = sorted(r for r, _t, x in history.rows(h.officiating)
                       if p in x.players and r > body.round)
        if out is not None and later and out < later[-1]:
            gone = [r for r in later if r > out]
            raise RuleError("BR-DE-1", f"the amendment gives #{p} a second loss by round "
                            f"{out}, but #{p} played round(s) "
                            f"{', '.join(map(str, gone))} after it: an eliminated fighter "
                            "cannot have played on",
                            hint=f"keep round {body.round}'s result (the later rounds "
                                 "stand) and record the error as a penalty ('tourney "
                                 "penalty issue'), as BR-FIN-3 does for an error found late",
                            finding="rule_violation")
