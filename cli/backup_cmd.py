"""``tourney backup FILE``: a consistent copy of a live SQLite ledger (issue 32).

Owns: the command — which ledger (a PostgreSQL ledger is refused, pointing to
``pg_dump``), the options, and what it prints.  The copy itself is
``ledger.storage.sqlite_backup`` (the SQLite online backup API).

May import: ``typer``, ``cli.common``, ``ledger.*``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cli.common import JsonOpt, Session
from ledger.errors import UsageError


def backup(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(metavar="FILE", show_default=False,
                                         help="The copy to write (a new file).")],
    force: Annotated[bool, typer.Option(
        "--force", help="Replace FILE if it exists.")] = False,
    json: JsonOpt = False,
) -> None:
    """Copy the SQLite ledger to FILE while the desk keeps writing: the ledger as it
    was at one commit, checked, written to a temporary file and moved into place.

    Use this, not cp: a ledger in WAL mode keeps its newest events in <ledger>-wal, so a
    cp of the .db file alone misses them (and one taken mid-checkpoint can be torn). The
    copy carries the stored checkpoints and audits on its own (tourney --ledger FILE
    audit verify). A PostgreSQL ledger is backed up with pg_dump (docs/OPERATIONS.md).
    Exit codes: 2 for an existing FILE (without --force) or a PostgreSQL ledger, 5 for
    a ledger that cannot be read or a copy that cannot be written; nothing is written.

    Example: tourney --ledger spring.db backup backups/spring-1130.db
    """
    s = Session(ctx, json=json)
    location = s.location
    if location.is_postgres:
        raise UsageError(f"tourney backup copies a SQLite ledger; {location.display()} is "
                         "PostgreSQL",
                         hint="back it up with pg_dump: docs/OPERATIONS.md, section 5")
    from ledger.storage.sqlite_backup import backup_sqlite

    info = backup_sqlite(location.path, file, force=force)
    total = sum(info.events.values())
    s.emit({"ok": True, "ledger": str(location.path), "file": str(info.file),
            "bytes": info.bytes, "events": info.events},
           [f"backed up {location.path} to {info.file}: {total} events"
            + "".join(f"; {log}: {n}" for log, n in info.events.items())
            + f" ({info.bytes} bytes)",
            f"check it with: tourney --ledger {info.file} audit verify"])
