"""A writer process for the concurrency and crash-safety tests.

Opens an existing ledger, prints ``READY`` (flushed), optionally waits for a go-file, then
appends ``player_registered`` events to one tournament through ``Ledger.write``.  After each
write RETURNS it prints, and flushes, one acknowledgement line::

    ACK <seq> <name> <base64 of the stored leaf bytes>

A write refused with ``ConcurrencyError`` prints ``REFUSED <name> <message>`` and the loop
goes on.  Any other exception is left to escape (a traceback on stderr, exit status 1):
the tests treat that as a failure.  Finishes with ``DONE <acks> <refusals>``.

Usage: python tests/helpers/ledger_writer.py LEDGER LOG KEY_SEED_HEX TAG [--count N]
       [--go-file PATH]      (--count 0 = write until killed)
"""

from __future__ import annotations

import argparse
import base64
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import ledger.formats.registry  # noqa: E402,F401  (an application process plugs the formats in)
from ledger.errors import ConcurrencyError  # noqa: E402
from ledger.storage.location import Location  # noqa: E402
from ledger.storage.store import Ledger  # noqa: E402
from ledger.wire.keys import Signer  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("ledger")
    ap.add_argument("log")
    ap.add_argument("key_seed_hex")
    ap.add_argument("tag")
    ap.add_argument("--count", type=int, default=0)
    ap.add_argument("--go-file", type=Path)
    ap.add_argument("--retries", type=int, default=8)
    args = ap.parse_args()
    signer = Signer.from_seed(bytes.fromhex(args.key_seed_hex), f"writer {args.tag}")
    out = sys.stdout
    acks = refusals = 0
    with Ledger(Location(args.ledger)) as led:
        led.load(args.log)  # warm: connection open, tables known
        out.write("READY\n")
        out.flush()
        if args.go_file is not None:
            deadline = time.monotonic() + 60
            while not args.go_file.exists():
                if time.monotonic() > deadline:
                    raise SystemExit("go-file never appeared")
                time.sleep(0.002)
        i = 0
        while args.count == 0 or i < args.count:
            i += 1
            name = f"{args.tag}-{i}"
            try:
                signed = led.write(args.log, lambda agg, now, name=name: agg.register_player(
                    name, signer, now), retries=args.retries)
            except ConcurrencyError as exc:
                refusals += 1
                out.write(f"REFUSED {name} {exc.message}\n")
                out.flush()
                continue
            acks += 1
            out.write(f"ACK {signed.seq} {name} {base64.b64encode(signed.leaf).decode()}\n")
            out.flush()
    out.write(f"DONE {acks} {refusals}\n")
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
