"""The live server's shutdown (``Hub.close``): the follower's ledger is closed only once
the follower's thread has ended.  Closing its SQLite connection while that thread was
inside a fold crashed the whole process (a segfault in ``select_events``, seen once in 12
runs of the server tests with both cores busy); a thread still busy past ``JOIN_S`` leaves
the ledger to the process's exit.
"""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest

from bench.bench_cli import make_event
from ledger.storage.location import Location
from server import hub as hub_module
from server.hub import Hub


def test_close_waits_for_a_fold_in_progress(tmp_path: Path) -> None:
    db, _key, _signer = make_event(tmp_path, 16, 0)
    hub = Hub(Location(str(db)), None)
    follower = hub.follower
    inside, order = threading.Event(), []
    catch_up, close = follower.catch_up, follower.close

    def slow_catch_up() -> bool:
        inside.set()
        time.sleep(0.5)                  # a fold that is still reading when close comes
        grew = catch_up()                # reads the ledger: must find it open
        order.append("fold ended")
        return grew

    def closing() -> None:
        order.append("ledger closed")
        close()

    follower.catch_up = slow_catch_up    # type: ignore[method-assign]
    follower.close = closing             # type: ignore[method-assign]

    async def go() -> None:
        hub.start(asyncio.get_running_loop())
        hub.wake.set()                   # an append: the follow thread folds
        assert await asyncio.to_thread(inside.wait, 30)

    asyncio.run(go())
    hub.close()
    assert order == ["fold ended", "ledger closed"]
    assert not any(t.is_alive() for t in hub.threads)


def test_a_thread_still_busy_leaves_the_ledger_open(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    db, _key, _signer = make_event(tmp_path, 16, 0)
    hub = Hub(Location(str(db)), None)
    monkeypatch.setattr(hub_module, "JOIN_S", 0.2)
    release, inside, closed = threading.Event(), threading.Event(), []
    catch_up = hub.follower.catch_up

    def stuck() -> bool:
        inside.set()
        release.wait(30)
        return catch_up()

    hub.follower.catch_up = stuck        # type: ignore[method-assign]
    hub.follower.close = lambda: closed.append(True)  # type: ignore[method-assign]

    async def go() -> None:
        hub.start(asyncio.get_running_loop())
        hub.wake.set()
        assert await asyncio.to_thread(inside.wait, 30)

    asyncio.run(go())
    hub.close()                          # gives up after JOIN_S without closing
    assert closed == []
    release.set()
    for t in hub.threads:
        t.join(30)
