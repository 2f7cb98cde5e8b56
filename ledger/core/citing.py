"""Which players' reports the result being recorded cites (issue 19, ADR 0027).

Owns: ``citing_scope`` (a context in which the aggregate adds ``reports=[seq, …]`` to the
result body a format records — any body type with a ``reports`` field, so the core names
no format kind), ``cited_reports`` (the seqs of the scope in force, or None), and
``acting_scope`` / ``acting_credential`` (a player's own act from their page: the
aggregate adds ``credential=ID`` to any body type with a ``credential`` field, e.g. a
drop; REPORT-15).  Like
``ledger.core.decided``, a command-side convenience: the audit reads the field on the wire.

May import: ``contextvars``, ``collections.abc``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_CITED: ContextVar[tuple[int, ...] | None] = ContextVar("tourney_cited_reports", default=None)
_ACTING: ContextVar[str | None] = ContextVar("tourney_acting_credential", default=None)


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


@contextmanager
def acting_scope(credential: str) -> Iterator[None]:
    """Acts recorded inside are the credential holder's own (REPORT-15)."""
    token = _ACTING.set(credential)
    try:
        yield
    finally:
        _ACTING.reset(token)


def acting_credential() -> str | None:
    return _ACTING.get()
