"""Which players' reports the result being recorded cites (issue 19, ADR 0027).

Owns: ``citing_scope`` (a context in which the aggregate adds ``reports=[seq, …]`` to the
result body a format records — any body type with a ``reports`` field, so the core names
no format kind), ``cited_reports`` (the seqs of the scope in force, or None), and
``acting_scope`` / ``acting_credential`` (a player's own act from their page: the
aggregate adds ``credential=ID`` to any body type with a ``credential`` field, e.g. a
drop; REPORT-15 — and, when the card's phone signed it, ``device_sig`` and ``device_use``
to a body type with those fields; REPORT-19/20).  Like
``ledger.core.decided``, a command-side convenience: the audit reads the field on the wire.

May import: ``contextvars``, ``collections.abc``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_CITED: ContextVar[tuple[int, ...] | None] = ContextVar("tourney_cited_reports", default=None)
_ACTING: ContextVar[str | None] = ContextVar("tourney_acting_credential", default=None)
_SIGNED: ContextVar[tuple[str, int] | None] = ContextVar("tourney_acting_device_sig",
                                                        default=None)


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
def acting_scope(credential: str, device_sig: str | None = None,
                 device_use: int | None = None) -> Iterator[None]:
    """Acts recorded inside are the credential holder's own (REPORT-15), signed by the
    card's phone key when ``device_sig`` is given (its statement names ``device_use``,
    REPORT-19/20)."""
    token = _ACTING.set(credential)
    signed = _SIGNED.set(None if device_sig is None else (device_sig, device_use or 0))
    try:
        yield
    finally:
        _SIGNED.reset(signed)
        _ACTING.reset(token)


def acting_credential() -> str | None:
    return _ACTING.get()


def acting_device_sig() -> tuple[str, int] | None:
    """(signature, act number) of the phone that signed the act in scope, or None."""
    return _SIGNED.get()
