"""Where a ledger lives: a SQLite file path or a PostgreSQL URL.

Owns: ``Location`` (which backend, the library's environment for it, how it is shown:
a URL never shows its password), ``location_from`` (``--ledger``, else
``TOURNEY_LEDGER``, else ``./tournament.db``) and ``sqlite_lock_timeout`` (the seconds a
command waits for another process's lock on a SQLite ledger: 30, or
``TOURNEY_SQLITE_LOCK_TIMEOUT``).

May import: the standard library.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

LEDGER_ENV = "TOURNEY_LEDGER"
DEFAULT_LEDGER = "tournament.db"
LOCK_TIMEOUT_ENV = "TOURNEY_SQLITE_LOCK_TIMEOUT"
DEFAULT_LOCK_TIMEOUT_S = 30


def sqlite_lock_timeout() -> int:
    """The seconds a command waits for another process's lock on a SQLite ledger before
    it exits 5 (nothing written): ``TOURNEY_SQLITE_LOCK_TIMEOUT`` when it is a whole
    number of at least 1, else 30 (as ``PGCONNECT_TIMEOUT`` for PostgreSQL)."""
    text = os.environ.get(LOCK_TIMEOUT_ENV, "").strip()
    if text.isdigit() and int(text) >= 1:
        return int(text)
    return DEFAULT_LOCK_TIMEOUT_S


@dataclass(frozen=True)
class Location:
    """Where a ledger lives: a SQLite file path or a PostgreSQL URL."""

    text: str

    @property
    def is_postgres(self) -> bool:
        return self.text.startswith(("postgresql://", "postgres://"))

    @property
    def path(self) -> Path:
        return Path(self.text)

    def exists(self) -> bool:
        return True if self.is_postgres else self.path.is_file()

    def env(self, *, connections: int = 2) -> dict[str, str]:
        """The library's settings.  PostgreSQL: ``connections`` opened at once (a write
        holds its writer turn on one and works on another; a read needs one), more only
        on demand — each costs a server backend and a round trip (issue 22 item 8)."""
        if not self.is_postgres:
            return {"PERSISTENCE_MODULE": "eventsourcing.sqlite",
                    "SQLITE_DBNAME": str(self.path),
                    "SQLITE_LOCK_TIMEOUT": str(sqlite_lock_timeout()),
                    "ORIGINATOR_ID_TYPE": "text"}
        from urllib.parse import unquote, urlparse

        url = urlparse(self.text)
        return {"PERSISTENCE_MODULE": "eventsourcing.postgres",
                "POSTGRES_DBNAME": (url.path or "/postgres").lstrip("/") or "postgres",
                "POSTGRES_HOST": url.hostname or "127.0.0.1",
                "POSTGRES_PORT": str(url.port or 5432),
                "POSTGRES_USER": unquote(url.username or "postgres"),
                "POSTGRES_PASSWORD": unquote(url.password or ""),
                "POSTGRES_CONNECT_TIMEOUT": "5",
                "POSTGRES_POOL_SIZE": str(connections),
                "ORIGINATOR_ID_TYPE": "text"}

    def display(self) -> str:
        if self.is_postgres:
            from urllib.parse import urlparse

            url = urlparse(self.text)
            return f"postgresql://{url.hostname}:{url.port or 5432}{url.path}"
        return str(self.path)


def location_from(text: str | None) -> Location:
    return Location(text or os.environ.get(LEDGER_ENV) or DEFAULT_LEDGER)
