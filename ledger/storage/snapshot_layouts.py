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
    "": "1a2da1a1bcf3b6d8",
    "bushiroad-de": "67a320b3d6336e97",
    "bushiroad-swiss": "67a320b3d6336e97",
    "hotc-swiss-de": "aa54250281854c13",
    "round-robin": "67a320b3d6336e97",
    "single-elim": "67a320b3d6336e97",
    "wot-2001": "b58ba635739d24ca",
    "wot-classic": "b58ba635739d24ca",
}
