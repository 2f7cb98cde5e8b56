"""Playing an event step by step in-process, as ``tourney simulate`` plays it: the page
matrix's engine (``tests.helpers.page_matrix``).

Owns: ``Play`` — over one write session of one tournament: the format's next pairing (the
cut and the bracket first when they are due, the calls ``ledger.formats.simulation`` makes),
whether the event is over, the open round's tables, each table's simulated result (the
simulator's own outcome draws; a team table seat by seat; a Wheel of Time Game's outcome
code, a forfeited player's open table as their concession), and the round clock started.

May import: ``ledger.*`` (the simulator's outcome helpers too), the standard library.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from ledger.core.aggregate import Tournament
from ledger.formats.bushiroad import team_sim
from ledger.formats.hotc import plan as hotc_plan
from ledger.formats.match.model import Phase, Status
from ledger.formats.match.plan import open_round
from ledger.formats.match.sim import simulated_win
from ledger.storage.write_session import WriteSession
from ledger.wire.keys import Signer

HOTC = "hotc-swiss-de"


def _record(sk: Signer, kw: dict[str, Any], t: Tournament, now: str) -> object:
    return t.record_result(sk, now, **kw)


class Play:
    """One event's play: ``format_id``, the name its draws are keyed by, the head judge
    and the scorekeeper who sign, and the write session."""

    def __init__(self, format_id: str, name: str, cut: int | None, hj: Signer, sk: Signer,
                 sess: WriteSession, sim_seed: bytes) -> None:
        self.format_id, self.name, self.cut = format_id, name, cut
        self.wot = format_id.startswith("wot-")
        self.hj, self.sk, self.sess, self.sim_seed = hj, sk, sess, sim_seed
        self.dq: int | None = None       # a forfeited player's open table is conceded

    def write(self, fn: Callable[[Tournament, str], Any]) -> Any:
        return self.sess.write(fn)

    # -- the format's next pairing, as ``tourney simulate`` makes it ----------------------
    @property
    def state(self) -> Any:
        return self.sess.state

    def finished(self) -> bool:
        if self.wot:
            from ledger.formats.wot import plan
            return bool(plan.over(self.state))
        h = self.state.fmt
        hotc = self.format_id == HOTC
        if h.champion is not None or h.final or (not hotc and h.entries is not None
                                                  and len(h.entries) < 2):
            return True
        active = sum(r.status is Status.ACTIVE for r in h.records.values())
        if hotc and h.cut is not None and h.slots is None and (
                hotc_plan.tiny_cut(self.state) or len(h.cut) <= 1):
            return True
        return bool(h.cut is None and h.slots is None and active < 2
                    and open_round(self.state) is None and not self._swiss_over())

    def _swiss_over(self) -> bool:
        h = self.state.fmt
        if self.format_id == HOTC:
            return bool(hotc_plan.swiss_over(self.state))
        active = sum(r.status is Status.ACTIVE for r in h.records.values())
        return bool(h.swiss_over or (h.slots is None and active < 2))

    def pair_next(self) -> None:
        """The next round (or Game), or the cut and bracket first when they are due."""
        hj = self.hj
        n = len(self.rounds()) + 1
        material = f"matrix {self.name} R{n}"
        if self.wot:
            self.write(lambda t, now: t.pair_round(hj, now, material=material,
                                                   source="page matrix"))
            return
        h = self.state.fmt
        if self.format_id == "single-elim" and h.slots is None:
            self.write(lambda t, now: t.seed_bracket(hj, now, material=material + " bracket",
                                                     source="page matrix"))
            return                      # seeding the bracket pairs its first round
        if self._swiss_over() and h.cut is None:
            self.write(lambda t, now: t.select_cut(hj, now, material=material + " cut",
                                                   source="page matrix"))
            if not self.cut or self.finished():
                return
            h = self.state.fmt
        if h.cut is not None and h.slots is None:
            self.write(lambda t, now: t.seed_bracket(hj, now, material=material + " bracket",
                                                     source="page matrix"))
            return
        if h.slots is None:
            self.write(lambda t, now: t.pair_round(hj, now, material=material,
                                                   source="page matrix"))
        else:
            self.write(lambda t, now: t.pair_round(hj, now))

    def start_clock(self) -> None:
        """The head judge starts the open round's clock (``tourney round start``), where
        the format keeps one (Wheel of Time Games have none: they end by Last Battle)."""
        from ledger.errors import RuleError
        from ledger.formats.officiating.floor_commands import start_round

        if self.wot or open_round(self.state) is None:
            return
        hj = self.hj
        try:
            self.write(lambda t, now: start_round(t, hj, now))
        except RuleError:
            return

    def rounds(self) -> list[Any]:
        if self.wot:
            from ledger.formats.wot import plan
            return list(plan.ws(self.state).games)
        return list(self.state.fmt.rounds)

    def open_tables(self) -> tuple[int, list[Any]] | None:
        """(round number, its tables without a result) of the open round."""
        if self.wot:
            from ledger.formats.wot import plan
            games = plan.ws(self.state).games
            if not games or plan.complete(games[-1]):
                return None
            g = games[-1]
            return g.number, [t for t in g.tables if t.result is None]
        rnd = open_round(self.state)
        if rnd is None:
            return None
        return rnd.number, [t for t in rnd.tables if t.result is None]

    def sides(self, tab: Any) -> list[int]:
        return [tab.hero, tab.villain] if self.wot else list(tab.players)

    def play(self, tables: list[Any] | None = None) -> None:
        """Results for ``tables`` of the open round (all its open tables by default)."""
        found = self.open_tables()
        if found is None:
            return
        n, open_ = found
        sk = self.sk
        for tab in open_ if tables is None else tables:
            for kw in self._results(n, tab):
                self.write(partial(_record, sk, kw))

    def _results(self, n: int, tab: Any) -> list[dict[str, Any]]:
        if self.wot:
            from ledger.formats.wot import plan
            from ledger.formats.wot.sim import simulated_result
            rev = plan.revision(self.state)
            for k in range(500):
                kw = simulated_result(rev, self.sim_seed, f"T{n}/{tab.table}/{k}", tab.hero,
                                      tab.villain)
                # a forfeited player's open table is their concession (AMB-W10)
                if self.dq not in self.sides(tab) or kw.get("conceded_by") == self.dq:
                    return [{"round_no": n, "table": tab.table, **kw}]
            raise AssertionError("no simulated concession found")
        rnd = open_round(self.state)
        assert rnd is not None  # noqa: S101 - a test helper
        seats = team_sim.seat_count(self.state)
        if seats:
            return [simulated_win(self.sim_seed, f"R{n}/T{tab.table}/S{k}",
                                  team_sim.seat_players(self.state, tab.players, k), n,
                                  tab.table) | {"seat": k}
                    for k in range(1, seats + 1)]
        return [simulated_win(self.sim_seed, f"R{n}/T{tab.table}", tab.players, n, tab.table)]

    def in_top_cut(self) -> bool:
        if self.wot:
            return False
        rnd = open_round(self.state)
        return bool(rnd is not None and rnd.phase is Phase.TOP_CUT
                    and self.state.fmt.cut is not None)
