"""The application layer: each use case of the desk (``cli/``) and the station
(``server/``) held once (issue 28 item 2; ADR 0040).

Owns: nothing itself; its modules own one use case each — ``usecases.results`` (enter,
correct and agree a result, idempotently), ``usecases.rounds`` (what happens after a round
closes: its verdict, the champion, the checkpoint), ``usecases.reports`` (staff and
players' decisions on self-reports, a player's own drop) and ``usecases.receipt`` (the
receipt document of an event the station wrote).  A use case takes the aggregate or the ledger
and returns data (dataclasses, msgspec structs, enums for outcomes); ``cli/`` turns it
into text and exit codes, ``server/`` into pages and JSON.  Nothing here prints, reads a
clock or knows a format by name.

May import: ``ledger.*``, ``projections.*``, ``usecases.*`` (never ``cli``, ``server``,
``audit``).
"""
