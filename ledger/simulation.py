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

from ledger.aggregate import Tournament
from ledger.checkpoint_store import write_checkpoint
from ledger.draw import seed_from_material, stream_below
from ledger.events import Role
from ledger.formats import make_format
from ledger.hotc.model import Outcome, Phase, Status
from ledger.hotc.plan import open_round
from ledger.keys import PublicKey, Signer
from ledger.store import Ledger

Progress = Callable[[str], None]
Step = Callable[[Tournament, str], object]
BATCH = 200
SCALE = 10_000


@dataclass(frozen=True)
class SimulationResult:
    log: str
    events: int
    rounds: int
    cut: list[int]
    champion: int | None


def demo_key(seed_text: str, role: str) -> Signer:
    digest = hashlib.sha256(f"tourney-sim/v1\x00{role}\x00{seed_text}".encode()).digest()
    return Signer.from_seed(digest, f"simulated {role}")


def _rate(r: Fraction) -> int:
    return int(r * SCALE)


def _batched(ledger: Ledger, log: str, steps: Sequence[Step]) -> None:
    """Run many commands in saves of ``BATCH`` events (each save is atomic)."""
    for i in range(0, len(steps), BATCH):
        ledger.write(log, partial(_run_all, steps[i:i + BATCH]))


def _run_all(steps: Sequence[Step], t: Tournament, now: str) -> None:
    for step in steps:
        step(t, now)


def _register(sk: Signer, i: int, t: Tournament, now: str) -> object:
    return t.register_player(f"Player {i:04d}", sk, now)


def _drop(sk: Signer, n: int, t: Tournament, now: str) -> object:
    return t.drop_player(sk, now, n, "simulated")


def _result(sk: Signer, kw: dict[str, Any], t: Tournament, now: str) -> object:
    return t.record_result(sk, now, **kw)


def simulate(ledger: Ledger, *, log: str, players: int, seed_text: str, cut: int = 8,
             timeouts: Fraction = Fraction(0), drops: Fraction = Fraction(0),
             checkpoints: Path | None, progress: Progress | None = None) -> SimulationResult:
    hj, sk = demo_key(seed_text, "head-judge"), demo_key(seed_text, "scorekeeper")
    say = progress or (lambda _msg: None)
    ledger.create(log, lambda now: Tournament.create(
        log=log, name=f"Simulated HotC event ({players} players)",
        fmt=make_format("hotc-swiss-de", cut), signer=hj, time=now))
    ledger.write(log, lambda t, now: t.add_official(
        PublicKey(sk.public_key_raw, sk.name), Role.SCOREKEEPER, sk.name, hj, now))
    _batched(ledger, log, [partial(_register, sk, i) for i in range(1, players + 1)])
    say(f"registered {players} players")
    sim_material = f"simulation:{seed_text}"
    ledger.write(log, lambda t, now: t.record_seed(
        material=sim_material, source="tourney simulate", ctx=f"{log}/simulation",
        reason="simulated match outcomes and drops (not a pairing seed)", signer=hj,
        time=now))
    sim_seed = seed_from_material(sim_material)
    ledger.write(log, lambda t, now: t.close_registration(hj, now))
    write_checkpoint(ledger, log, hj, checkpoints)

    def material(what: str) -> str:
        return f"{seed_text}/{what}"

    rounds = 0
    while True:
        state = ledger.load(log).state
        h = state.hotc
        if h.champion is not None:
            break
        small_field = not h.rounds and sum(
            r.status is Status.ACTIVE for r in h.records.values()) <= cut   # AMB-H6
        if (h.swiss_over or small_field) and h.cut is None:
            _drops(ledger, log, sk, sim_seed, drops, "cut-window", one_loss_only=True)
            ledger.write(log, lambda t, now: t.select_cut(
                hj, now, material=material("cut"), source="tourney simulate"))
            ledger.write(log, lambda t, now: t.seed_bracket(
                hj, now, material=material("bracket"), source="tourney simulate"))
        elif h.cut is not None and h.slots is None:
            ledger.write(log, lambda t, now: t.seed_bracket(
                hj, now, material=material("bracket"), source="tourney simulate"))
        else:
            if h.slots is None:
                _drops(ledger, log, sk, sim_seed, drops, f"R{len(h.rounds) + 1}")
                seed_material = material(f"R{len(h.rounds) + 1}")
                ledger.write(log, lambda t, now: t.pair_round(
                    hj, now, material=seed_material, source="tourney simulate"))
            else:
                ledger.write(log, lambda t, now: t.pair_round(hj, now))
        write_checkpoint(ledger, log, hj, checkpoints)
        _play(ledger, log, sk, sim_seed, timeouts)
        write_checkpoint(ledger, log, hj, checkpoints)
        rounds = len(ledger.load(log).state.hotc.rounds)
        say(f"round {rounds} complete")
    final = ledger.load(log)
    return SimulationResult(log=log, events=final.version, rounds=rounds,
                            cut=list(final.state.hotc.cut or []),
                            champion=final.state.hotc.champion)


def _drops(ledger: Ledger, log: str, sk: Signer, sim_seed: bytes, rate: Fraction,
           when: str, *, one_loss_only: bool = False) -> None:
    if rate <= 0:
        return
    recs = ledger.load(log).state.hotc.records.values()
    leaving = [r.number for r in sorted(recs, key=lambda r: r.number)
               if r.status is Status.ACTIVE and (not one_loss_only or r.losses == 1)
               and stream_below(sim_seed, f"{log}/sim/{when}/drop/{r.number}", SCALE)
               < _rate(rate)]
    _batched(ledger, log, [partial(_drop, sk, n) for n in leaving])


def _play(ledger: Ledger, log: str, sk: Signer, sim_seed: bytes, timeouts: Fraction) -> None:
    state = ledger.load(log).state
    rnd = open_round(state)
    if rnd is None:
        return
    steps: list[Step] = []
    for tab in rnd.tables:
        if tab.result is not None:
            continue
        u = stream_below(sim_seed, f"{log}/sim/R{rnd.number}/T{tab.table}", SCALE)
        side = tab.players[u % 2]
        kw: dict[str, Any] = {"round_no": rnd.number, "table": tab.table}
        if u < _rate(timeouts):
            kw["outcome"] = Outcome.TIMEOUT
            if rnd.phase is Phase.TOP_CUT:
                kw["turn_player"] = side
        else:
            kw.update(outcome=Outcome.WIN, winner=side)
        steps.append(partial(_result, sk, kw))
    _batched(ledger, log, steps)
