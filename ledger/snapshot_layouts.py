"""The snapshot layout digests, written down so that no command computes a JSON schema to
name its snapshots (issue 22 item 6: two schemas cost about 8 ms of every command).

Owns: ``LAYOUTS`` — for the core state alone (key ``""``) and each format plugged in here,
the first 16 hex digits of ``ledger.snapshots.layout_digest``: SHA-256 of the sorted JSON
of the msgspec schemas of the snapshot record and of the format's state.  A format not
listed is computed at its first use.  tests/test_snapshot_layouts.py recomputes every
entry: a change of a state struct fails it until the new digest is written here (a stale
entry would let a snapshot of another layout be decoded positionally).

May import: nothing.
"""

from __future__ import annotations

LAYOUTS: dict[str, str] = {
    "": "b74a17c703ecfaa5",
    "bushiroad-de": "b4533c3e52a96084",
    "bushiroad-swiss": "b4533c3e52a96084",
    "hotc-swiss-de": "f0803835b043d5d9",
    "round-robin": "b4533c3e52a96084",
    "single-elim": "b4533c3e52a96084",
    "wot-2001": "15f84f06ff8e0824",
    "wot-classic": "15f84f06ff8e0824",
}
