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
    "": "8fd243029fda6904",
    "bushiroad-de": "d6117d5341417525",
    "bushiroad-swiss": "d6117d5341417525",
    "hotc-swiss-de": "e1b0a484bcc823a9",
    "round-robin": "d6117d5341417525",
    "single-elim": "d6117d5341417525",
    "wot-2001": "b9d6457a005911c3",
    "wot-classic": "b9d6457a005911c3",
}
