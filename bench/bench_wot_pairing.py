"""Benchmark: pairing one Wheel of Time Game (``pairing.pair_game``, RULES.md §6.4–6.5),
judged against the pairing budget of docs/DESIGN.md §9 (< 250 ms per round).

Scenarios:
  list     — Game 3 (first Game of Cycle 2): N active players with distinct scores and two
             Games of history (pairs of a shuffled order, then neighbours): the AMB-W8
             move-down procedure settles the few rematches in a handful of moves.
  piles    — Game 4 (second Game of Cycle 2) over the same field: Hero and Villain piles.
  exact    — the fallback: the field is blocks of four in which A met B and C and C met D,
             so the move-down procedure cycles in the first block and the exact search
             (``method = "exact"``, a min-cost perfect matching over all pairs) decides.
             This is the cost of the fallback ADR 0007 records.
  decide   — the whole decision the command and the audit run on a folded ledger of N
             players after two Games (totals re-scored from every result with a cold score
             cache, tie order, the pairing and the wire body), from a real SQLite ledger.

  process  — whole commands as processes side by side: ``round pair`` (Game 3), ``standings
             --json`` and ``info`` (the baseline every command pays), with their ratios.

    python bench/bench_wot_pairing.py [--players 512,1024,4096] [--exact 64,128,256]
                                      [--decide 512] [--process 512] [--repeat 3]
Prints one line per case: BENCH wot_pairing scenario=… players=… ms_median=… method=…
budget_ms=250 ratio=…, and BENCH wot_commands players=… pair_ms=… info_ms=… pair_over_info=…
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import tempfile
import time
from collections.abc import Callable
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any

from ledger.core.draw import draw_v1
from ledger.formats.wot.model import Revision, Side
from ledger.formats.wot.pairing import Entrant, Pairing, Table, pair_game

BUDGET_MS = 250.0


def _u(i: int, j: int) -> int:
    return int.from_bytes(hashlib.sha256(f"{i}/{j}".encode()).digest()[:4], "big")


def field(n: int) -> tuple[list[Entrant], list[Table], list[int]]:
    order = draw_v1(hashlib.sha256(b"bench-wot").digest(), "bench/seating",
                    list(range(1, n + 1)))
    history = [Table(i // 2 + 1, order[i], order[i + 1]) for i in range(0, n - 1, 2)]
    history += [Table(i // 2 + 1, order[i + 2], order[i + 1]) for i in range(0, n - 3, 2)]
    ents = [Entrant(number=p, gp=_u(p, 1) % 5, tbp=Fraction(_u(p, 2) % 4001 - 2000, 3),
                    last_side=Side.HERO if k % 2 else Side.VILLAIN)
            for k, p in enumerate(order)]
    tie = draw_v1(hashlib.sha256(b"bench-wot").digest(), "bench/ties", list(range(1, n + 1)))
    return ents, history, tie      # the AMB-W9 draw (GP/TBP ties are common)


def exact_field(n: int) -> tuple[list[Entrant], list[Table]]:
    ents: list[Entrant] = []
    history: list[Table] = []
    for b in range(n // 4):
        a, bb, c, d = (4 * b + k for k in (1, 2, 3, 4))
        history += [Table(1, a, bb), Table(2, c, d), Table(1, c, a), Table(2, bb, d)]
        ents += [Entrant(a, 4 * n - 4 * b, Fraction(0), Side.VILLAIN),
                 Entrant(bb, 4 * n - 4 * b - 1, Fraction(0), Side.HERO),
                 Entrant(c, 4 * n - 4 * b - 2, Fraction(0), Side.HERO),
                 Entrant(d, 4 * n - 4 * b - 3, Fraction(0), Side.VILLAIN)]
    return ents, history


def timed(fn: Callable[[], Pairing | object], repeat: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times), out


def line(scenario: str, n: int, ms: float, method: str) -> None:
    print(f"BENCH wot_pairing scenario={scenario} players={n} ms_median={ms:.1f} "
          f"method={method} budget_ms={BUDGET_MS:.0f} ratio={ms / BUDGET_MS:.3f}", flush=True)


def _pair(hj: object, material: str, t: object, now: str) -> object:
    return t.pair_round(hj, now, material=material, source="bench")  # type: ignore[attr-defined]


def build(path: Path, n: int, hj: Any, sk: Any, games: int = 2) -> Any:
    """A real SQLite ledger: wot-classic, N players, ``games`` Games played (simulated
    outcomes); returns the folded state."""
    from ledger.core.aggregate import Tournament
    from ledger.core.draw import seed_from_material
    from ledger.formats.registry import make_format
    from ledger.formats.wot import plan
    from ledger.formats.wot.sim import simulated_result
    from ledger.storage.location import Location
    from ledger.storage.store import Ledger
    from ledger.wire.clock import FixedClock
    from ledger.wire.events import Role
    from ledger.wire.keys import PublicKey

    with Ledger(Location(str(path)), create=True, clock=FixedClock()) as led:
        led.create("b", lambda now: Tournament.create(
            log="b", name="bench", fmt=make_format("wot-classic", None), signer=hj,
            time=now))
        led.write("b", lambda t, now: t.add_official(
            PublicKey(sk.public_key_raw, "sk"), Role.SCOREKEEPER, "sk", hj, now))

        def reg(t: Tournament, now: str) -> None:
            for i in range(n):
                t.register_player(f"P{i}", sk, now)
        led.write("b", reg)
        led.write("b", lambda t, now: t.close_registration(hj, now))
        seed = seed_from_material("bench outcomes")
        for g in range(1, games + 1):
            led.write("b", partial(_pair, hj, f"G{g}"))
            st = led.load("b").state
            tabs = plan.ws(st).games[-1].tables

            def play(t: Tournament, now: str, g: int = g, tabs: list = tabs) -> None:  # type: ignore[type-arg]
                for tab in tabs:
                    t.record_result(sk, now, round_no=g, table=tab.table,
                                    **simulated_result(Revision.WOT_OLD, seed,
                                                       f"G{g}T{tab.table}", tab.hero,
                                                       tab.villain))
            led.write("b", play)
        return led.load("b").state


def decide(n: int, repeat: int) -> None:
    """The command/audit decision on a real folded ledger after two Games."""
    from ledger.core.draw import seed_from_material
    from ledger.formats.wot import plan
    from ledger.wire.keys import Signer

    hj = Signer.from_seed(bytes([1]) * 32, "hj")
    sk = Signer.from_seed(bytes([3]) * 32, "sk")
    seed = seed_from_material("bench ties")
    with tempfile.TemporaryDirectory() as tmp:
        st = build(Path(tmp) / "b.db", n, hj, sk)

        def run() -> object:
            plan._scores.cache_clear()     # cold: every Game re-scored, as the audit does
            ents = plan.entrants(st)
            items = plan.tie_items(ents)
            tie = None if items is None else draw_v1(seed, "bench/ties", items)
            return plan.later_game(st, 3, ents, tie, [])
        ms, body = timed(run, repeat)
        line("decide", n, ms, str(getattr(body, "method", "?")))


def process(n: int, repeat: int) -> None:
    """Whole commands as processes, side by side in one run: ``tourney round pair`` (Game 3,
    on a fresh copy of the ledger each time), ``tourney standings --json`` and, as the
    baseline every command pays (interpreter, imports, opening and folding the ledger),
    ``tourney info``."""
    import shutil
    import subprocess
    import sys

    from ledger.wire.keys import load_signer

    tourney = [sys.executable, "-m", "cli.main"]
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        for name in ("hj", "sk"):
            subprocess.run([*tourney, "keys", "new", "--name", name, "--out",
                            str(d / f"{name}.pem")], check=True, capture_output=True)
        build(d / "base.db", n, load_signer(d / "hj.pem"), load_signer(d / "sk.pem"))
        times: dict[str, list[float]] = {"pair": [], "standings": [], "info": []}
        for r in range(repeat):
            db = d / f"run{r}.db"
            shutil.copy(d / "base.db", db)
            for what, args in (("info", ["info"]), ("standings", ["standings", "--json"]),
                               ("pair", ["round", "pair", "--seed-material", f"m{r}",
                                         "--seed-source", "bench", "--key",
                                         str(d / "hj.pem")])):
                t0 = time.perf_counter()
                subprocess.run([*tourney, "--ledger", str(db), *args], check=True,
                               capture_output=True)
                times[what].append((time.perf_counter() - t0) * 1000)
        med = {k: statistics.median(v) for k, v in times.items()}
        print(f"BENCH wot_commands players={n} pair_ms={med['pair']:.0f} "
              f"standings_ms={med['standings']:.0f} info_ms={med['info']:.0f} "
              f"pair_over_info={med['pair'] / med['info']:.2f} "
              f"standings_over_info={med['standings'] / med['info']:.2f}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", default="512,1024,4096")
    ap.add_argument("--exact", default="64,128,256")
    ap.add_argument("--decide", default="512")
    ap.add_argument("--process", default="512")
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    for n in (int(x) for x in a.players.split(",") if x):
        ents, hist, tie = field(n)
        ms, p = timed(partial(pair_game, Revision.WOT_OLD, 3, ents, hist, tie), a.repeat)
        line("list", n, ms, p.method)  # type: ignore[attr-defined]
        ms, p = timed(partial(pair_game, Revision.WOT_OLD, 4, ents, hist, tie), a.repeat)
        line("piles", n, ms, p.method)  # type: ignore[attr-defined]
    for n in (int(x) for x in a.exact.split(",") if x):
        ents, hist = exact_field(n)
        ms, p = timed(partial(pair_game, Revision.WOT_OLD, 3, ents, hist), a.repeat)
        line("exact", n, ms, p.method)  # type: ignore[attr-defined]
    for n in (int(x) for x in a.decide.split(",") if x):
        decide(n, a.repeat)
    for n in (int(x) for x in a.process.split(",") if x):
        process(n, a.repeat)


if __name__ == "__main__":
    main()
