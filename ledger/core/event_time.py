"""The time of the event being checked (issue 30 item 4, ADR 0056): a rule that
compares an event with the log's own clock (a decklist deadline, DECK-LIST-1) reads the
event's claimed time here, never the wall clock.

Owns: ``event_time_scope`` (``Tournament.record`` runs its checks inside it with the time it
is about to seal; the audit's fold with each leaf's time) and ``event_time`` (the time in
force, or None outside any scope: a rule that needs it refuses then, never passes).

May import: the standard library.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_TIME: ContextVar[str | None] = ContextVar("tourney_event_time", default=None)


@contextmanager
def event_time_scope(time: str) -> Iterator[None]:
    """Within this scope ``event_time()`` is ``time`` (the event's own claimed time)."""
    token = _TIME.set(time)
    try:
        yield
    finally:
        _TIME.reset(token)


def event_time() -> str | None:
    return _TIME.get()
