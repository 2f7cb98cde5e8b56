"""A decision made but never saved (issue 29: the server's command preview).

Owns: ``DRY_RUN`` (a context variable set to True around a command that is decided but
must not be stored) and ``DryRun`` (what a store raises at the point it would have written:
``Ledger._save`` carries the decided events, a checkpoint's ``put`` none), and ``check``
(what every writing point calls first).

May import: the standard library.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

#: True around a command that is decided but must not be saved
DRY_RUN: ContextVar[bool] = ContextVar("tourney_dry_run", default=False)


class DryRun(Exception):
    """A dry run's decision: ``events`` are the signed events a save would have written
    (deliberately not a ``TourneyError``: no catch point takes it for a refusal)."""

    def __init__(self, events: list[Any]) -> None:
        super().__init__("dry run: nothing saved")
        self.events = events


def check(events: list[Any] | None = None) -> None:
    """Raise ``DryRun`` (with ``events``) when this is a dry run; else nothing."""
    if DRY_RUN.get():
        raise DryRun(list(events or []))
