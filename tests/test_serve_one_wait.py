"""One wait for freshness (issue 28 item 3, ADR 0041 §4; ADR 0032 §4): ``Hub.fresh``
serves both the responses after the server's own write (the folded state holds it) and
the receipt and the staff page after a decision (``shown``: the pages hold it), ending on
the follower's signal, not a poll; and it gives up after its bound.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from bench.bench_cli import make_event
from ledger.storage.location import Location
from server.hub import Hub
from tests.helpers.live import record_first_result


def test_one_wait_for_the_fold_and_for_the_pages(tmp_path: Path) -> None:
    db, _key, signer = make_event(tmp_path, 16, 0)
    hub = Hub(Location(str(db)), None)

    async def go() -> None:
        hub.start(asyncio.get_running_loop())
        size = hub.follower.state.size
        assert hub.pages.data.checkable.size == size
        assert await hub.fresh(size) and await hub.fresh(size, shown=True)
        t0 = time.monotonic()                           # a size never reached: its bound
        assert not await hub.fresh(size + 1000, shown=True, timeout=0.3)
        assert time.monotonic() - t0 >= 0.3
        seen = hub.advanced
        await asyncio.to_thread(record_first_result, db, signer)
        assert await hub.fresh(size + 1, timeout=30)
        assert hub.follower.state.size == size + 1
        assert await hub.fresh(size + 1, shown=True, timeout=30)
        assert hub.pages.data.checkable.size == size + 1
        assert seen.is_set() and hub.advanced is not seen  # woken by the signal

    try:
        asyncio.run(go())
    finally:
        hub.close()
