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
    "": "8d7c390e1d4dc476",
    "bushiroad-de": "4b25680d4376e202",
    "bushiroad-swiss": "4b25680d4376e202",
    "hotc-swiss-de": "c770bc1cef6b1507",
    "round-robin": "4b25680d4376e202",
    "single-elim": "4b25680d4376e202",
    "wot-2001": "1d3fb139bd8bebee",
    "wot-classic": "1d3fb139bd8bebee",
}
