"""Which players' reports the result being recorded cites (issue 19, ADR 0027).

Owns: ``citing_scope`` (a context in which the aggregate adds ``reports=[seq, …]`` to the
result body a format records — any body type with a ``reports`` field, so the core names
no format kind) and ``cited_reports`` (the seqs of the scope in force, or None).  Like
``ledger.core.decided``, a command-side convenience: the audit reads the field on the wire.

May import: ``contextvars``, ``collections.abc``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_CITED: ContextVar[tuple[int, ...] | None] = ContextVar("tourney_cited_reports", default=None)


@contextmanager
def citing_scope(seqs: list[int]) -> Iterator[None]:
    """Results recorded inside cite the reports ``seqs`` (in this order)."""
    token = _CITED.set(tuple(seqs))
    try:
        yield
    finally:
        _CITED.reset(token)


def cited_reports() -> list[int] | None:
    cited = _CITED.get()
    return None if cited is None else list(cited)
