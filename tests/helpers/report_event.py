"""Events in any format that take players' reports, and the server over one in this
process (Starlette's TestClient: fast, real ledger file, real signatures).

Owns: ``prepared`` (an event of four written by the real CLI — a station official, round
1 paired, every card printed — made once per format and init options and copied for each
test), ``app_over`` (the live server with a station over a copy, its lifespan running),
``phone`` (a TestClient with its own cookies that signed in with a card), ``csrf_of`` and
``choice_of`` (the form's token; a vocabulary entry's choice index).

May import: ``server.*``, ``ledger.*``, ``tests.helpers.*``, ``starlette``, the standard
library.
"""

from __future__ import annotations

import csv
import os
import re
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

import ledger.formats.registry  # noqa: F401  (plugs the formats into the core)
from ledger.core.format_socket import plugin_for
from ledger.storage.location import Location
from server.app import Hub, create_app
from server.limits import Gate
from server.station import Station
from tests.helpers.standings_play import pair, start

BASE = "http://venue.test"
NAMES = ["Ana A", "Bo B", "Cy C", "Dee D"]


def prepared(root: Path, fmt: str, *init: str) -> tuple[Path, dict[str, Any], dict[int, str]]:
    """``root`` holds ``t.db`` and ``station.pem``: round 1 paired.  Returns the folder,
    round 1's document and each player's card token."""
    from tests.helpers.cli_runner import CLOCK

    os.environ.setdefault("TOURNEY_FIXED_CLOCK", CLOCK)
    cli, _ = start(root, fmt, NAMES, *init)
    cli("keys", "new", "--name", "Live server", "--out", "station.pem")
    cli("official", "add", "--role", "station", "--name", "Live server", "--public-key",
        "station.pem.pub", "--key", "hj.pem")
    doc = pair(cli, fmt, 1)
    cli("player", "cards", "--url", "http://venue.invalid/", "--out", "cards.html", "--csv",
        "cards.csv", "--key", "hj.pem")
    with open(root / "cards.csv", newline="") as f:
        tokens = {int(r["number"]): r["url"].rsplit("/c/", 1)[1] for r in csv.DictReader(f)}
    return root, doc, tokens


def copy_of(src: Path, dst: Path) -> Path:
    """The prepared folder's ledger, keys and cards copied to ``dst``."""
    dst.mkdir(parents=True, exist_ok=True)
    for p in src.iterdir():
        if p.is_file():
            shutil.copy2(p, dst / p.name)
    return dst


@contextmanager
def app_over(db: Path, station_key: Path, gate: Gate | None = None
             ) -> Iterator[tuple[TestClient, Hub, Any]]:
    """(a client, the hub, the app) of the live server with a station over ``db``."""
    hub = Hub(Location(str(db)), None, reporting=True)
    station = Station(Location(str(db)), station_key, hub.follower.log)
    app = create_app(hub, station=station, gate=gate)
    with TestClient(app, base_url=BASE, raise_server_exceptions=False) as client:
        yield client, hub, app


def phone(app: Any, token: str) -> TestClient:
    """A phone of its own (its own cookies) that scanned the card ``token``."""
    c = TestClient(app, base_url=BASE, raise_server_exceptions=False)
    r = c.get(f"/c/{token}", follow_redirects=False)
    assert r.status_code == 303, r.text
    return c


def csrf_of(html: str) -> str:
    m = re.search(r'name="csrf" value="([0-9a-f]+)"', html)
    assert m is not None, html
    return m.group(1)


def choice_of(fmt: str, key: str) -> int:
    vocab = plugin_for(fmt).entry.result_vocabulary()  # type: ignore[union-attr]
    return next(i for i, e in enumerate(vocab.entries) if e.key == key)


def post_report(c: TestClient, fields: dict[str, str]) -> Any:
    page = c.get("/report")
    assert page.status_code == 200, page.text
    return c.post("/report", data={"csrf": csrf_of(page.text), **fields},
                  headers={"Origin": BASE}, follow_redirects=False)
