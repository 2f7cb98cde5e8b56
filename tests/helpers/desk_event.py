"""An event for the staff console's tests: the real CLI opens it (officials, a station,
staff cards), and a real server serves ``/desk`` over it with the officials' keys.

Owns: ``DeskEvent`` (the CLI, each official's key id, key file and staff-card token),
``desk_event`` (an event of ``fmt`` with the head judge, a scorekeeper, a judge and a
time-keeper, a station, round 1 paired), ``desk_server``
(``tests.helpers.live.running`` with the staff keys and the server's own runner,
``cli.api_runner.ApiRunner``, as ``tourney serve`` hands it), ``signed_in`` (an HTTP
client holding an official's staff card), ``form_token``, ``main_words`` (a page's
``<main>`` as plain words) and ``posted_form`` (a console command's form fetched, its
fields checked, and posted without JavaScript).

May import: ``tests.helpers.*``, ``cli.api_runner``, ``ledger.*``, ``httpx``, the
standard library.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from tests.helpers.cli_event import open_event
from tests.helpers.cli_runner import Cli
from tests.helpers.live import running
from tests.helpers.staff import _staff_token
from tests.helpers.standings_play import FORMATS, pair

NAMES = ["Ana Alves", "Bo Berg", "Cy Chen", "Dee Diaz", "Eli Eze", "Fay Fox", "Gus Gil",
         "Hal Ho"]


@dataclass
class DeskEvent:
    cli: Cli
    dir: Path
    fmt: str
    keys: dict[str, Path]       # name (hj, sk, judge) → key file
    kids: dict[str, str]        # name → key id
    cards: dict[str, str]       # name → staff card token
    round1: dict[str, Any]


def desk_event(tmp: Path, fmt: str, names: list[str] | None = None,
               params: tuple[str, ...] = ()) -> DeskEvent:
    """``params``: more ``init`` options (e.g. ``("--param", "extra_turns=3")``)."""
    cli, _log = open_event(tmp, fmt, names or NAMES, *FORMATS[fmt], *params,
                          officials=("sk", "judge", "tk"),
                          name=f"{fmt} desk")
    cli("keys", "new", "--name", "Live server", "--out", "station.pem")
    cli("official", "add", "--role", "station", "--name", "Live server", "--public-key",
        "station.pem.pub", "--key", "hj.pem")
    doc = pair(cli, fmt, 1)
    offs = {o["name"]: o["key_id"] for o in cli("official", "list", "--json").doc["officials"]}
    hj = next(k for n, k in offs.items() if n not in ("sk", "judge", "tk", "Live server"))
    kids = {"hj": hj, "sk": offs["sk"], "judge": offs["judge"], "tk": offs["tk"]}
    hj_name = next(n for n, k in offs.items() if k == hj)
    cards = {"sk": _staff_token(cli, tmp, "sk", "sk"),
             "judge": _staff_token(cli, tmp, "judge", "judge"),
             "tk": _staff_token(cli, tmp, "tk", "tk"),
             "hj": _staff_token(cli, tmp, "hj-card", hj_name)}
    keys = {n: tmp / f"{n}.pem" for n in ("hj", "sk", "judge")}
    return DeskEvent(cli, tmp, fmt, keys, kids, cards, doc)


@contextmanager
def desk_server(ev: DeskEvent, *, hold: tuple[str, ...] = ("hj", "sk", "judge")
                ) -> Iterator[tuple[str, Any]]:
    """``(base URL, hub)``: the server holds the keys of ``hold``."""
    from cli.api_runner import ApiRunner
    from ledger.storage.location import Location

    runner = ApiRunner(Location(str(ev.cli.ledger)))
    with running(ev.cli.ledger, station_key=ev.dir / "station.pem",
                 staff_keys=tuple(ev.keys[n] for n in hold), runner=runner) as (base, hub):
        yield base, hub


def signed_in(base: str, token: str) -> httpx.Client:
    c = httpx.Client(base_url=base, timeout=60)
    assert c.get(f"/c/{token}").status_code == 303
    return c


def form_token(page: str) -> str:
    m = re.search(r'name="csrf" value="([0-9a-f]+)"', page)
    assert m is not None, "no form token on the page"
    return m.group(1)


def main_words(text: str) -> str:
    """A page's ``<main>`` as plain words (tags dropped, quotes unescaped)."""
    m = re.search(r"<main>(.*)</main>", text, re.S)
    body = re.sub(r"<[^>]+>", " ", m.group(1) if m else text)
    return re.sub(r"\s+", " ", body.replace("&#39;", "'").replace("&quot;", '"'))


def posted_form(c: httpx.Client, base: str, path: str, data: dict[str, str],
                files: dict[str, Any] | None = None) -> httpx.Response:
    """The command's form as the console serves it (each field sent must be on it),
    posted without JavaScript."""
    page = c.get(f"/desk/do/{path}")
    assert page.status_code == 200 and 'method="post"' in page.text, page.status_code
    for name in (*data, *(files or {})):
        assert f'name="{name}"' in page.text, (path, name)
    return c.post(f"/desk/do/{path}", data={"csrf": form_token(page.text), **data},
                  files=files or {}, headers={"Origin": base})
