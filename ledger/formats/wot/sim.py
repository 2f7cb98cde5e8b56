"""Simulated Wheel of Time results (``tourney simulate``, the sample, benchmarks, tests).

Owns: ``simulated_result`` — the keyword arguments of ``record_result`` for one table,
drawn from a recorded simulation seed (never from a pairing seed) so the same seed text
gives the same event; every outcome code of the revision occurs, with amounts the code
needs; and ``play_event`` — every Game of a registered, closed event, paired with seed
materials derived from the seed text, results batched, a checkpoint after each pairing and
each Game (``tourney simulate``, the sample and the benchmarks); ``WotSimulation``, the
formats' ``simulation`` facet.

May import: ``ledger.*`` (the simulator drives the aggregate like the CLI does).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ledger.core.command_facets import SimOutcome, SimRun
from ledger.core.draw import stream_below
from ledger.core.params import Param
from ledger.formats.wot import plan
from ledger.formats.wot.model import Revision
from ledger.proofs.checkpoint_store import write_checkpoint

if TYPE_CHECKING:
    from ledger.core.aggregate import Tournament
    from ledger.storage.store import Ledger
    from ledger.wire.keys import Signer

#: (code, weight): mostly Last Battle wins, every code now and then
_CLASSIC = (("O1", 8), ("O2", 3), ("O3", 1), ("O4", 3), ("O5", 1), ("O6", 1), ("O7", 1),
            ("O8", 2))
_2001 = (("Q1", 10), ("Q2", 2), ("Q3", 1), ("Q4", 3), ("Q5", 1))


def _pick(seed: bytes, ctx: str, table: tuple[tuple[str, int], ...]) -> str:
    u = stream_below(seed, ctx, sum(w for _, w in table))
    for code, w in table:
        if u < w:
            return code
        u -= w
    return table[-1][0]  # pragma: no cover


def simulated_result(revision: Revision, seed: bytes, ctx: str, hero: int,
                     villain: int) -> dict[str, Any]:
    """``record_result`` keyword arguments (``wot_outcome`` and what it needs)."""
    def r(what: str, n: int) -> int:
        return stream_below(seed, f"{ctx}/{what}", n)

    winner, loser = (hero, villain) if r("winner", 2) == 0 else (villain, hero)
    if revision is Revision.WOT_OLD:
        code = _pick(seed, f"{ctx}/code", _CLASSIC)
        kw: dict[str, Any] = {"wot_outcome": code}
        if code in ("O1", "O2", "O3", "O4", "O5"):
            kw["winner"] = winner
        if code == "O1":
            kw["support"] = {winner: 5 + r("sw", 5), loser: r("sl", 5)}
        elif code in ("O2", "O3"):
            kw["support"] = {winner: r("sw", 7)}
        elif code == "O6":
            kw["support"] = {hero: r("sh", 6), villain: r("sv", 6)}
        if code in ("O3", "O5"):
            kw["conceded_by"] = loser
        return kw
    code = _pick(seed, f"{ctx}/code", _2001)
    kw = {"wot_outcome": code, "pattern": {hero: r("ph", 13), villain: r("pv", 13)}}
    if code in ("Q1", "Q5") or (code == "Q4" and r("both", 4)):
        kw["winner"] = winner
    if code in ("Q4", "Q5"):
        kw["neutral"] = r("n", 7)
    if code == "Q5":
        kw["conceded_by"] = loser
    if code in ("Q3", "Q5"):
        kw["last_battle"] = r("lb", 2) == 1
    return kw


def _record(sk: Signer, kw: dict[str, Any], t: Tournament, now: str) -> None:
    t.record_result(sk, now, **kw)


def _pair(hj: Signer, material: str, source: str, t: Tournament, now: str) -> None:
    t.pair_round(hj, now, material=material, source=source)


def _run(steps: Sequence[Callable[[Tournament, str], None]], t: Tournament, now: str) -> None:
    for step in steps:
        step(t, now)


def play_event(ledger: Ledger, log: str, hj: Signer, sk: Signer, sim_seed: bytes,
               material: Callable[[str], str], source: str, checkpoints: Path | None,
               progress: Callable[[str], None] = lambda _m: None,
               batch: int = 200) -> tuple[int, list[int]]:
    """Pair and play every Game; returns (Games played, the players in first place)."""
    while not plan.over(ledger.load(log).state):
        n = len(plan.ws(ledger.load(log).state).games) + 1
        ledger.write(log, partial(_pair, hj, material(f"R{n}"), source))
        if checkpoints is not None:
            write_checkpoint(ledger, log, hj, checkpoints)
        st = ledger.load(log).state
        rev = plan.revision(st)
        game = plan.ws(st).games[-1]
        steps = [partial(_record, sk, {"round_no": n, "table": tab.table, **simulated_result(
            rev, sim_seed, f"{log}/sim/R{n}/T{tab.table}", tab.hero, tab.villain)})
            for tab in game.tables]
        for i in range(0, len(steps), batch):
            ledger.write(log, partial(_run, steps[i:i + batch]))
        if checkpoints is not None:
            write_checkpoint(ledger, log, hj, checkpoints)
        progress(f"Game {n} complete")
    _, places = plan.standings(ledger.load(log).state)
    return len(plan.ws(ledger.load(log).state).games), [p.number for p in places
                                                        if p.place == 1]


class WotSimulation:
    """The ``simulation`` facet of the Wheel of Time formats: Games in Cycles (RULES.md
    §6-7) until every Game is played; the winner the sole first place."""

    title: str

    def __init__(self, title: str) -> None:
        self.title = title

    def check_rates(self, timeouts: Fraction, drops: Fraction) -> None:
        """A Wheel of Time Game always ends (Last Battle, WOTOLD-TIME-2/3) and a player
        leaves only by a Declaration of Forfeiture: no simulated time-ups or drops."""
        if timeouts or drops:
            from ledger.errors import UsageError
            raise UsageError("--timeouts and --drops do not apply to Wheel of Time events",
                             hint="a WoT Game always ends (Last Battle, WOTOLD-TIME-2/3) "
                                  "and a player leaves only by a Declaration of Forfeiture")

    def team_size(self, params: dict[str, Param] | None) -> int:
        return 0

    def team_steps(self, params: dict[str, Param] | None, players: int,
                   scorekeeper: Signer) -> list[Callable[[Tournament, str], object]]:
        return []

    def play(self, run: SimRun) -> SimOutcome:
        games, first = play_event(run.ledger, run.log, run.head_judge, run.scorekeeper,
                                  run.sim_seed, run.material, "tourney simulate",
                                  run.checkpoints, run.say)
        return SimOutcome(events=run.ledger.load(run.log).version, rounds=games, cut=[],
                          champion=first[0] if len(first) == 1 else None)
