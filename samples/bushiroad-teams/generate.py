"""Regenerate the signed team-fight samples (issue 20), byte for byte, from fixed demo keys
(derived from the seed text), a fixed clock and fixed seed materials.

    python samples/bushiroad-teams/generate.py            # rewrites ./<sample>/bundle
    python samples/bushiroad-teams/generate.py --out DIR  # writes DIR/<sample>/bundle

Each event is ``tourney simulate``'s (ledger/formats/simulation.py) with ``team_mode``:
teams of consecutive fighter numbers (the last position the representative, BR-TEAM-3),
each seat's outcome drawn from the recorded simulation seed, so the samples hold drawn
seats (time-ups), team draws, byes and team drops:

* ``trio-swiss``: 21 fighters in 7 trio teams, BO1, 3 Swiss rounds, no cut (AMB-B30: equal
  individual wins are a team draw);
* ``tag-de``: 24 fighters in 12 tag teams, double elimination to one undefeated team
  (equal individual wins are a double loss).

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

#: sample → (format id, fighters, cut, parameters, time-up rate, drop rate)
SAMPLES: dict[str, tuple[str, int, int, dict[str, Param], Fraction, Fraction]] = {
    "trio-swiss": ("bushiroad-swiss", 21, 0, {"team_mode": "trio", "swiss_rounds": 3},
                   Fraction(2, 5), Fraction(1, 20)),
    "tag-de": ("bushiroad-de", 24, 0, {"team_mode": "tag"}, Fraction(1, 3),
               Fraction(1, 20)),
}


def generate(out: Path, name: str) -> None:
    format_id, players, cut, params, timeouts, drops = SAMPLES[name]
    log = f"sample-{name}"
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
    for name in SAMPLES:
        bundle = args.out / name / "bundle"
        if bundle.exists():
            shutil.rmtree(bundle)
        generate(bundle, name)
        print(f"wrote {bundle}")


if __name__ == "__main__":
    sys.exit(main())
