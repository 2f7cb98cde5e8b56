"""Bushiroad tournament structures (RULES.md §3, 002 FR): the pure rule functions.

Each module owns one rule family and is shared by the command side, the projections and
the audit (one implementation each):

- ``model``       fighter histories (rounds, byes, drops, disqualifications), ``DecidedBy``;
- ``rounds``      recommended Swiss rounds and announced stop rules (BR-SWISS-ROUNDS-1..4);
- ``mw``          MW% (truncation, 0.33 floor, byes, denominators) and DE effective rounds;
- ``tiebreak``    OMW%, OOMW%, head-to-head, ``rank`` and ``resolve_ties``;
- ``results``     a match's result from game scores and how it ended (BR-MATCH, BR-SE, BR-DE-6);
- ``annex_a``     deciding a game at time-up for VG, WS and BF (BR-ANNEXA-*);
- ``finalists``   selection by ranking, by nation/clan and by title (BR-FIN-*);
- ``round_robin`` circle-method schedule (BR-SWISS-ROUNDS-1);
- ``de``          double-elimination status and end condition (BR-DE-1/2/5, AMB-B9).

Brackets (seeding by ranking, advancing past double losses) live in the shared match layer
(``ledger.formats.match.bracket``), not here.

The modules import only the standard library, ``msgspec`` and ``ledger.errors``.  None of
them reads a clock, draws at random or touches storage: every random choice is made by the
caller with DRAW-v1 and passed in as an order.
"""
