"""Decide once (issue 22 item 4): the body a command just computed with the rule's own
plan is not planned again by that command's check.

Owns: ``decided_scope`` (``Tournament.record(..., decided=True)`` runs the checks inside
it) and ``is_decided`` (a check asks whether ``body`` is that very object).  A check that
recomputes a decision from the state (a pairing plan, a draw's result) skips only the
recomputation when ``is_decided(body)``: the command side built ``body`` from the same
state with the same function moments earlier, inside the same call.  Everything else
still runs (authorisation, preconditions, the text rule, sizes).  The identity test is on
the object, not its value, so nothing built elsewhere — a body decoded from a leaf, one a
caller assembled, a copy — is ever trusted: the audit calls ``rules.check`` outside any
scope and so recomputes every decision itself.

May import: the standard library.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_DECIDED: ContextVar[object | None] = ContextVar("tourney_decided", default=None)


@contextmanager
def decided_scope(body: object | None) -> Iterator[None]:
    """Within this scope ``is_decided(body)`` holds (nothing when ``body`` is None)."""
    token = _DECIDED.set(body)
    try:
        yield
    finally:
        _DECIDED.reset(token)


def is_decided(body: object) -> bool:
    """``body`` is the object the command side just decided (see the module doc)."""
    return body is not None and _DECIDED.get() is body
