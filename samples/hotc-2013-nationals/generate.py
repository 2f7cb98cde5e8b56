"""Regenerate the 70-player example of the HotC 2013 format page (000 Example, RULES.md §2.8)
as a signed, exported bundle — byte for byte, from fixed test keys and a fixed clock.

    python samples/hotc-2013-nationals/generate.py            # rewrites ./bundle
    python samples/hotc-2013-nationals/generate.py --out DIR  # writes elsewhere

Outcomes are scripted (every match decisive; the lower player number wins a same-group
match; the 1-0 wins the round-2 cross match and the 2-1 pair-up wins the round-4 one), so
the counts after each round are exactly 35/35, 18/34/18, 9/26/17 and 4/19/12, the Swiss phase
stops after round 4 (4 < 8) and the cut is the 4 undefeated plus 4 drawn from the 19
one-loss players. The source labels the round-4 pairing bullet "Round 3" (AMB-H12).
The seed materials are fixed strings, not atmospheric randomness: this is a fixture.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import tempfile
from pathlib import Path

from audit.bundle import export_bundle
from ledger.core.aggregate import Tournament
from ledger.formats.match.model import Outcome, Status
from ledger.formats.match.plan import open_round
from ledger.formats.registry import make_format
from ledger.proofs.checkpoint_store import write_checkpoint
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.clock import FixedClock
from ledger.wire.events import Role
from ledger.wire.keys import PublicKey, Signer

LOG = "hotc-2013-nationals"
#: after round n: (X-0, one loss, newly eliminated) — RULES.md §2.8 / TC-09
EXPECTED_AFTER = {1: (35, 35, 0), 2: (18, 34, 18), 3: (9, 26, 17), 4: (4, 19, 12)}


def fixed_key(role: str) -> Signer:
    seed = hashlib.sha256(f"tourney-sample/{LOG}/{role}".encode()).digest()
    return Signer.from_seed(seed, f"sample {role}")


HJ, SK = fixed_key("head-judge"), fixed_key("scorekeeper")


def counts(led: Ledger) -> tuple[int, int, int]:
    recs = led.load(LOG).state.fmt.records.values()
    act = [r for r in recs if r.status is Status.ACTIVE]
    return (sum(r.losses == 0 for r in act), sum(r.losses == 1 for r in act),
            sum(r.status is Status.ELIMINATED for r in recs))


def play(led: Ledger, cross_low_wins: bool) -> None:
    rnd = open_round(led.load(LOG).state)
    assert rnd is not None  # script invariant, not a business rule

    def run(t: Tournament, now: str) -> None:
        for tab in rnd.tables:
            a, b = tab.players
            if tab.pair_down is not None:
                win = tab.pair_up if cross_low_wins else tab.pair_down
            else:
                win = min(a, b)
            t.record_result(SK, now, round_no=rnd.number, table=tab.table,
                            outcome=Outcome.WIN, winner=win)
    led.write(LOG, run)


def generate(out: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        loc = Location(str(Path(tmp) / "sample.db"))
        cps = Path(tmp) / "notes"  # a private note directory (the bundle takes them)
        with Ledger(loc, create=True, clock=FixedClock("2013-06-01T09:00:00.000000Z")) as led:
            led.create(LOG, lambda now: Tournament.create(
                log=LOG, name="WS US 2013 WGP National Qualifier (format example, 70 players)",
                fmt=make_format("hotc-swiss-de", 8, {"rules": "HOTC_2013"}), signer=HJ, time=now))
            led.write(LOG, lambda t, now: t.add_official(
                PublicKey(SK.public_key_raw, SK.name), Role.SCOREKEEPER, SK.name, HJ, now))

            def register(t: Tournament, now: str) -> None:
                for i in range(1, 71):
                    t.register_player(f"Player {i:02d}", SK, now)
            led.write(LOG, register)
            led.write(LOG, lambda t, now: t.close_registration(HJ, now))
            write_checkpoint(led, LOG, HJ, cps)
            gone = 0
            for n in range(1, 5):
                led.write(LOG, lambda t, now, n=n: t.pair_round(
                    HJ, now, material=f"{LOG} fixture seed R{n}",
                    source="sample script (fixed material, not atmospheric)"))
                write_checkpoint(led, LOG, HJ, cps)
                play(led, cross_low_wins=(n == 4))
                write_checkpoint(led, LOG, HJ, cps)
                x0, one, out_total = counts(led)
                if (x0, one, out_total - gone) != EXPECTED_AFTER[n]:
                    raise SystemExit(f"after round {n}: {(x0, one, out_total - gone)} != "
                                     f"{EXPECTED_AFTER[n]}")
                gone = out_total
            if not led.load(LOG).state.fmt.swiss_over:
                raise SystemExit("the Swiss phase should stop after round 4 (4 < 8)")
            led.write(LOG, lambda t, now: t.select_cut(
                HJ, now, material=f"{LOG} fixture seed cut", source="sample script"))
            led.write(LOG, lambda t, now: t.seed_bracket(
                HJ, now, material=f"{LOG} fixture seed bracket", source="sample script"))
            while led.load(LOG).state.fmt.champion is None:
                if open_round(led.load(LOG).state) is None:
                    led.write(LOG, lambda t, now: t.pair_round(HJ, now))
                write_checkpoint(led, LOG, HJ, cps)
                play(led, cross_low_wins=False)
                write_checkpoint(led, LOG, HJ, cps)
            export_bundle(led, LOG, out, cps)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "bundle")
    args = parser.parse_args()
    if args.out.exists():
        import shutil
        shutil.rmtree(args.out)
    generate(args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    sys.exit(main())
