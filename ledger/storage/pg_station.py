"""PostgreSQL stations: bounded lock waits, and the name of the station that holds the lock
(issue 21, item 11).

Owns: ``station_env`` (the library settings every PostgreSQL session of tourney runs with:
a lock wait bounded per attempt by ``LOCK_TRY_S`` (about 12 s in all); a server-side
end to a session left idle inside its transaction, e.g. a suspended laptop; and an
application name ``tourney@<host>`` unless ``PGAPPNAME`` names the station already),
``is_lock_timeout`` and ``lock_wait_error``: the one-line storage error (exit 5) naming the
session that holds the event table's lock (its role, application name, address, process
id and for how long), read from ``pg_locks`` and ``pg_stat_activity``; ``recovery_hint``:
what to do about a bad row (issue 21, item 10).

May import: ``ledger.errors``, ``ledger.storage.pg_reach``, ``ledger.storage.storage_handle``
(types only), the standard library
(``psycopg`` through the library's datastore).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from ledger.errors import StorageError
from ledger.storage import pg_reach

if TYPE_CHECKING:
    from ledger.storage.storage_handle import LedgerHandle

LOCK_TRY_S = 1  # one attempt's wait for the event table's lock; the event store makes
# up to 10 attempts, so a write gives up after about 12 s
IDLE_IN_COMMIT_S = 5  # the server ends a session idle this long inside its transaction
EVENTS_TABLE = "tourney_events"


def station_env(env: dict[str, str]) -> dict[str, str]:
    """``env`` (the library's PostgreSQL settings) with bounded waits and a station name."""
    import socket  # PostgreSQL only: a SQLite write does not import it (issue 22)

    os.environ.setdefault("PGAPPNAME", f"tourney@{socket.gethostname()}"[:63])
    # every connection attempt of the library's pool is bounded too (libpq reads it;
    # without it an attempt at a server that never answers has no limit: issue 32)
    os.environ.setdefault("PGCONNECT_TIMEOUT", str(pg_reach.connect_timeout()))
    return {**env, "POSTGRES_LOCK_TIMEOUT": str(LOCK_TRY_S),
            "POSTGRES_IDLE_IN_TRANSACTION_SESSION_TIMEOUT": str(IDLE_IN_COMMIT_S)}


def is_lock_timeout(exc: BaseException) -> bool:
    seen: BaseException | None = exc
    while seen is not None:
        if "lock timeout" in str(seen) or type(seen).__name__ == "LockNotAvailable":
            return True
        seen = seen.__cause__ or seen.__context__
    return False


_HOLDERS = """
SELECT a.pid, a.usename, a.application_name, host(a.client_addr) AS addr,
       coalesce(extract(epoch FROM now() - a.xact_start)::bigint, -1) AS secs, a.state
FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
WHERE l.locktype = 'relation' AND l.granted AND l.relation = to_regclass(%s)
  AND l.mode IN ('ExclusiveLock', 'ShareRowExclusiveLock', 'AccessExclusiveLock')
  AND l.pid <> pg_backend_pid()
ORDER BY a.xact_start NULLS LAST
"""


def holders(ledger: LedgerHandle) -> list[str]:
    """Who holds the event table's write lock now, one description per session."""
    rec: Any = ledger.app.recorder
    schema = rec.datastore.schema or "public"
    try:
        with rec.datastore.transaction(commit=False) as curs:
            curs.execute(_HOLDERS, (f'"{schema}"."{EVENTS_TABLE}"',))
            rows = list(curs.fetchall())
    except Exception:  # noqa: BLE001 - naming the holder is best effort; the error stands
        return []
    out = []
    for r in rows:
        name = r["application_name"] or "a session without an application name"
        where = f" from {r['addr']}" if r["addr"] else ""
        since = f", in its transaction for {r['secs']} s" if r["secs"] >= 0 else ""
        out.append(f"{name} (role {r['usename']}{where}, pid {r['pid']}{since})")
    return out


def lock_wait_error(ledger: LedgerHandle, log: str, waited: float) -> StorageError:
    """The error of a write that waited ``waited`` seconds for the event table's lock."""
    who = holders(ledger)
    held = f"held by {'; '.join(who)}" if who else "held by another session"
    return StorageError(
        f"cannot write to {log}: waited {waited:.0f} s for the ledger's write lock, "
        f"{held}; nothing was written",
        hint="run the command again; if that station is frozen or offline, the server "
             "drops its session (see docs/OPERATIONS.md, 'A station freezes')")


def recovery_hint(log: str, seq: int) -> str:
    """What to do about a bad row at ``seq`` (docs/OPERATIONS.md, 'A bad row')."""
    return (f"run 'tourney audit verify'; if a station wrote a bad row, the PostgreSQL owner "
            f"withdraws it: SELECT tourney_withdraw('{log}', {seq}, 'reason') "
            "(docs/OPERATIONS.md, 'A bad row'); a SQLite file is restored from a copy")
