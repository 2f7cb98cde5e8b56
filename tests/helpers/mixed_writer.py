"""A desk in another process for the live server's freshness tests (issue 32, item 3).

Opens an existing HotC ledger whose round 1 is paired (``bench.bench_cli.make_event``),
prints ``READY`` and then appends ``--count`` events of mixed kinds — the round's clock
(``round_started``), time extensions, renames and results — through ``Ledger.write``, one
write per event, sleeping a random 0-``--gap-ms`` ms before each (``random.Random(seed)``).
After each write returns it prints, flushed::

    ACK <seq> <kind> <time.monotonic() just after the commit>

(CLOCK_MONOTONIC is one clock for every process of the machine.)  Finishes with ``DONE``.

Usage: python tests/helpers/mixed_writer.py LEDGER KEY.pem [--count 200] [--gap-ms 300]
       [--seed 32]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import ledger.formats.registry  # noqa: E402,F401  (an application process plugs the formats in)
from ledger.formats.match.model import Outcome  # noqa: E402
from ledger.formats.officiating import floor_commands  # noqa: E402
from ledger.storage.location import Location  # noqa: E402
from ledger.storage.store import Ledger  # noqa: E402
from ledger.wire.keys import load_signer  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("ledger")
    ap.add_argument("key", type=Path)
    ap.add_argument("--log", default="bench")
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--gap-ms", type=int, default=300)
    ap.add_argument("--seed", type=int, default=32)
    args = ap.parse_args()
    signer = load_signer(args.key)
    rng = random.Random(args.seed)
    out = sys.stdout
    with Ledger(Location(args.ledger)) as led:
        state = led.load(args.log).state
        rnd = state.fmt.rounds[-1]  # type: ignore[union-attr]
        open_tables = [t.table for t in rnd.tables if len(t.players) == 2]
        rng.shuffle(open_tables)
        out.write("READY\n")
        out.flush()
        for i in range(args.count):
            time.sleep(rng.uniform(0, args.gap_ms / 1000))
            pick = rng.random()
            if i == 0:
                kind, act = "round_started", lambda t, now: floor_commands.start_round(
                    t, signer, now)
            elif pick < 0.2 and open_tables:
                table = open_tables.pop()

                def act(t, now, table=table):  # type: ignore[no-untyped-def]
                    tab = next(x for x in t.state.fmt.rounds[-1].tables if x.table == table)
                    return t.record_result(signer, now, round_no=rnd.number, table=table,
                                           outcome=Outcome.WIN, winner=tab.players[0])[-1]
                kind = "result"
            elif pick < 0.6 and open_tables:
                table = rng.choice(open_tables)
                kind, act = "time_extended", lambda t, now, table=table, i=i: floor_commands.extend(
                    t, signer, now, round_no=rnd.number, table=table, minutes=1, turns=0,
                    reason=f"judge call {i}")
            else:
                number = rng.choice(sorted(state.players))
                kind, act = "player_renamed", lambda t, now, n=number, i=i: t.rename_player(
                    n, f"Player {n:04d} v{i}", "spelling", signer, now)
            ev = led.write(args.log, act)
            out.write(f"ACK {ev.seq} {kind} {time.monotonic():.6f}\n")
            out.flush()
    out.write("DONE\n")
    out.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
