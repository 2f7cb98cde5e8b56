"""Voiding a round through the aggregate (the corrections tests and the randomness tests).

May import: ``ledger.*``, ``tests.conftest``, ``tests.helpers.*``.
"""

from __future__ import annotations

from typing import Any

from ledger.formats.officiating.correction_commands import void_pairing
from tests.conftest import HJ
from tests.helpers.officiating import LOG


def void(led: Any, signer: Any = HJ, reason: str = "wrong player list posted") -> Any:
    return led.write(LOG, lambda t, now: void_pairing(t, signer, now, reason=reason))
