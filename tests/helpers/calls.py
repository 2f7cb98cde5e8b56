"""Judge-call test helpers for the live server: a reporting event with a judge who holds
a staff card, and a station clock that moves 100 s a reading (so a call claimed and closed
on the staff page has a ruling over one minute, with no wall clock).

May import: ``ledger.*``, ``tests.helpers.*``, the standard library, ``pytest``.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from tests.helpers.cli_runner import CLOCK, Cli, remember_secret
from tests.helpers.reporting_phones import reporting_event
from tests.helpers.staff import _staff_token


def slow_station_clock(monkeypatch: pytest.MonkeyPatch, step_s: int = 100) -> None:
    """Every ledger this process opens reads a fixed clock from ``CLOCK`` moving
    ``step_s`` a reading."""
    import ledger.storage.store as store
    from ledger.wire.clock import FixedClock

    monkeypatch.setattr(store, "default_clock",
                        lambda: FixedClock(CLOCK, step=timedelta(seconds=step_s)))


def calls_event(tmp_path: Path) -> tuple[Cli, dict[str, object], dict[int, str], str]:
    """A HotC event of four, round 1 paired, every player's card and a judge's staff card:
    (CLI, round 1's document, card tokens, the judge's staff token)."""
    cli, doc, tokens = reporting_event(tmp_path)
    cli("keys", "new", "--name", "Judge Jo", "--out", "judge.pem")
    remember_secret(tmp_path / "judge.pem")
    cli("official", "add", "--role", "judge", "--name", "judge", "--public-key",
        "judge.pem.pub", "--key", "hj.pem")
    return cli, doc, tokens, _staff_token(cli, tmp_path, "judge", "judge")
