"""``tourney simulate`` for the formats that play rounds of matches (the ``simulation``
facet of HotC and the Bushiroad formats; docs/DESIGN.md §10).

Owns: ``MatchSimulation`` — after registration closed: pair each round, play it from the
recorded simulation seed (each table's or seat's outcome from its own stream, never from
a pairing seed), drops at the drop rate, checkpoints after every pairing and every
round's results, then the cut, the bracket and the champion; a format's own policy
(HotC's stop rule, its cut window, its timeouts) is in its subclass's hooks.  And the
steps every simulation shares: ``batched`` (saves of ``BATCH`` events), ``rate``,
``simulated_win``.

May import: ``ledger.core.*``, ``ledger.proofs.checkpoint_store``, ``ledger.storage.*``
(type hints), ``ledger.wire.keys``, ``ledger.formats.match.*``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import partial
from typing import TYPE_CHECKING, Any

from ledger.core.command_facets import SimOutcome, SimRun
from ledger.core.draw import stream_below
from ledger.core.params import Param
from ledger.formats.match.model import MatchState, Outcome, Phase, Status

if TYPE_CHECKING:
    from ledger.core.aggregate import Tournament
    from ledger.core.state_model import TournamentState
    from ledger.storage.write_session import WriteSession
    from ledger.wire.keys import Signer

Step = Callable[["Tournament", str], object]
BATCH = 200
SCALE = 10_000


def rate(r: Fraction) -> int:
    return int(r * SCALE)


def batched(session: WriteSession, steps: Sequence[Step]) -> None:
    """Run many commands in saves of ``BATCH`` events (each save is atomic)."""
    for i in range(0, len(steps), BATCH):
        session.write(partial(_run_all, steps[i:i + BATCH]))


def _run_all(steps: Sequence[Step], t: Tournament, now: str) -> None:
    for step in steps:
        step(t, now)


def _drop(sk: Signer, n: int, t: Tournament, now: str) -> object:
    return t.drop_player(sk, now, n, "simulated")


def _result(sk: Signer, kw: dict[str, Any], t: Tournament, now: str) -> object:
    return t.record_result(sk, now, **kw)


def _select_cut(hj: Signer, material: str, reason: str | None, t: Tournament,
                now: str) -> object:
    return t.select_cut(hj, now, material=material, source="tourney simulate",
                        no_champion=reason)


def _pair_seeded(hj: Signer, material: str, t: Tournament, now: str) -> object:
    return t.pair_round(hj, now, material=material, source="tourney simulate")


def _seed_bracket(hj: Signer, material: str, t: Tournament, now: str) -> object:
    return t.seed_bracket(hj, now, material=material, source="tourney simulate")


def _pair_bracket(hj: Signer, t: Tournament, now: str) -> object:
    return t.pair_round(hj, now)


def simulated_win(sim_seed: bytes, ctx: str, players: list[int], round_no: int,
                  table: int) -> dict[str, Any]:
    """A simulated table's (or seat's) win, its winner drawn from its own stream ``ctx``
    (what ``MatchSimulation`` records when no time-up is drawn)."""
    u = stream_below(sim_seed, ctx, SCALE)
    return {"round_no": round_no, "table": table, "outcome": Outcome.WIN,
            "winner": players[u % 2]}


def _active(h: MatchState) -> int:
    return sum(r.status is Status.ACTIVE for r in h.records.values())


class MatchSimulation:
    """A simulated event of a match-layer format: the Bushiroad policy by default (drops
    before each pairing, timeouts only in the Swiss, a BO1 time-up drawn)."""

    #: drops are made before the stop rule is asked (HOTC-STOP-1, R2), not at pairing
    drops_before_stop_rule = False
    #: the bracket is seeded before any round (single elimination, RULES.md §3.8)
    seeds_first = False

    def __init__(self, title: str) -> None:
        self.title = title

    # -- the hooks a format's policy overrides -------------------------------------------------
    def check_rates(self, timeouts: Fraction, drops: Fraction) -> None:
        """Refuse simulated time-ups or drops where the format has none."""

    def team_size(self, params: dict[str, Param] | None) -> int:
        return 0

    def team_steps(self, params: dict[str, Param] | None, players: int,
                   scorekeeper: Signer) -> list[Step]:
        return []

    def no_bracket_left(self, h: MatchState) -> bool:
        return h.entries is not None and len(h.entries) < 2    # an empty bracket

    def swiss_over(self, state: TournamentState, h: MatchState) -> bool:
        return h.swiss_over or (h.slots is None and _active(h) < 2)  # nobody to pair

    def stuck(self, state: TournamentState, h: MatchState, over: bool) -> bool:
        """No rule goes on from here (the event ends without a champion)."""
        return False

    def cut_window(self, run: SimRun) -> str | None:
        """Before the cut: the format's drops, and the head judge's reason when the cut
        would have no player (None: there is a cut)."""
        return None

    def cut_ends_event(self, state: TournamentState) -> bool:
        return False

    def seat_count(self, state: TournamentState) -> int:
        return 0

    def seat_players(self, state: TournamentState, players: list[int], seat: int) -> list[int]:
        return players

    def timeout(self, kw: dict[str, Any], phase: Phase, side: int, *, seat: bool) -> bool:
        """A simulated time-up's keywords (False: no time-up in this phase): a BO1 time-up
        draws the game in progress."""
        if phase is not Phase.SWISS:
            return False
        kw["outcome"] = Outcome.TIMEOUT
        kw["games"] = [0, 0, 1]
        return True

    # -- the event ---------------------------------------------------------------------------
    def play(self, run: SimRun) -> SimOutcome:
        from ledger.formats.match.plan import open_round
        from ledger.proofs.checkpoint_store import write_checkpoint

        sess = run.session
        hj = run.head_judge
        rounds = 0
        while True:
            state = sess.state
            h = state.format_state(MatchState)
            if h.champion is not None or h.final or self.no_bracket_left(h):
                break                   # a champion, final standings, or an empty bracket
            if self.drops_before_stop_rule and h.slots is None and h.cut is None \
                    and open_round(state) is None and not self.swiss_over(state, h):
                # drops before the round, then the stop rule is asked again (HOTC-STOP-1)
                self._drops(run, f"R{len(h.rounds) + 1}")
                state = sess.state
                h = state.format_state(MatchState)
            over = self.swiss_over(state, h)
            if self.stuck(state, h, over):
                break
            if self.seeds_first and h.slots is None:
                sess.write(partial(_seed_bracket, hj, run.material("bracket")))
            elif over and h.cut is None:
                reason = self.cut_window(run)
                sess.write(partial(_select_cut, hj, run.material("cut"), reason))
                if not run.cut or self.cut_ends_event(sess.state):
                    write_checkpoint(run.ledger, run.log, hj, run.checkpoints,
                                     state=sess.state)
                    continue
                sess.write(partial(_seed_bracket, hj, run.material("bracket")))
            elif h.cut is not None and h.slots is None:
                sess.write(partial(_seed_bracket, hj, run.material("bracket")))
            else:
                if h.slots is None:
                    if not self.drops_before_stop_rule:
                        self._drops(run, f"R{len(h.rounds) + 1}")
                        if _active(sess.state.format_state(MatchState)) < 2:
                            continue        # nobody left to pair: finalize instead
                    sess.write(partial(_pair_seeded, hj,
                                       run.material(f"R{len(h.rounds) + 1}")))
                else:
                    sess.write(partial(_pair_bracket, hj))
            write_checkpoint(run.ledger, run.log, hj, run.checkpoints, state=sess.state)
            self._play(run)
            write_checkpoint(run.ledger, run.log, hj, run.checkpoints, state=sess.state)
            rounds = len(sess.state.format_state(MatchState).rounds)
            run.say(f"round {rounds} complete")
        # the end-of-event checkpoint
        write_checkpoint(run.ledger, run.log, hj, run.checkpoints, state=sess.state)
        final = sess.state
        h = final.format_state(MatchState)
        return SimOutcome(events=final.size, rounds=rounds, cut=list(h.cut or []),
                          champion=h.champion)

    def _drops(self, run: SimRun, when: str, *, one_loss_only: bool = False) -> None:
        if run.drops <= 0:
            return
        recs = run.session.state.format_state(MatchState).records.values()
        leaving = [r.number for r in sorted(recs, key=lambda r: r.number)
                   if r.status is Status.ACTIVE and (not one_loss_only or r.losses == 1)
                   and stream_below(run.sim_seed, f"{run.log}/sim/{when}/drop/{r.number}",
                                    SCALE) < rate(run.drops)]
        batched(run.session, [partial(_drop, run.scorekeeper, n) for n in leaving])

    def _play(self, run: SimRun) -> None:
        from ledger.formats.match.plan import open_round

        state = run.session.state
        rnd = open_round(state)
        if rnd is None:
            return
        steps: list[Step] = []
        seats = self.seat_count(state)
        sk, log = run.scorekeeper, run.log
        for tab in rnd.tables:
            if tab.result is not None:
                continue
            for k in range(1, seats + 1):      # a team table: each seat's match (BR-TEAM-2)
                steps.append(partial(_result, sk, self._outcome(
                    run, f"{log}/sim/R{rnd.number}/T{tab.table}/S{k}",
                    self.seat_players(state, tab.players, k), rnd.number, tab.table,
                    rnd.phase, seat=True) | {"seat": k}))
            if seats:
                continue
            steps.append(partial(_result, sk, self._outcome(
                run, f"{log}/sim/R{rnd.number}/T{tab.table}", tab.players, rnd.number,
                tab.table, rnd.phase, seat=False)))
        batched(run.session, steps)

    def _outcome(self, run: SimRun, ctx: str, players: list[int], round_no: int, table: int,
                 phase: Phase, *, seat: bool) -> dict[str, Any]:
        """One simulated table's (or seat's) result keywords, drawn from its own stream."""
        u = stream_below(run.sim_seed, ctx, SCALE)
        side = players[u % 2]
        kw: dict[str, Any] = {"round_no": round_no, "table": table}
        if not (u < rate(run.timeouts) and self.timeout(kw, phase, side, seat=seat)):
            kw.update(outcome=Outcome.WIN, winner=side)
        return kw
