"""Judge calls at 4,096 players (issue 30): what a call costs to record and what the
queue, the head judge's numbers and the desk glance cost with thousands of calls.

A 4,096-player HotC event under 001 (cap 5 minutes), round 1 paired (2,048 tables).  Every
table calls a judge (2,048 ``call_opened``), every call is claimed, half are closed (a
ruling of 30–250 s) and those with a proposal are extended as proposed.  Measured:

* ``record``: milliseconds per call event through ``Tournament.record`` (every rule);
* ``queue``: ``usecases.calls.queue_rows`` (the 1,024 open calls, oldest first);
* ``stats``: ``usecases.floor_stats.floor_stats``;
* ``glance``: ``server.desk_glance.glance`` with the calls panel.

    python -m bench.floor_calls [--players 4096] [--repeat 15]

Prints machine-readable lines ``BENCH calls-<name> p50_ms=… max_ms=…``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.desk_glance import report, timed  # noqa: E402

LOG = "bench"
T0 = datetime.now(UTC) + timedelta(seconds=60)   # after the setup events


def _at(s: int) -> str:
    return (T0 + timedelta(seconds=s)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=4096)
    ap.add_argument("--repeat", type=int, default=15)
    a = ap.parse_args()
    import ledger.formats.registry  # noqa: F401  (plugs the formats in)
    from ledger.core.aggregate import Tournament
    from ledger.formats.registry import make_format
    from ledger.storage.location import Location
    from ledger.storage.store import Ledger
    from ledger.wire.keys import write_new_key
    from server.app import Hub
    from server.desk_glance import glance
    from usecases.calls import claim_call, close_call, confirm_extension, open_call, queue_rows
    from usecases.floor_stats import floor_stats

    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        hj = write_new_key(d / "hj.pem", "bench head judge", None)
        db = d / "t.db"
        with Ledger(Location(str(db)), create=True) as led:
            led.create(LOG, lambda now: Tournament.create(
                log=LOG, name="Calls bench", fmt=make_format(
                    "hotc-swiss-de", 8, {"end_of_match": "eom_001"}), signer=hj, time=now))

            def setup(t: Tournament, now: str) -> None:
                for i in range(a.players):
                    t.register_player(f"Player {i + 1:04d}", hj, now)
                t.close_registration(hj, now)
            led.write(LOG, setup)
            led.write(LOG, lambda t, now: t.pair_round(hj, now, material="bench R1",
                                                       source="bench"))
            tables = a.players // 2
            per: list[float] = []

            def calls(t: Tournament, now: str) -> None:
                seqs = []
                for k in range(tables):
                    c0 = time.perf_counter()
                    seqs.append(open_call(t, hj, _at(k), table=k + 1).seq)
                    per.append(time.perf_counter() - c0)
                cursor = tables
                for k, s in enumerate(seqs):
                    c0 = time.perf_counter()
                    claim_call(t, hj, _at(cursor), s)
                    per.append(time.perf_counter() - c0)
                    if k >= tables // 2:         # the second half stays open
                        cursor += 1
                        continue
                    ruling = 30 + (k * 37) % 220
                    c0 = time.perf_counter()
                    _ev, p = close_call(t, hj, _at(cursor + ruling), s, "ruled")
                    per.append(time.perf_counter() - c0)
                    if p.minutes:
                        confirm_extension(t, hj, _at(cursor + ruling + 1), s)
                    cursor += ruling + 2
            t0 = time.perf_counter()
            led.write(LOG, calls)
            print(f"# {len(per)} call events in {time.perf_counter() - t0:.1f} s "
                  f"(with extensions)")
            per.sort()
            print(f"BENCH calls-record p50_ms={per[len(per) // 2] * 1000:.2f} "
                  f"max_ms={per[-1] * 1000:.2f} n={len(per)}")
        hub = Hub(Location(str(db)), None, reporting=True)
        try:
            state, data = hub.follower.state, hub.pages.data
            now = _at(10 * tables)
            assert len(queue_rows(state, now)) == tables - tables // 2
            report("queue", timed(lambda: queue_rows(state, now), a.repeat))
            report("stats", timed(lambda: floor_stats(state), a.repeat))
            report("glance", timed(lambda: glance(state, data), a.repeat))
        finally:
            hub.close()


if __name__ == "__main__":
    main()
