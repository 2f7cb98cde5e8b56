"""The folded state of a Wheel of Time event (the plug-in's ``state_type``).

Owns: ``WotState`` (every Game: its tables with Hero/Villain, recorded results, bye and
``bye_side``, the Judge's TBP overrides; and the players removed by a Declaration of
Forfeiture), ``GameState``, ``TableState``, ``ResultState``, ``OverrideState``.  Classic
averages need every result of a Game, so a Game keeps all of its tables (a WoT event is a
few hundred players and a handful of Games).  Pure data, folded by ``apply``.

May import: ``msgspec`` only.
"""

from __future__ import annotations

import msgspec


class ResultState(msgspec.Struct, kw_only=True, array_like=True, gc=False):
    seq: int
    outcome: str
    winner: int | None
    last_battle: bool
    support: dict[int, int] = {}
    pattern: dict[int, int] = {}
    neutral: int | None = None
    conceded_by: int | None = None


class TableState(msgspec.Struct, kw_only=True, array_like=True, gc=False):
    table: int
    hero: int
    villain: int
    rematch: bool = False
    result: ResultState | None = None


class OverrideState(msgspec.Struct, kw_only=True, array_like=True, gc=False):
    seq: int
    table: int
    number: int
    old: str
    new: str
    method: str
    reason: str


class GameState(msgspec.Struct, kw_only=True, array_like=True, gc=False):
    number: int
    paired_seq: int
    tables: list[TableState]
    bye: int | None = None
    bye_side: str | None = None
    method: str = "ranked"
    deck_repeats: list[int] = []
    overrides: list[OverrideState] = []
    corrected_seq: int | None = None


class WotState(msgspec.Struct, kw_only=True, array_like=True, gc=False):
    games: list[GameState] = []
    #: players removed by a Declaration of Forfeiture (WOTOLD-FORF-1, AMB-W10)
    removed: list[int] = []
