"""Wheel of Time CCG formats ``wot-classic`` (003, WOT_OLD) and ``wot-2001`` (004, WOT_2001).

Pure rule functions, one implementation each, shared by the command side, projections and
the audit (RULES.md §6, §7, §9.4; docs/DESIGN.md §10, §11):

- ``model``: ``Revision``, ``Side``, exact TBP text.
- ``params``: parameter sets with defaults and allowed values (RULES.md §8).
- ``results``: outcome codes (O1..O9 / Q1..Q6), the result record and its validation.
- ``scoring``: GP and TBP of a whole Game from the recorded outcomes, Judge overrides.
- ``seating``: Game 1 from the recorded DRAW-v1 shuffle (WOTOLD-PAIR-1, BYE-1).
- ``pairing``: later Games: piles, ranked list, byes, rematch avoidance (PAIR-2..10, BYE-2..6).
- ``ranking``: totals, forfeiture and the final ranking with shared places (RANK-1/2).

Nothing here touches storage, keys or the wall clock.  May import: the standard library,
``msgspec``, ``ledger.errors``, ``ledger.core.draw``, ``ledger.core.matching`` and its own modules.
"""
