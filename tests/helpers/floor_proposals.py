"""A floor with two extensions to confirm, written by the real CLI with a fixed clock (the
console's extension tests, HTTP and browser): a deck check 10:00:00 → 10:02:01 and a call
claimed at 10:00:40 and closed at 10:03:50, on round 1 of a ``desk_event``.

Owns: ``at`` (the fixed-clock environment of one command) and ``floor_with_proposals``.

May import: ``tests.helpers.desk_event``, the standard library.
"""

from __future__ import annotations

from tests.helpers.desk_event import DeskEvent


def at(t: str) -> dict[str, str]:
    return {"TOURNEY_FIXED_CLOCK": f"2026-03-01T{t}.000000Z"}


def floor_with_proposals(ev: DeskEvent) -> tuple[int, int, int, int]:
    """(deck check seq, its table, call seq, its table): a check 10:00:00 → 10:02:01
    (121 s: 3 minutes) and a call claimed at 10:00:40, closed at 10:03:50 (ruling 3:10:
    4 minutes); no cap in 002 (BR-EXT-1, BR-EXT-3)."""
    t1, t2 = (t["table"] for t in ev.round1["tables"][:2])
    j = ("--key", str(ev.keys["judge"]))
    check = ev.cli("deck", "start", "--round", "1", "--table", str(t1), *j, "--json",
                   env=at("10:00:00")).doc["seq"]
    call = ev.cli("call", "open", "--table", str(t2), *j, "--json",
                  env=at("10:00:00")).doc["seq"]
    ev.cli("call", "claim", str(call), *j, env=at("10:00:40"))
    ev.cli("deck", "end", str(check), "--outcome", "matches", *j, env=at("10:02:01"))
    ev.cli("call", "close", str(call), "--outcome", "X resolves first", *j,
           env=at("10:03:50"))
    return int(check), int(t1), int(call), int(t2)
