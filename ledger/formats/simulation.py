"""A whole simulated event, signed into the ledger (``tourney simulate``).

Owns: ``simulate`` — deterministic from its seed text: fixed demo keys derived from it, a
recorded simulation seed (ctx ``<log>/simulation``) from which every simulated outcome and
drop is drawn (never from the pairing seeds), per-round seeds recorded with their reason,
checkpoints after registration, every pairing and every round's results, then the cut, the
bracket and the champion.  Commands go through the same aggregate methods and rules as
the CLI.

May import: ``ledger.*``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any

from ledger.core.aggregate import Tournament
from ledger.core.draw import seed_from_material, stream_below
from ledger.core.params import Param
from ledger.core.state import TournamentState
from ledger.formats.bushiroad import team_sim
from ledger.formats.hotc import plan as hotc_plan
from ledger.formats.hotc import revision as hotc_revision
from ledger.formats.match.model import Outcome, Phase, Status
from ledger.formats.match.plan import open_round
from ledger.formats.registry import make_format
from ledger.proofs.checkpoint_store import write_checkpoint
from ledger.storage.store import Ledger
from ledger.storage.write_session import WriteSession
from ledger.wire.events import LedgerPolicy, Role
from ledger.wire.keys import PublicKey, Signer

Progress = Callable[[str], None]
Step = Callable[[Tournament, str], object]
BATCH = 200
HOTC = "hotc-swiss-de"
SCALE = 10_000


@dataclass(frozen=True)
class SimulationResult:
    log: str
    events: int
    rounds: int
    cut: list[int]
    champion: int | None


def _select_cut(hj: Signer, material: str, reason: str | None, t: Tournament,
                now: str) -> object:
    return t.select_cut(hj, now, material=material, source="tourney simulate",
                        no_champion=reason)


def _pair_seeded(hj: Signer, material: str, t: Tournament, now: str) -> object:
    return t.pair_round(hj, now, material=material, source="tourney simulate")


def demo_key(seed_text: str, role: str) -> Signer:
    digest = hashlib.sha256(f"tourney-sim/v1\x00{role}\x00{seed_text}".encode()).digest()
    return Signer.from_seed(digest, f"simulated {role}")


def _rate(r: Fraction) -> int:
    return int(r * SCALE)


def _batched(session: WriteSession, steps: Sequence[Step]) -> None:
    """Run many commands in saves of ``BATCH`` events (each save is atomic)."""
    for i in range(0, len(steps), BATCH):
        session.write(partial(_run_all, steps[i:i + BATCH]))


def _run_all(steps: Sequence[Step], t: Tournament, now: str) -> None:
    for step in steps:
        step(t, now)


def _register(sk: Signer, i: int, t: Tournament, now: str) -> object:
    # players 1..N into a new event: ``i`` is the next free number, named here rather than
    # found by a scan of every number so far at each registration (issue 22)
    return t.register_player(f"Player {i:04d}", sk, now, number=i)


def _drop(sk: Signer, n: int, t: Tournament, now: str) -> object:
    return t.drop_player(sk, now, n, "simulated")


def _result(sk: Signer, kw: dict[str, Any], t: Tournament, now: str) -> object:
    return t.record_result(sk, now, **kw)


def check_rates(format_id: str, timeouts: Fraction, drops: Fraction) -> None:
    """Refuse simulated time-ups or drops where the format has none: a Wheel of Time Game
    always ends (Last Battle, WOTOLD-TIME-2/3) and a player leaves only by a Declaration
    of Forfeiture."""
    if format_id.startswith("wot-") and (timeouts or drops):
        from ledger.errors import UsageError
        raise UsageError("--timeouts and --drops do not apply to Wheel of Time events",
                         hint="a WoT Game always ends (Last Battle, WOTOLD-TIME-2/3) and a "
                              "player leaves only by a Declaration of Forfeiture")


def simulate(ledger: Ledger, *, log: str, players: int, seed_text: str, cut: int | None = 8,
             timeouts: Fraction = Fraction(0), drops: Fraction = Fraction(0),
             checkpoints: Path | Callable[[], Path] | None,
             progress: Progress | None = None,
             format_id: str = HOTC, params: dict[str, Param] | None = None,
             policy: LedgerPolicy | None = None) -> SimulationResult:
    hj, sk = demo_key(seed_text, "head-judge"), demo_key(seed_text, "scorekeeper")
    say = progress or (lambda _msg: None)
    fmt = make_format(format_id, cut, params)
    title = "HotC" if format_id == HOTC else format_id
    ledger.create(log, lambda now: Tournament.create(
        log=log, name=f"Simulated {title} event ({players} players)",
        fmt=fmt, signer=hj, time=now, policy=policy))
    if callable(checkpoints):  # a log's note directory is keyed by its genesis hash
        checkpoints = checkpoints()
    cut = fmt.cut
    # one writer session for the whole event: the aggregate stays in memory between
    # saves instead of being reloaded (snapshot decode + fold) before every batch
    sess = ledger.session(log)
    sess.write(lambda t, now: t.add_official(
        PublicKey(sk.public_key_raw, sk.name), Role.SCOREKEEPER, sk.name, hj, now))
    teams = team_sim.team_steps(params, players, sk)     # team events (issue 20)
    if teams:
        players -= players % team_sim.SIZES[str((params or {})["team_mode"])]
    _batched(sess, [partial(_register, sk, i) for i in range(1, players + 1)])
    _batched(sess, teams)
    say(f"registered {players} players" + (f" in {len(teams)} teams" if teams else ""))
    sim_material = f"simulation:{seed_text}"
    sess.write(lambda t, now: t.record_seed(
        material=sim_material, source="tourney simulate", ctx=f"{log}/simulation",
        reason="simulated match outcomes and drops (not a pairing seed)", signer=hj,
        time=now))
    sim_seed = seed_from_material(sim_material)
    sess.write(lambda t, now: t.close_registration(hj, now))
    write_checkpoint(ledger, log, hj, checkpoints, state=sess.state)

    def material(what: str) -> str:
        return f"{seed_text}/{what}"

    if format_id.startswith("wot-"):                       # Games in Cycles (RULES.md §6-7)
        from ledger.formats.wot.sim import play_event
        games, first = play_event(ledger, log, hj, sk, sim_seed, material, "tourney simulate",
                                  checkpoints, say)
        return SimulationResult(log=log, events=ledger.load(log).version, rounds=games,
                                cut=[], champion=first[0] if len(first) == 1 else None)
    rounds = 0
    hotc = format_id == HOTC
    while True:
        state = sess.state
        h = state.fmt
        if h.champion is not None or h.final or (not hotc and h.entries is not None
                                                  and len(h.entries) < 2):
            break                   # a champion, final standings, or an empty bracket
        if hotc and h.slots is None and h.cut is None and open_round(state) is None \
                and not hotc_plan.swiss_over(state):
            # drops before the round, then the stop rule is asked again (HOTC-STOP-1, R2)
            _drops(sess, log, sk, sim_seed, drops, f"R{len(h.rounds) + 1}")
            state = sess.state
            h = state.fmt
        active = sum(r.status is Status.ACTIVE for r in h.records.values())
        over = (hotc_plan.swiss_over(state) if hotc                   # HOTC-STOP-1, AMB-H6
                else h.swiss_over or (h.slots is None and active < 2))  # nobody to pair
        if hotc and not over and h.cut is None and open_round(state) is None and sum(
                r.status is Status.ACTIVE for r in h.records.values()) < 2:
            break    # HOTC_2013 only (R2 stops first): the old rules cannot go on
        if hotc and h.cut is not None and h.slots is None and (
                hotc_plan.tiny_cut(state) or len(h.cut) <= 1):
            break          # R2: ended at the cut; HOTC_2013: no rule finishes a cut of 0/1
        if format_id == "single-elim" and h.slots is None:
            sess.write(lambda t, now: t.seed_bracket(
                hj, now, material=material("bracket"), source="tourney simulate"))
        elif over and h.cut is None:
            reason = None
            if hotc:
                _drops(sess, log, sk, sim_seed, drops, "cut-window", one_loss_only=True)
                reason = _no_champion_reason(sess.state)
            sess.write(partial(_select_cut, hj, material("cut"), reason))
            after = sess.state
            if not cut or hotc and len(after.fmt.cut or []) <= 1:
                write_checkpoint(ledger, log, hj, checkpoints, state=sess.state)
                continue
            sess.write(lambda t, now: t.seed_bracket(
                hj, now, material=material("bracket"), source="tourney simulate"))
        elif h.cut is not None and h.slots is None:
            sess.write(lambda t, now: t.seed_bracket(
                hj, now, material=material("bracket"), source="tourney simulate"))
        else:
            if h.slots is None:
                if not hotc:                # HotC drops were made above, before its stop rule
                    _drops(sess, log, sk, sim_seed, drops, f"R{len(h.rounds) + 1}")
                    if sum(r.status is Status.ACTIVE
                           for r in sess.state.fmt.records.values()) < 2:
                        continue            # nobody left to pair: finalize instead
                sess.write(partial(_pair_seeded, hj, material(f"R{len(h.rounds) + 1}")))
            else:
                sess.write(lambda t, now: t.pair_round(hj, now))
        write_checkpoint(ledger, log, hj, checkpoints, state=sess.state)
        _play(sess, log, sk, sim_seed, timeouts, hotc=hotc)
        write_checkpoint(ledger, log, hj, checkpoints, state=sess.state)
        rounds = len(sess.state.fmt.rounds)
        say(f"round {rounds} complete")
    # the end-of-event checkpoint
    write_checkpoint(ledger, log, hj, checkpoints, state=sess.state)
    final = sess.state
    return SimulationResult(log=log, events=final.size, rounds=rounds,
                            cut=list(final.fmt.cut or []), champion=final.fmt.champion)


def _no_champion_reason(state: TournamentState) -> str | None:
    """The simulated head judge's reason when the R2 cut would have no player (AMB-H9)."""
    x0, pool, spots = hotc_plan.cut_plan(state)
    if not hotc_revision.revised(state) or x0 or (spots and pool):
        return None
    return "simulated: no undefeated player and no eligible one-loss player (AMB-H9)"


def _drops(sess: WriteSession, log: str, sk: Signer, sim_seed: bytes, rate: Fraction,
           when: str, *, one_loss_only: bool = False) -> None:
    if rate <= 0:
        return
    recs = sess.state.fmt.records.values()
    leaving = [r.number for r in sorted(recs, key=lambda r: r.number)
               if r.status is Status.ACTIVE and (not one_loss_only or r.losses == 1)
               and stream_below(sim_seed, f"{log}/sim/{when}/drop/{r.number}", SCALE)
               < _rate(rate)]
    _batched(sess, [partial(_drop, sk, n) for n in leaving])


def _play(sess: WriteSession, log: str, sk: Signer, sim_seed: bytes, timeouts: Fraction, *,
          hotc: bool = True) -> None:
    state = sess.state
    rnd = open_round(state)
    if rnd is None:
        return
    steps: list[Step] = []
    seats = 0 if hotc else team_sim.seat_count(state)
    for tab in rnd.tables:
        if tab.result is not None:
            continue
        for k in range(1, seats + 1):      # a team table: each seat's match (BR-TEAM-2)
            steps.append(partial(_result, sk, _outcome(
                sim_seed, f"{log}/sim/R{rnd.number}/T{tab.table}/S{k}",
                team_sim.seat_players(state, tab.players, k), rnd.number, tab.table,
                timeouts, rnd.phase, hotc=False) | {"seat": k}))
        if seats:
            continue
        steps.append(partial(_result, sk, _outcome(
            sim_seed, f"{log}/sim/R{rnd.number}/T{tab.table}", tab.players, rnd.number,
            tab.table, timeouts, rnd.phase, hotc=hotc)))
    _batched(sess, steps)


def _outcome(sim_seed: bytes, ctx: str, players: list[int], round_no: int, table: int,
             timeouts: Fraction, phase: Phase, *, hotc: bool) -> dict[str, Any]:
    """One simulated table's (or seat's) result keywords, drawn from its own stream."""
    u = stream_below(sim_seed, ctx, SCALE)
    side = players[u % 2]
    kw: dict[str, Any] = {"round_no": round_no, "table": table}
    if u < _rate(timeouts) and (hotc or phase is Phase.SWISS):
        kw["outcome"] = Outcome.TIMEOUT
        if not hotc:             # time-up in a BO1: the game in progress is drawn
            kw["games"] = [0, 0, 1]
        elif phase is Phase.TOP_CUT:
            kw["turn_player"] = side
    else:
        kw.update(outcome=Outcome.WIN, winner=side)
    return kw
