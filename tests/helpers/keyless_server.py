"""A live server that holds no private key, for the browser-key tests: the app of
``server.app`` (no station, no ``--staff-key``) with a command runner in its own process
(``tests.helpers.inproc_runner``), served by uvicorn on loopback.  Run as a process, so a
test can look at what it holds (its arguments, its open files).

Usage: python tests/helpers/keyless_server.py LEDGER PORT WORKDIR
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import uvicorn  # noqa: E402

import ledger.formats.registry  # noqa: E402,F401  (plugs the formats into the core)
from ledger.storage.location import Location  # noqa: E402
from server.app import Hub, create_app  # noqa: E402
from tests.helpers.inproc_runner import InProcessRunner  # noqa: E402


def main() -> None:
    ledger, port, cwd = sys.argv[1], int(sys.argv[2]), Path(sys.argv[3])
    hub = Hub(Location(ledger), None)
    app = create_app(hub)
    app.state.runner = InProcessRunner(Path(ledger), cwd, dict(os.environ))
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on",
                timeout_graceful_shutdown=2)


if __name__ == "__main__":
    main()
