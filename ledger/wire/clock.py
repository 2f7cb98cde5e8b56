"""Clocks for the command side: the only place tourney reads time.

Owns: ``Clock`` protocol, ``SystemClock`` (UTC, RFC 3339 with ``Z``) and ``FixedClock``
(a start and a step, for golden files and reproducible scripts), the pure helpers on
claimed times (``format_time``, ``parse_time``, ``later_time``), and ``pinned_time`` /
``reading``: a time pinned for the writes of the current context (thread or task), so a
command decided again to be signed in the official's browser is decided at the time the
browser was shown (``usecases.prepared``; the bounds are checked there).  Replay never reads a
clock: times are decided once by a command and written into the event.

May import: the standard library, ``ledger.errors``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime, timedelta
from typing import Protocol

CLOCK_ENV = "TOURNEY_FIXED_CLOCK"


def format_time(dt: datetime) -> str:
    """RFC 3339 UTC with ``Z`` and microseconds (docs/DESIGN.md §4)."""
    return dt.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def parse_time(text: str) -> datetime:
    if not text.endswith("Z"):
        raise ValueError(f"time {text!r} is not RFC 3339 UTC ending in Z")
    return datetime.fromisoformat(text[:-1] + "+00:00")


def later_time(a: str, b: str) -> str:
    """The later of two claimed times (``a`` may be "" for none).  Times of tourney's own
    fixed-width shape compare as strings (cheap on every replayed event); others are
    parsed, and an unparsable one never wins (the audit flags it as ``time_malformed``)."""
    if not a:
        return b
    if len(a) == len(b) == 27 and a[-1] == b[-1] == "Z":
        return b if b > a else a
    try:
        tb = parse_time(b)
    except ValueError:
        return a
    try:
        return b if tb > parse_time(a) else a
    except ValueError:
        return b


class Clock(Protocol):
    def now(self) -> str: ...


class SystemClock:
    def now(self) -> str:
        return format_time(datetime.now(UTC))


class FixedClock:
    """Starts at ``start`` and advances ``step`` on every reading."""

    def __init__(self, start: str = "2013-06-01T09:00:00.000000Z",
                 step: timedelta = timedelta(seconds=1)) -> None:
        self._t = parse_time(start)
        self._step = step

    def now(self) -> str:
        value = format_time(self._t)
        self._t += self._step
        return value


_PINNED: ContextVar[str | None] = ContextVar("tourney_pinned_time", default=None)


@contextmanager
def pinned_time(time: str) -> Iterator[None]:
    """Within this block (this thread or task, and what copies its context), every
    write decides at ``time`` instead of reading the ledger's clock."""
    token = _PINNED.set(time)
    try:
        yield
    finally:
        _PINNED.reset(token)


def pinned() -> str | None:
    """The time pinned in this context, if any."""
    return _PINNED.get()


def reading(clock: Clock) -> str:
    """The time a write decides at: the pinned time if any, else ``clock.now()``."""
    pinned = _PINNED.get()
    return pinned if pinned is not None else clock.now()


def default_clock() -> Clock:
    """The system clock, or a fixed one when ``TOURNEY_FIXED_CLOCK=<RFC 3339>`` is set.

    The fixed clock exists for reproducible demos and golden bundles; the time it gives is
    still written into each signed event, so an auditor sees it.
    """
    start = os.environ.get(CLOCK_ENV)
    if not start:
        return SystemClock()
    try:
        return FixedClock(start)
    except ValueError:
        from ledger.errors import UsageError

        raise UsageError(f"{CLOCK_ENV}={start!r} is not an RFC 3339 UTC time",
                         hint=f"use e.g. {CLOCK_ENV}=2026-06-01T09:00:00.000000Z, or unset "
                              "it") from None
