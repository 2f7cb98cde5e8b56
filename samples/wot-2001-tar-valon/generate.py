"""Regenerate a Wheel of Time event under the July 2001 rules (``wot-2001``, RULES.md §7) as a
signed, exported bundle — byte for byte, from fixed test keys and a fixed clock.

    python samples/wot-2001-tar-valon/generate.py            # rewrites ./bundle
    python samples/wot-2001-tar-valon/generate.py --out DIR  # writes elsewhere

Eleven players, two Cycles (four Games): Game 1 seated from the recorded score-sheet
shuffle with a bye counted as Hero (WOT01-PAIR-1, BYE-1), Game 2 by Hero/Villain piles,
Game 3 by the ranked list, Game 4 by piles again, with the AMB-W9 tie-order draws the
pairings need.  Outcomes are drawn from a fixed simulation seed (every code Q1..Q5 can
occur, with the Pattern amounts it needs).  In Game 3 the Judge declares the Hero of
table 1 forfeit (WOT01-FORF-1, AMB-W10): their table is recorded as a Q5 concession and
the Judge overrides the opponent's TBP (WOT01-FORF-2), which the audit lists.  Seed
materials are fixed strings, not atmospheric randomness: this is a fixture.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import tempfile
from pathlib import Path

from audit.bundle import export_bundle
from ledger.core.aggregate import Tournament
from ledger.core.draw import seed_from_material
from ledger.formats.registry import make_format
from ledger.formats.wot import plan
from ledger.formats.wot.sim import simulated_result
from ledger.proofs.checkpoint_store import write_checkpoint
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.clock import FixedClock
from ledger.wire.events import Role
from ledger.wire.keys import PublicKey, Signer

LOG = "wot-2001-tar-valon"
PLAYERS = ["Rand", "Egwene", "Mat", "Perrin", "Nynaeve", "Moiraine", "Lan", "Elayne", "Min",
           "Aviendha", "Thom"]


def fixed_key(role: str) -> Signer:
    seed = hashlib.sha256(f"tourney-sample/{LOG}/{role}".encode()).digest()
    return Signer.from_seed(seed, f"sample {role}")


HJ, SK = fixed_key("head-judge"), fixed_key("scorekeeper")
OUTCOMES = seed_from_material(f"{LOG} fixture outcomes")


def play(led: Ledger, n: int, skip: set[int]) -> None:
    st = led.load(LOG).state
    game = plan.ws(st).games[-1]

    def run(t: Tournament, now: str) -> None:
        for tab in game.tables:
            if tab.table in skip:
                continue
            kw = simulated_result(plan.revision(st), OUTCOMES, f"G{n}/T{tab.table}",
                                  tab.hero, tab.villain)
            t.record_result(SK, now, round_no=n, table=tab.table, **kw)
    led.write(LOG, run)


def generate(out: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        loc = Location(str(Path(tmp) / "sample.db"))
        cps = Path(tmp) / "notes"  # a private note directory (the bundle takes them)
        with Ledger(loc, create=True, clock=FixedClock("2001-09-15T09:00:00.000000Z")) as led:
            led.create(LOG, lambda now: Tournament.create(
                log=LOG, name="Tar Valon Open (WoT CCG, July 2001 rules, 11 players)",
                fmt=make_format("wot-2001", None), signer=HJ, time=now))
            led.write(LOG, lambda t, now: t.add_official(
                PublicKey(SK.public_key_raw, SK.name), Role.SCOREKEEPER, SK.name, HJ, now))

            def register(t: Tournament, now: str) -> None:
                for name in PLAYERS:
                    t.register_player(name, SK, now)
            led.write(LOG, register)
            led.write(LOG, lambda t, now: t.close_registration(HJ, now))
            write_checkpoint(led, LOG, HJ, cps)
            for n in range(1, 5):
                led.write(LOG, lambda t, now, n=n: t.pair_round(
                    HJ, now, material=f"{LOG} fixture seed G{n}",
                    source="sample script (fixed material, not atmospheric)"))
                write_checkpoint(led, LOG, HJ, cps)
                skip: set[int] = set()
                if n == 3:
                    tab = plan.ws(led.load(LOG).state).games[-1].tables[0]
                    h, v = tab.hero, tab.villain
                    led.write(LOG, lambda t, now, h=h: t.plugin.judge_powers.declare_forfeit(
                        t, HJ, now, number=h, reason="outside assistance during the Game "
                        "(WOT01-CONDUCT-3)"))
                    led.write(LOG, lambda t, now, h=h, v=v: t.record_result(
                        SK, now, round_no=3, table=1, wot_outcome="Q5", winner=v,
                        pattern={h: 6, v: 3}, neutral=4, conceded_by=h, last_battle=False))
                    skip = {1}
                play(led, n, skip)
                if n == 3:
                    led.write(LOG, lambda t, now, v=v: t.plugin.judge_powers.override_tbp(
                        t, HJ, now, round_no=3, number=v, new="10",
                        method="Pattern the opponent would have reached by the Last Battle",
                        reason="the forfeit cut the game short"))
                write_checkpoint(led, LOG, HJ, cps)
            if not plan.over(led.load(LOG).state):
                raise SystemExit("the event should be over after two Cycles")
            export_bundle(led, LOG, out, cps)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "bundle")
    args = parser.parse_args()
    if args.out.exists():
        import shutil
        shutil.rmtree(args.out)
    generate(args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    sys.exit(main())
