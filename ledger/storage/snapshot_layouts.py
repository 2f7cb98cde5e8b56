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
    "": "a38b63cb93200c57",
    "bushiroad-de": "b0981136d41b1a66",
    "bushiroad-swiss": "b0981136d41b1a66",
    "hotc-swiss-de": "2165537dc6db1db1",
    "round-robin": "b0981136d41b1a66",
    "single-elim": "b0981136d41b1a66",
    "wot-2001": "17991d05b883d32a",
    "wot-classic": "17991d05b883d32a",
}
