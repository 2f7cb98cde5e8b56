"""A trio-team event through the aggregate: teams, a paired round, signers.

Owns: ``HJ``/``SK``, ``_event`` (a ledger with teams registered), ``_team``, ``_paired_trio``.

May import: ``ledger.*``, ``tests.conftest``, the standard library.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import ledger.formats.registry  # noqa: F401
from ledger.core.aggregate import Tournament
from ledger.formats.registry import make_format
from ledger.formats.simulation import demo_key
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.events import Role
from ledger.wire.keys import PublicKey

HJ, SK = demo_key("team", "head-judge"), demo_key("team", "scorekeeper")


def _event(d: Path, fmt: str = "bushiroad-swiss", cut: int = 0, fighters: int = 9,
           **params: Any) -> tuple[Ledger, str]:
    led = Ledger(Location(str(d / "t.db")), create=True)
    spec = make_format(fmt, cut, {"team_mode": "trio", **params})
    led.create("e", lambda now: Tournament.create(log="e", name="Trio", fmt=spec,
                                                  signer=HJ, time=now))
    led.write("e", lambda t, now: t.add_official(PublicKey(SK.public_key_raw, SK.name),
                                                 Role.SCOREKEEPER, SK.name, HJ, now))
    for i in range(1, fighters + 1):
        led.write("e", lambda t, now, i=i: t.register_player(f"F{i}", SK, now, number=i))
    return led, "e"


def _team(led: Ledger, members: list[int], **kw: Any) -> Any:
    return led.write("e", lambda t, now: t.plugin.teams.register_team(t, SK, now,
                                                                members=members, **kw))


# -- officiating: a penalty to a team (BR-TEAM-6, PG §4.5), a team's disqualification -----
def _paired_trio(d: Path) -> Ledger:
    led, _ = _event(d, fighters=12, swiss_rounds=2)
    for first in (1, 4, 7, 10):
        _team(led, [first, first + 1, first + 2])
    led.write("e", lambda t, now: t.close_registration(HJ, now))
    led.write("e", lambda t, now: t.pair_round(HJ, now, material="r1", source="dice"))
    return led
