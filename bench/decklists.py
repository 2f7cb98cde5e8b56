"""Players' own decklists at 1,024 players (issue 30 item 4): what one hand-in costs to
record through every rule (the credential, REPORT-15; the deadline at the event's own
time, DECK-LIST-1; BR-DECK-1), and what the audit's fold costs with them.

A 1,024-player Bushiroad Swiss; the head judge sets a deadline; every player hands in a
list from their card (the station signs each as the player's act, in one write).

    python -m bench.decklists [--players 1024]

Prints machine-readable lines ``BENCH decklists-<name> p50_ms=… max_ms=…``.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

LOG = "bench"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=1024)
    a = ap.parse_args()
    import ledger.formats.registry  # noqa: F401  (plugs the formats in)
    from audit.verify import verify_ledger
    from ledger.core.aggregate import Tournament
    from ledger.formats.registry import make_format
    from ledger.storage.location import Location
    from ledger.storage.store import Ledger
    from ledger.wire.events import Role
    from ledger.wire.keys import PublicKey, Signer
    from usecases.decklists import set_deadline, submit_own_deck

    hj = Signer.from_seed(bytes([1]) * 32, "bench head judge")
    st = Signer.from_seed(bytes([7]) * 32, "bench station")
    with tempfile.TemporaryDirectory() as tmp:
        loc = Location(str(Path(tmp) / "t.db"))
        creds: dict[int, str] = {}
        with Ledger(loc, create=True) as led:
            led.create(LOG, lambda now: Tournament.create(
                log=LOG, name="Decklists bench", fmt=make_format("bushiroad-swiss", 0, {}),
                signer=hj, time=now))

            def setup(t: Tournament, now: str) -> None:
                t.add_official(PublicKey(st.public_key_raw, st.name), Role.STATION,
                               "station", hj, now)
                for i in range(a.players):
                    t.register_player(f"Player {i + 1:04d}", hj, now)
                for n in range(1, a.players + 1):
                    ev = t.issue_credential(hashlib.sha256(f"t{n}".encode()).hexdigest(),
                                            hj, now, number=n)
                    creds[n] = ev.body.credential
                set_deadline(t, hj, now, "2999-01-01T00:00:00Z")
            led.write(LOG, setup)
            per: list[float] = []

            def hand_in(t: Tournament, now: str) -> None:
                for n in range(1, a.players + 1):
                    c0 = time.perf_counter()
                    submit_own_deck(t, st, now, n, creds[n], f"4 Card {n}\n4 Other {n}\n")
                    per.append((time.perf_counter() - c0) * 1000)
            t0 = time.perf_counter()
            led.write(LOG, hand_in)
            print(f"# {len(per)} deck_submitted in {time.perf_counter() - t0:.1f} s")
        print(f"BENCH decklists-record p50_ms={statistics.median(per):.2f} "
              f"max_ms={max(per):.2f} n={len(per)}")
        t0 = time.perf_counter()
        found = verify_ledger(loc, LOG, None).findings
        ms = (time.perf_counter() - t0) * 1000
        bad = [f for f in found if f.code not in ("no_checkpoint",)]
        print(f"BENCH decklists-audit total_ms={ms:.0f} findings={len(bad)}")


if __name__ == "__main__":
    main()
