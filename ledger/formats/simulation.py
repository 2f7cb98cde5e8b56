"""A whole simulated event, signed into the ledger (``tourney simulate``).

Owns: ``simulate`` — deterministic from its seed text: fixed demo keys derived from it, a
recorded simulation seed (ctx ``<log>/simulation``) from which every simulated outcome and
drop is drawn (never from the pairing seeds), players (and a team event's teams)
registered, registration closed and checkpointed; then the format's ``simulation`` facet
plays the event (``ledger.core.command_facets.Simulation``: rounds or Games, the cut, the
bracket, the champion, a checkpoint after every pairing and every round's results), so
this module names no format.  Commands go through the same aggregate methods and rules
as the CLI.

May import: ``ledger.*`` (no format folder: the formats are reached through the registry).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from pathlib import Path

from ledger.core.aggregate import Tournament
from ledger.core.command_facets import SimRun, Simulation
from ledger.core.draw import seed_from_material
from ledger.core.format_socket import require_plugin
from ledger.core.params import Param
from ledger.errors import UsageError
from ledger.formats.match.sim import batched
from ledger.formats.registry import make_format
from ledger.proofs.checkpoint_store import write_checkpoint
from ledger.storage.store import Ledger
from ledger.wire.events import LedgerPolicy, Role
from ledger.wire.keys import PublicKey, Signer

Progress = Callable[[str], None]
HOTC = "hotc-swiss-de"


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


def _register(sk: Signer, i: int, t: Tournament, now: str) -> object:
    # players 1..N into a new event: ``i`` is the next free number, named here rather than
    # found by a scan of every number so far at each registration (issue 22)
    return t.register_player(f"Player {i:04d}", sk, now, number=i)


def _simulation(format_id: str) -> Simulation:
    sim = require_plugin(format_id).simulation
    if sim is None:
        raise UsageError(f"format {format_id} has no simulation",
                         hint="see 'tourney formats' for the formats it runs")
    return sim


def check_rates(format_id: str, timeouts: Fraction, drops: Fraction) -> None:
    """Refuse simulated time-ups or drops where the format has none (its facet says)."""
    _simulation(format_id).check_rates(timeouts, drops)


def simulate(ledger: Ledger, *, log: str, players: int, seed_text: str, cut: int | None = 8,
             timeouts: Fraction = Fraction(0), drops: Fraction = Fraction(0),
             checkpoints: Path | Callable[[], Path] | None,
             progress: Progress | None = None,
             format_id: str = HOTC, params: dict[str, Param] | None = None,
             policy: LedgerPolicy | None = None) -> SimulationResult:
    hj, sk = demo_key(seed_text, "head-judge"), demo_key(seed_text, "scorekeeper")
    say = progress or (lambda _msg: None)
    fmt = make_format(format_id, cut, params)
    sim = _simulation(format_id)
    ledger.create(log, lambda now: Tournament.create(
        log=log, name=f"Simulated {sim.title} event ({players} players)",
        fmt=fmt, signer=hj, time=now, policy=policy))
    if callable(checkpoints):  # a log's note directory is keyed by its genesis hash
        checkpoints = checkpoints()
    # one writer session for the whole event: the aggregate stays in memory between
    # saves instead of being reloaded (snapshot decode + fold) before every batch
    sess = ledger.session(log)
    sess.write(lambda t, now: t.add_official(
        PublicKey(sk.public_key_raw, sk.name), Role.SCOREKEEPER, sk.name, hj, now))
    teams = sim.team_steps(params, players, sk)     # team events (issue 20)
    if teams:
        players -= players % sim.team_size(params)
    batched(sess, [partial(_register, sk, i) for i in range(1, players + 1)])
    batched(sess, teams)
    say(f"registered {players} players" + (f" in {len(teams)} teams" if teams else ""))
    sim_material = f"simulation:{seed_text}"
    sess.write(lambda t, now: t.record_seed(
        material=sim_material, source="tourney simulate", ctx=f"{log}/simulation",
        reason="simulated match outcomes and drops (not a pairing seed)", signer=hj,
        time=now))
    sim_seed = seed_from_material(sim_material)
    sess.write(lambda t, now: t.close_registration(hj, now))
    write_checkpoint(ledger, log, hj, checkpoints, state=sess.state)
    out = sim.play(SimRun(session=sess, ledger=ledger, log=log, head_judge=hj,
                          scorekeeper=sk, sim_seed=sim_seed, seed_text=seed_text,
                          timeouts=timeouts, drops=drops, checkpoints=checkpoints, say=say,
                          cut=fmt.cut))
    return SimulationResult(log=log, events=out.events, rounds=out.rounds, cut=out.cut,
                            champion=out.champion)
