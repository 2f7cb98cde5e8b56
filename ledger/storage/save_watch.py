"""Watching the saves of one call (issue 29 item 2: a command signed in the browser).

Owns: ``watching`` (a context in which ``saved(n)`` reports each committed save of ``n``
events to a callback) and ``saved`` (what ``Ledger.retrying`` calls after each save).  A
command that saves in several writes (``result import``: one per row) and is stopped by
its signer after the first of them has written part of itself: ``usecases.prepared``
needs to know how many of the browser's signatures are already in the log.

May import: the standard library.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_WATCH: ContextVar[Callable[[int], None] | None] = ContextVar("tourney_save_watch",
                                                              default=None)


@contextmanager
def watching(callback: Callable[[int], None]) -> Iterator[None]:
    """Within this block (this thread or task), every committed save calls
    ``callback(number of events saved)``."""
    token = _WATCH.set(callback)
    try:
        yield
    finally:
        _WATCH.reset(token)


def saved(n: int) -> None:
    """A save of ``n`` events was committed (called by the store)."""
    callback = _WATCH.get()
    if callback is not None:
        callback(n)
