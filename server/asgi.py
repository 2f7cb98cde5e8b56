"""The application as an import string, for ASGI servers that import their app
(``tourney serve --server granian``): ``server.asgi:app`` is a factory reading the
ledger, tournament and address from the environment ``cli.serve_cmd`` sets.

Owns: ``app`` (the factory) and the names of those variables.

May import: ``starlette``, ``server.app``, ``server.qr``, ``ledger.*`` (never ``cli``:
the CLI imports the server, not the reverse).
"""

from __future__ import annotations

import os

from starlette.applications import Starlette

LEDGER = "TOURNEY_SERVE_LEDGER"
TOURNAMENT = "TOURNEY_SERVE_TOURNAMENT"
URL = "TOURNEY_SERVE_URL"


def app() -> Starlette:
    import ledger.formats.registry  # noqa: F401  (plugs the formats into the core)
    from ledger.storage.location import Location
    from server.app import Hub, create_app
    from server.qr import qr_page

    hub = Hub(Location(os.environ[LEDGER]), os.environ.get(TOURNAMENT) or None,
              url=os.environ.get(URL, ""))
    return create_app(hub, qr_page=qr_page(hub.data.name, hub.url))
