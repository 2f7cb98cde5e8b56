"""A player's card on their phone (issue 19, first part): ``/c/TOKEN`` signs the phone in,
``/me`` goes to the holder's own page.

Owns: ``holder`` (a presented token → its live credential, a player's or a staff card:
``ledger.core.credentials``), ``Throttle`` (failed
attempts in the last minute per key: unknown card codes per address, at most ``GUESSES``
— a valid card is never refused by it, since many phones share an address behind a
venue's Wi-Fi or a proxy; refused reports and drops per player, at most ``REFUSALS``)
and the cookie's name and settings.  The token is kept only in an HttpOnly cookie on the
phone (``SameSite=Lax``: a link from a chat app still works; ``Secure`` when the page was
served over HTTPS); the server stores nothing, the log holds only its hash.  Reading pages
needs no card; reports, drops and the staff page do.

May import: ``ledger.*``, the standard library.
"""

from __future__ import annotations

import re
import time
from collections import OrderedDict

from ledger.core.credentials import credential_for_token
from ledger.core.reports_state import Credential
from ledger.core.state import TournamentState

COOKIE = "tourney_card"
MAX_AGE_S = 14 * 24 * 3600
GUESSES = 20                      # failed card sign-ins per address per minute
REFUSALS = 12                     # refused reports or drops per player per minute
TOKEN = re.compile(r"[0-9a-f]{32}")


def holder(state: TournamentState, token: str) -> Credential | None:
    """The live credential ``token`` stands for (a player's or a staff card), or None
    (unknown, revoked, malformed)."""
    if not TOKEN.fullmatch(token):
        return None
    cred = credential_for_token(state, token)
    if cred is None or cred.revoked_seq is not None:
        return None
    return cred


class Throttle:
    """Failed attempts per key in the last minute; bounded memory (oldest keys go)."""

    def __init__(self, limit: int = GUESSES, window_s: float = 60.0,
                 keys: int = 50_000) -> None:
        self.limit, self.window, self.keys = limit, window_s, keys
        self.seen: OrderedDict[str, list[float]] = OrderedDict()

    def blocked(self, key: str, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        hits = [t for t in self.seen.get(key, []) if now - t < self.window]
        if hits:
            self.seen[key] = hits
        else:
            self.seen.pop(key, None)
        return len(hits) >= self.limit

    def fail(self, key: str, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        self.seen.setdefault(key, []).append(now)
        self.seen.move_to_end(key)
        while len(self.seen) > self.keys:
            self.seen.popitem(last=False)
