"""The staff page's test helpers: a staff card's token, a form's CSRF token, the log's events.

May import: ``tests.helpers.*``, the standard library.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

from tests.helpers.cli_runner import Cli


def _staff_token(cli: Cli, tmp: Path, key: str, name: str) -> str:
    kid = next(o["key_id"] for o in cli("official", "list", "--json").doc["officials"]
               if o["name"] == name)
    cli("official", "card", kid, "--url", "http://venue.invalid/", "--out", f"{key}.html",
        "--csv", f"{key}.csv", "--key", "hj.pem")
    with open(tmp / f"{key}.csv", newline="") as f:
        return next(csv.DictReader(f))["url"].rsplit("/c/", 1)[1]


def _csrf(page: str) -> str:
    return re.search(r'name="csrf" value="([0-9a-f]+)"', page).group(1)  # type: ignore[union-attr]


def _events(cli: Cli) -> list[dict[str, object]]:
    return [leaf["event"] for leaf in cli("log", "--json").doc]
