"""Rows of a PostgreSQL ledger read and inserted as a station would (the station role's tests).

May import: ``tests.helpers.*``, the standard library.
"""

from __future__ import annotations


def _head(url: str, log: str) -> tuple[int, bytes]:
    import psycopg
    with psycopg.connect(url) as con:
        row = con.execute("SELECT originator_version, state FROM tourney_events WHERE "
                          "originator_id = %s ORDER BY originator_version DESC LIMIT 1",
                          (log,)).fetchone()
    assert row is not None
    return int(row[0]), bytes(row[1])


def _log_id(url: str) -> str:
    import psycopg
    with psycopg.connect(url) as con:
        row = con.execute("SELECT originator_id FROM tourney_events WHERE "
                          "originator_version = 1").fetchone()
    assert row is not None
    return str(row[0])


def _insert(url: str, log: str, version: int, topic: str, state: bytes) -> str | None:
    """Insert one row as the role of ``url``; the database's refusal, or None."""
    import psycopg
    try:
        with psycopg.connect(url) as con:
            con.execute("INSERT INTO tourney_events (originator_id, originator_version, "
                        "topic, state) VALUES (%s, %s, %s, %s)", (log, version, topic, state))
    except psycopg.Error as exc:
        return str(exc).splitlines()[0]
    return None
