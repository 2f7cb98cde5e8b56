"""The Wheel of Time verbs as facets: ``commands``, ``judge_powers``, ``round_docs``
(docs/DESIGN.md §8, RULES.md §6-7).

Owns: ``WotCommands`` (pair a Game, record and correct a result from its outcome code;
no drop: a player leaves by a Declaration of Forfeiture, WOTOLD-FORF-1),
``WotJudgePowers`` (the Judge's forfeiture and TBP override, WOTOLD-FORF-1/2, and what
a forfeiture leaves to record) and ``WotRoundDocs`` (every Game as a round document for
the published site, defect 7).

May import: ``ledger.core.command_facets``, ``ledger.core.entry_facet``, ``ledger.errors``,
``ledger.formats.wot.*``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ledger.core.command_facets import Commands
from ledger.errors import RuleError
from ledger.formats.wot import commands

if TYPE_CHECKING:
    from ledger.core.aggregate import Tournament
    from ledger.core.entry_facet import ResultFields
    from ledger.core.state_model import TournamentState
    from ledger.wire.events import SignedEvent
    from ledger.wire.keys import Signer


class WotCommands(Commands):
    def pair_round(self, t: Tournament, signer: Signer, time: str, *,
                   material: str | None = None, source: str | None = None
                   ) -> list[SignedEvent]:
        return commands.pair_round(t, signer, time, material=material, source=source)

    def record_result(self, t: Tournament, signer: Signer, time: str,
                      kw: ResultFields) -> list[SignedEvent]:
        return commands.record_result(t, signer, time, kw)

    def correct_result(self, t: Tournament, signer: Signer, time: str,
                       kw: ResultFields) -> list[SignedEvent]:
        return commands.correct_result(t, signer, time, kw)

    def drop_player(self, t: Tournament, signer: Signer, time: str, number: int,
                    reason: str = "") -> list[SignedEvent]:
        raise RuleError("WOTOLD-FORF-1", "a Wheel of Time event has no drop: the Judge "
                        "removes a player by a Declaration of Forfeiture",
                        hint=f"tourney forfeit {number} --reason TEXT --key JUDGE.pem")


class WotJudgePowers:
    def declare_forfeit(self, t: Tournament, signer: Signer, time: str, *, number: int,
                        reason: str) -> list[SignedEvent]:
        return commands.declare_forfeit(t, signer, time, number=number, reason=reason)

    def override_tbp(self, t: Tournament, signer: Signer, time: str, *, round_no: int,
                     number: int, new: str, method: str,
                     reason: str) -> list[SignedEvent]:
        return commands.override_tbp(t, signer, time, round_no=round_no, number=number,
                                     new=new, method=method, reason=reason)

    def forfeit_todo(self, state: TournamentState,
                     number: int) -> tuple[dict[str, Any] | None, str]:
        from ledger.formats.wot import display

        return display.forfeit_todo(state, number)


class WotRoundDocs:
    def round_docs(self, state: TournamentState) -> list[dict[str, Any]]:
        """Every Game as a round document for the published site (defect 7)."""
        from ledger.formats.wot.game_docs import game_docs

        return game_docs(state)
