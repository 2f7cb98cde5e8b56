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
    "": "bbef74829c6c378e",
    "bushiroad-de": "c40a55b1979da6ac",
    "bushiroad-swiss": "c40a55b1979da6ac",
    "hotc-swiss-de": "3bfa799bde4a3098",
    "round-robin": "c40a55b1979da6ac",
    "single-elim": "c40a55b1979da6ac",
    "wot-2001": "4398945f0e342195",
    "wot-classic": "4398945f0e342195",
}
