"""The ASGI application of ``tourney serve`` (issue 18): Starlette over one followed ledger.

Owns: ``create_app`` — the application: its state (``app.state.hub``, ``station``,
``gate``, ``qr_page``, ``throttle``, ``runner``, ``api_throttle``: what the module-level
endpoints read), its routes (the API's commands, ``server.api_commands``; the public
pages, ``server.site_routes``; with a station, the players' reports, their
receipts and the staff page: ``server.report_routes``, ``server.receipts``,
``server.staff_routes``; with a station or a runner, the staff console:
``server.desk_routes``; browser-signed commands and the console's key page:
``server.api_keys``, through ``app.state.runner`` when one is set; the console's
refusals in its language: ``server.desk_say``), its exception
handlers (every failure a plain page, never a trace: ``server.errors``) and its lifespan
(the hub's follower and nudges started and stopped with the app).  ``Hub`` and
``spread_ms`` are ``server.hub``'s, named here too for the callers that build an app.
The HTTP API's reads (``server.api_reads``) are served beside the public pages, with or
without a station.

May import: ``starlette``, ``server.*``, ``ledger.*``, ``usecases.command_specs``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import BaseRoute

from server import (
    api_commands,
    api_keys,
    api_reads,
    call_routes,
    deck_routes,
    desk_routes,
    desk_say,
    receipts,
    report_routes,
    site_routes,
    staff_routes,
)
from server.cards import Throttle
from server.errors import HANDLERS
from server.hub import Hub, spread_ms
from server.i18n import KeepChoice
from server.limits import Gate
from server.station import Station
from usecases.command_specs import CommandRunner

__all__ = ["Hub", "create_app", "spread_ms"]


@asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    """The hub follows the ledger and nudges the phones while the app serves; the station
    (if any) and the hub are closed when it stops."""
    hub: Hub = app.state.hub
    station: Station | None = app.state.station
    hub.start(asyncio.get_running_loop())
    task = asyncio.create_task(hub.broadcast())
    try:
        yield
    finally:
        task.cancel()
        if station is not None:
            station.close()
        close = getattr(app.state.runner, "close", None)
        if close is not None:
            close()
        hub.close()


def create_app(hub: Hub, *, qr_page: bytes | None = None,
               station: Station | None = None, gate: Gate | None = None,
               runner: CommandRunner | None = None) -> Starlette:
    """The application over ``hub`` (started and stopped with the app's lifespan); with
    ``station``, players report their results (``server.report_routes``); ``gate``
    bounds the live-update streams (``server.limits``); ``runner`` runs the API's
    commands (``server.api_commands``; ``tourney serve`` builds it from the CLI)."""
    # the browser-signed variants first: POST /api/v1/{path} would take …/prepare too
    routes: list[BaseRoute] = [*api_keys.routes, *api_reads.routes, *api_commands.routes,
                               *site_routes.routes]
    if station is not None:
        station.check_role(hub.follower.state)
        routes += report_routes.routes + receipts.routes + staff_routes.routes \
            + call_routes.routes + deck_routes.routes
    if station is not None or runner is not None:
        # the console: signs with held or browser keys; /desk/say: its refusals' words
        routes += desk_routes.routes + desk_say.routes
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers=HANDLERS,
                    middleware=[Middleware(KeepChoice)])   # ?lang= kept in a cookie
    app.state.hub = hub
    app.state.station = station
    app.state.gate = gate or Gate()
    app.state.qr_page = qr_page
    app.state.throttle = Throttle()
    app.state.call_taps = Throttle(call_routes.TAPS)
    app.state.runner = runner
    app.state.api_throttle = Throttle(api_commands.BAD_TOKENS)
    app.state.browser_keys = api_keys.browser_keys(app.state)
    app.state.api_paths = {**api_keys.OPENAPI_PATHS,
                           **(getattr(app.state, "api_paths", None) or {})}
    return app
