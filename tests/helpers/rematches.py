"""How few rematches a round robin or Swiss event of a given size can have.

May import: ``ledger.*``, the standard library.
"""

from __future__ import annotations

from collections.abc import Iterator

import ledger.formats.registry  # noqa: F401


def _matchings(players: list[int]) -> Iterator[list[tuple[int, int]]]:
    if not players:
        yield []
        return
    a, rest = players[0], players[1:]
    for i, b in enumerate(rest):
        for m in _matchings(rest[:i] + rest[i + 1:]):
            yield [(a, b), *m]


def _min_rematches(field: list[int], met: dict[int, set[int]]) -> int:
    return min(sum(1 for a, b in m if b in met.get(a, set())) for m in _matchings(field))
