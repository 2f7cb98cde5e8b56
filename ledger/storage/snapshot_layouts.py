"""The snapshot layout digests, written down so that no command computes a JSON schema to
name its snapshots (issue 22 item 6: two schemas cost about 8 ms of every command).

Owns: ``LAYOUTS`` — for the core state alone (key ``""``) and each format plugged in here,
the first 16 hex digits of ``ledger.storage.snapshots.layout_digest``: SHA-256 of the sorted JSON
of the msgspec schemas of the snapshot record and of the format's state.  A format not
listed is computed at its first use.  tests/test_snapshot_layouts.py recomputes every
entry: a change of a state struct fails it until the new digest is written here (a stale
entry would let a snapshot of another layout be decoded positionally).

May import: nothing.
"""

from __future__ import annotations

LAYOUTS: dict[str, str] = {
    "": "32f24cdd11c247a5",
    "bushiroad-de": "e8d4da0a0a996b93",
    "bushiroad-swiss": "e8d4da0a0a996b93",
    "hotc-swiss-de": "8f9a3861ea06ed88",
    "round-robin": "e8d4da0a0a996b93",
    "single-elim": "e8d4da0a0a996b93",
    "wot-2001": "2cbb934ca9bccdaa",
    "wot-classic": "2cbb934ca9bccdaa",
}
