"""The HotC verbs as facets: ``commands`` and ``slow_play`` (docs/DESIGN.md §8, RULES.md §2).

Owns: ``HotcCommands`` (pair, record, correct, drop, cut, bracket: each reads its typed
keywords and hands them to ``ledger.formats.hotc.commands``; a result's game-score
options are refused: HotC matches are single games with no draws) and ``HotcSlowPlay``
(R2 slow-play calls and rulings, ``ledger.formats.hotc.slow_play``).  The command
modules are imported on first use (a read command never imports them, issue 22).

May import: ``ledger.core.command_facets``, ``ledger.core.entry_facet``, ``ledger.errors``,
``ledger.formats.match.model``, ``ledger.formats.hotc.*``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ledger.core.command_facets import Commands
from ledger.errors import UsageError
from ledger.formats.match.model import Outcome

if TYPE_CHECKING:
    from ledger.core.aggregate import Tournament
    from ledger.core.entry_facet import ResultFields
    from ledger.wire.events import SignedEvent
    from ledger.wire.keys import Signer

FORMAT_ID = "hotc-swiss-de"


def hotc_options(kw: ResultFields) -> ResultFields:
    """HotC matches are single games with no draws: refuse the game-score options."""
    for name, option in (("games", "--games"), ("annex_values", "--annex-a")):
        if kw.get(name) is not None:
            raise UsageError(f"{option} does not apply to {FORMAT_ID}",
                             hint="HotC results: --winner, --concession, --timeout, "
                                  "--slow-play, --double-loss or --tie")
    return kw


class HotcCommands(Commands):
    def pair_round(self, t: Tournament, signer: Signer, time: str, *,
                   material: str | None = None, source: str | None = None
                   ) -> list[SignedEvent]:
        from ledger.formats.hotc import commands

        return commands.pair_round(t, signer, time, material=material, source=source)

    def record_result(self, t: Tournament, signer: Signer, time: str,
                      kw: ResultFields) -> list[SignedEvent]:
        from ledger.formats.hotc import commands

        kw = hotc_options(kw)
        return commands.record_result(
            t, signer, time, round_no=kw["round_no"], table=kw["table"],
            outcome=Outcome(kw["outcome"]), winner=kw.get("winner"), loser=kw.get("loser"),
            turn_player=kw.get("turn_player"), slow_play=kw.get("slow_play"),
            note=kw.get("note", ""), losers=kw.get("losers"),
            penalty_seq=kw.get("penalty_seq"))

    def correct_result(self, t: Tournament, signer: Signer, time: str,
                       kw: ResultFields) -> list[SignedEvent]:
        from ledger.formats.hotc import commands

        kw = hotc_options(kw)
        return commands.correct_result(
            t, signer, time, round_no=kw["round_no"], table=kw["table"],
            outcome=Outcome(kw["outcome"]), reason=kw["reason"], winner=kw.get("winner"),
            loser=kw.get("loser"), turn_player=kw.get("turn_player"),
            slow_play=kw.get("slow_play"), losers=kw.get("losers"))

    def drop_player(self, t: Tournament, signer: Signer, time: str, number: int,
                    reason: str = "") -> list[SignedEvent]:
        from ledger.formats.hotc import commands

        return commands.drop_player(t, signer, time, number, reason)

    def select_cut(self, t: Tournament, signer: Signer, time: str, *,
                   material: str | None = None, source: str | None = None,
                   no_champion: str | None = None) -> list[SignedEvent]:
        from ledger.formats.hotc import commands

        return commands.select_cut(t, signer, time, material=material, source=source,
                                   no_champion=no_champion)

    def seed_bracket(self, t: Tournament, signer: Signer, time: str, *,
                     material: str | None = None,
                     source: str | None = None) -> list[SignedEvent]:
        from ledger.formats.hotc import commands

        return commands.seed_bracket(t, signer, time, material=material, source=source)


class HotcSlowPlay:
    """A slow-play call made during a match, recorded when it happens, and its ruling
    (HotC R2, HOTC-SLOW-1)."""

    def call_slow_play(self, t: Tournament, signer: Signer, time: str, *, round_no: int,
                       table: int, caller: int, called: int) -> SignedEvent:
        from ledger.formats.hotc import slow_play

        return slow_play.call_slow_play(t, signer, time, round_no=round_no, table=table,
                                        caller=caller, called=called)

    def rule_slow_play(self, t: Tournament, signer: Signer, time: str, *, call_seq: int,
                       upheld: bool, minutes_added: int = 0) -> SignedEvent:
        from ledger.formats.hotc import slow_play

        return slow_play.rule_slow_play(t, signer, time, call_seq=call_seq, upheld=upheld,
                                        minutes_added=minutes_added)
