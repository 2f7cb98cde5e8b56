"""Shared fixtures: fixed test keys, a fixed clock, and a small signed ledger; the page
matrix's browser, tabs and events (``matrix_*``, one of each per matrix file); the order
the files start in (the longest single tests first: ``tests/helpers/long_first.py``)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from ledger.core.aggregate import Tournament
from ledger.formats.registry import make_format
from ledger.proofs.checkpoint_store import checkpoint_dir, write_checkpoint
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.clock import FixedClock
from ledger.wire.events import Role
from ledger.wire.keys import PublicKey, Signer

if TYPE_CHECKING:
    from tests.helpers.page_matrix_run import Events, Tabs

HJ = Signer.from_seed(bytes([1]) * 32, "Head Judge")
JUDGE = Signer.from_seed(bytes([2]) * 32, "Judge Jo")
SCOREKEEPER = Signer.from_seed(bytes([3]) * 32, "Scorekeeper Sam")
STRANGER = Signer.from_seed(bytes([4]) * 32, "Stranger")


def public(s: Signer) -> PublicKey:
    return PublicKey(s.public_key_raw, s.name)


def build_small(path: Path, log: str = "t1", players: int = 6) -> Location:
    """genesis, judge, scorekeeper, players, seed, draw, close (+checkpoint)."""
    loc = Location(str(path))
    with Ledger(loc, create=True, clock=FixedClock()) as led:
        led.create(log, lambda now: Tournament.create(
            log=log, name="Test Open", fmt=make_format("hotc-swiss-de", 4), signer=HJ,
            time=now))
        led.write(log, lambda t, now: t.add_official(public(JUDGE), Role.JUDGE, "Judge Jo",
                                                     HJ, now))
        led.write(log, lambda t, now: t.add_official(public(SCOREKEEPER), Role.SCOREKEEPER,
                                                     "Scorekeeper Sam", HJ, now))
        for i in range(players):
            led.write(log, lambda t, now, i=i: t.register_player(f"Player {i + 1}", SCOREKEEPER,
                                                            now))
        led.write(log, lambda t, now: t.record_seed(
            material="atmospheric 1234", source="randomizer", reason="seating", signer=HJ,
            time=now))
        led.write(log, lambda t, now: t.make_draw(ctx=f"{log}/seating",
                                                  items=list(range(1, players + 1)),
                                                  signer=HJ, time=now))
        led.write(log, lambda t, now: t.close_registration(HJ, now))
        write_checkpoint(led, log, HJ, checkpoint_dir(loc, None, log))
    return loc


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The files with the longest single tests first, so ``--dist worksteal`` never ends
    the run with one worker idle while the other runs a long test it started last."""
    from tests.helpers.long_first import longest_first
    items[:] = longest_first(items)


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto`` is the machine's cores plus two (issue 33; docs/TESTING.md): some tests
    wait (on browsers, servers, live pages' coalescing) while others compute, and two extra
    workers fill those waits: 6 min 43 s with 4 workers against 7 min 05 s with 2 side by
    side on two cores; 6 workers were slower again (437 s against 411 s), the two cores
    being busy throughout.  Plus two, not twice: every worker may hold a browser and
    servers.  ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still decides when set."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else \
        (os.cpu_count() or 1)
    return cores + 2


@pytest.fixture(autouse=True, scope="module")
def _environment_kept_per_module() -> Iterator[None]:
    """What a test module's helpers set in this process's environment (e.g. a pinned
    clock, ``TOURNEY_FIXED_CLOCK``, that a module's in-process server keeps reading) is
    put back when the module ends, so it never leaks into the next module a worker runs:
    under ``-n 4`` a leaked clock made ``test_desk_extensions``' station write at 09:00
    after events of 10:03 (LEDGER-TIME-1)."""
    saved = dict(os.environ)
    yield
    if os.environ != saved:
        os.environ.clear()
        os.environ.update(saved)


@pytest.fixture()
def small_ledger(tmp_path: Path) -> Location:
    return build_small(tmp_path / "t.db")


WriteFn = Callable[[Tournament, str], object]


# -- the page matrix (tests/test_page_matrix*.py; tests/helpers/page_matrix_run.py) --------
@pytest.fixture(scope="module")
def matrix_events(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Events]:
    from tests.helpers.page_matrix_run import events_in
    yield from events_in(tmp_path_factory)


@pytest.fixture(scope="module")
def matrix_browser() -> Iterator[Any]:
    from tests.helpers.page_matrix_run import browser_open
    yield from browser_open()


@pytest.fixture(scope="module")
def matrix_axe() -> str:
    from tests.helpers.page_matrix_run import axe_read
    return axe_read()


@pytest.fixture(scope="module")
def matrix_tabs(matrix_browser: Any, matrix_axe: str, matrix_events: Events) -> Iterator[Tabs]:
    # after the events (so closed before their servers stop): a tab still showing a page
    # holds its live-update stream open, and a server waits 2 s for it before it stops
    from tests.helpers.page_matrix_run import tabs_of
    yield from tabs_of(matrix_browser, matrix_axe)
