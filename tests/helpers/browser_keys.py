"""The console's browser-held keys in a test (issue 29 item 2): whether this build has
their routes, and a staff card for a bound key.

Owns: ``NO_KEYS`` (why the browser-key tests cannot run, or None), ``_card`` (the
card token of official ``kid``, printed by the real CLI) and ``bind_browser_scorekeeper``
(a key made on ``/desk/keys`` in a real browser page, bound by the head judge as
scorekeeper "Sam", and the page signed in with Sam's card on the console).

May import: ``tests.helpers.cli_runner``, ``ledger.wire.keys``, the standard library.
"""

from __future__ import annotations

import base64
import csv
import importlib.util
import time
from typing import Any

from ledger.wire.keys import key_id
from tests.helpers.cli_runner import Cli

NO_KEYS = None if importlib.util.find_spec("server.api_keys") is not None else \
    "the browser-key routes (server.api_keys, branch browser-keys) are not merged"


def _card(cli: Cli, kid: str, stem: str) -> str:
    cli("official", "card", kid, "--url", "http://venue.invalid/", "--out", f"{stem}.html",
        "--csv", f"{stem}.csv", "--key", "hj.pem")
    with open(cli.cwd / f"{stem}.csv", newline="") as f:
        return next(csv.DictReader(f))["url"].rsplit("/c/", 1)[1]


def bind_browser_scorekeeper(page: Any, base: str, cli: Cli) -> tuple[str, str]:
    """Make a key in ``page``'s browser on ``base``'s key page, have the head judge
    (``hj.pem``) bind it as scorekeeper "Sam", and sign the page in with Sam's card once
    the server has followed the log to the binding; returns the key's id and the card's
    token."""
    page.goto(base + "/desk/keys")
    page.click("#make-key")
    page.wait_for_selector("#public-key:not(:empty)")
    pub = page.inner_text("#public-key").strip()
    kid = str(page.inner_text("#key-id").strip())
    assert kid == key_id(base64.b64decode(pub))
    cli("official", "bind", "--role", "scorekeeper", "--name", "Sam", "--public-key",
        pub, "--key", "hj.pem")
    token = _card(cli, kid, "sam")
    end = time.monotonic() + 30          # the server follows the log
    while True:
        page.goto(base + f"/c/{token}")
        if page.url.endswith("/desk") or time.monotonic() > end:
            break
        time.sleep(0.3)
    assert page.url.endswith("/desk"), page.url
    return kid, token
