"""The console's browser-held keys in a test (issue 29 item 2): whether this build has
their routes, and a staff card for a bound key.

Owns: ``NO_KEYS`` (why the browser-key tests cannot run, or None) and ``_card`` (the
card token of official ``kid``, printed by the real CLI).

May import: ``tests.helpers.cli_runner``, the standard library.
"""

from __future__ import annotations

import csv
import importlib.util

from tests.helpers.cli_runner import Cli

NO_KEYS = None if importlib.util.find_spec("server.api_keys") is not None else \
    "the browser-key routes (server.api_keys, branch browser-keys) are not merged"


def _card(cli: Cli, kid: str, stem: str) -> str:
    cli("official", "card", kid, "--url", "http://venue.invalid/", "--out", f"{stem}.html",
        "--csv", f"{stem}.csv", "--key", "hj.pem")
    with open(cli.cwd / f"{stem}.csv", newline="") as f:
        return next(csv.DictReader(f))["url"].rsplit("/c/", 1)[1]
