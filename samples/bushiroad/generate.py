"""Regenerate one signed sample event per Bushiroad format, byte for byte, from fixed demo
keys (derived from the seed text), a fixed clock and fixed seed materials.

    python samples/bushiroad/generate.py            # rewrites ./<format>/bundle
    python samples/bushiroad/generate.py --out DIR  # writes DIR/<format>/bundle

Each event is ``tourney simulate``'s (ledger/formats/simulation.py): outcomes and drops come
from a recorded simulation seed, so the sample exercises time-ups, draws and drops:

* ``bushiroad-swiss``: 24 fighters, BO1, 5 rounds (the recommended 3–5 range with a cut,
  BR-SWISS-ROUNDS-3), a top cut of 8 by ranking (BR-FIN-5) played as single elimination;
* ``bushiroad-de``: 20 fighters, double elimination to one undefeated (AMB-B9);
* ``single-elim``: 13 fighters seeded by a recorded draw, three first-round byes;
* ``round-robin``: 5 fighters, one bye per round (BR-SWISS-ROUNDS-1).

The seed materials are fixed strings, not atmospheric randomness: these are fixtures.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from fractions import Fraction
from pathlib import Path

from audit.bundle import export_bundle
from ledger.core.params import Param
from ledger.formats.simulation import simulate
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.clock import FixedClock

#: format id → (players, cut, parameters, time-up rate, drop rate)
SAMPLES: dict[str, tuple[int, int, dict[str, Param], Fraction, Fraction]] = {
    # each pinned to the rule revision it was written under (BR_FR_1_2_0): its bytes stay
    "bushiroad-swiss": (24, 8, {"swiss_rounds": 5, "rules": "BR_FR_1_2_0"}, Fraction(1, 8),
                        Fraction(1, 30)),
    "bushiroad-de": (20, 0, {"rules": "BR_FR_1_2_0"}, Fraction(1, 8), Fraction(1, 30)),
    "single-elim": (13, 0, {"rules": "BR_FR_1_2_0"}, Fraction(0), Fraction(0)),
    "round-robin": (5, 0, {"rules": "BR_FR_1_2_0"}, Fraction(1, 6), Fraction(0)),
}


def generate(out: Path, format_id: str) -> None:
    players, cut, params, timeouts, drops = SAMPLES[format_id]
    log = f"sample-{format_id}"
    with tempfile.TemporaryDirectory() as tmp:
        loc = Location(str(Path(tmp) / "sample.db"))
        cps = Path(tmp) / "notes"  # a private note directory (the bundle takes them)
        with Ledger(loc, create=True, clock=FixedClock("2026-05-01T09:00:00.000000Z")) as led:
            simulate(led, log=log, players=players, seed_text=f"{log} fixture", cut=cut,
                     timeouts=timeouts, drops=drops, checkpoints=cps, format_id=format_id,
                     params=params)
            export_bundle(led, log, out, cps)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).parent)
    args = parser.parse_args()
    for format_id in SAMPLES:
        bundle = args.out / format_id / "bundle"
        if bundle.exists():
            shutil.rmtree(bundle)
        generate(bundle, format_id)
        print(f"wrote {bundle}")


if __name__ == "__main__":
    sys.exit(main())
