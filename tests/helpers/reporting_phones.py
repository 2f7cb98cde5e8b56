"""Phones that report results to a real ``tourney serve``: an event open for reports.

Owns: ``reporting_event`` (a CLI event with a station key, cards and a paired round),
``_phone`` (a phone's HTTP client signed in with its card), ``_post`` (a report form
posted) and ``_win_choice`` (the form's choice that means a win).

May import: ``tests.helpers.*``, ``httpx``, the standard library.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import httpx

from ledger.core.format_socket import plugin_for
from tests.helpers.cli_runner import Cli
from tests.helpers.standings_play import pair, start


def reporting_event(tmp_path: Path, *init: str
                    ) -> tuple[Cli, dict[str, object], dict[int, str]]:
    """A HotC event of four with a station official, round 1 paired and every player's
    card printed: the CLI, round 1's document and each player's card token."""
    cli, _log = start(tmp_path, "hotc-swiss-de", ["Ana A", "Bo B", "Cy C", "Dee D"], *init)
    cli("keys", "new", "--name", "Live server", "--out", "station.pem")
    cli("official", "add", "--role", "station", "--name", "Live server", "--public-key",
        "station.pem.pub", "--key", "hj.pem")
    doc = pair(cli, "hotc-swiss-de", 1)
    cli("player", "cards", "--url", "http://venue.invalid/", "--out", "cards.html", "--csv",
        "cards.csv", "--key", "hj.pem")
    with open(tmp_path / "cards.csv", newline="") as f:
        tokens = {int(r["number"]): r["url"].rsplit("/c/", 1)[1] for r in csv.DictReader(f)}
    return cli, doc, tokens


def _win_choice() -> int:
    import ledger.formats.registry  # noqa: F401

    vocab = plugin_for("hotc-swiss-de").entry.result_vocabulary()  # type: ignore[union-attr]
    return next(i for i, e in enumerate(vocab.entries) if e.key == "win")


def _phone(base: str, token: str) -> httpx.Client:
    phone = httpx.Client(base_url=base)
    assert phone.get(f"/c/{token}").status_code == 303
    return phone


def _post(phone: httpx.Client, base: str, winner: int, **extra: str) -> httpx.Response:
    page = phone.get("/report")
    assert page.status_code == 200, page.text
    csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', page.text)
    assert csrf is not None
    c = _win_choice()
    return phone.post("/report", data={"csrf": csrf.group(1), "choice": str(c),
                                       f"c{c}.winner": str(winner), **extra},
                      headers={"Origin": base})
