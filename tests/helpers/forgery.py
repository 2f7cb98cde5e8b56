"""Rewriting a ledger's history with a stolen key: the forgeries of THREATS.md.

Owns: ``chained_next`` (a next leaf that chains and is signed), ``resign_from`` (history
rewritten and re-signed from a seq on), ``Image``/``_replace_rows`` (a ledger's rows
replaced wholesale), ``note_for`` (a checkpoint note for an image), ``_bundle``.

May import: ``ledger.*``, ``audit.*``, ``tests.conftest``, ``tests.helpers.*``, the
standard library.
"""

from __future__ import annotations

import base64
import hashlib
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from ledger.proofs.checkpoint import Checkpoint, sign_checkpoint
from ledger.proofs.checkpoint_store import (
    origin_of,
)
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.events import SIG_DOMAIN, seal
from ledger.wire.keys import Signer
from tests.conftest import HJ, JUDGE, SCOREKEEPER, STRANGER

SIGNERS = {s.key_id: s for s in (HJ, JUDGE, SCOREKEEPER, STRANGER)}


@dataclass
class Image:
    """What an attacker with write access controls: the rows and the note files."""

    log: str
    rows: list[tuple[int, bytes]]
    notes: dict[str, bytes] = field(default_factory=dict)


def _kind(leaf: bytes, version: int) -> str:
    try:
        return str(msgspec.json.decode(leaf)["event"]["kind"])
    except Exception:  # noqa: BLE001 - a mangled row still needs a topic
        return "tournament_created" if version == 1 else "unknown"


def _replace_rows(loc: Location, image: Image) -> None:
    """Write the image's rows as the stored rows of the tournament, with plain SQL."""
    if loc.is_postgres:
        from tests.helpers.checks import table_names
        with Ledger(loc) as led:
            events, snapshots = table_names(led)
            rec: Any = led.app.recorder
            with rec.datastore.transaction(commit=True) as curs:
                curs.execute(f"DELETE FROM {events} WHERE originator_id = %s", (image.log,))
                curs.execute(f"DELETE FROM {snapshots} WHERE originator_id = %s",
                             (image.log,))
                for v, leaf in image.rows:
                    curs.execute(f"INSERT INTO {events} (originator_id, originator_version, "
                                 "topic, state) VALUES (%s, %s, %s, %s)",
                                 (image.log, v, _kind(leaf, v), leaf))
                # the attacker rewrites the ledger's own checkpoint table too (issue 7):
                # the image's notes are what the ledger then holds
                curs.execute("SELECT to_regclass('tourney_checkpoints') IS NOT NULL AS t")
                if curs.fetchone()["t"]:
                    curs.execute("DELETE FROM tourney_checkpoints WHERE log = %s",
                                 (image.log,))
        return
    with sqlite3.connect(loc.text) as db:
        db.execute("DELETE FROM stored_events WHERE originator_id=?", (image.log,))
        db.execute("DELETE FROM stored_snapshots WHERE originator_id=?", (image.log,))
        db.executemany("INSERT INTO stored_events VALUES (?,?,?,?)",
                       [(image.log, v, _kind(leaf, v), leaf) for v, leaf in image.rows])
        # the attacker rewrites the ledger's own checkpoint table too (issue 7): the
        # image's notes (written as files by ``World.audit``) are what the ledger holds
        if db.execute("SELECT 1 FROM sqlite_master WHERE name='tourney_checkpoints'").fetchone():
            db.execute("DELETE FROM tourney_checkpoints WHERE log=?", (image.log,))


def chained_next(rows: list[tuple[int, bytes]], body: Any, signer: Signer, log: str,
                 *, time: str = "2013-06-01T09:00:30.000000Z") -> tuple[int, bytes]:
    """A correctly chained, correctly signed next event (that the rules may refuse)."""
    v, last = rows[-1]
    ev = seal(log=log, seq=v + 1, prev=hashlib.sha256(last).hexdigest(), time=time,
              body=body, signer=signer)
    return v + 1, ev.leaf


def resign_from(rows: list[tuple[int, bytes]], version: int,
                edit: Callable[[dict[str, Any]], dict[str, Any]],
                signers: dict[str, Signer] | None = None) -> list[tuple[int, bytes]]:
    """The insider's rewrite: edit the body at ``version``, then re-sign that event and
    every later one with the same (legitimate) keys so the chain is whole again."""
    keys = signers or SIGNERS
    out = list(rows[:version - 1])
    prev = hashlib.sha256(out[-1][1]).hexdigest() if out else "0" * 64
    for v, leaf in rows[version - 1:]:
        doc = msgspec.json.decode(leaf)
        ev = doc["event"]
        body = edit(ev["body"]) if v == version else ev["body"]
        ev = {**ev, "prev": prev, "body": body}
        ev_bytes = msgspec.json.encode(ev, order="sorted")
        sig = keys[ev["actor"]].sign(SIG_DOMAIN + ev_bytes)
        new = msgspec.json.encode({"event": ev, "sig": base64.b64encode(sig).decode()},
                                  order="sorted")
        out.append((v, new))
        prev = hashlib.sha256(new).hexdigest()
    return out


def note_for(rows: list[tuple[int, bytes]], log: str, signer: Signer = HJ,
             size: int | None = None) -> bytes:
    from ledger.proofs.merkle import leaf_hash, root_from_hashes
    n = len(rows) if size is None else size
    cp = Checkpoint(origin_of(log), n, root_from_hashes([leaf_hash(x) for _v, x in rows[:n]]))
    return sign_checkpoint(cp, cp.origin, signer.private_key)


def _bundle(d: Path, rows: list[tuple[int, bytes]], notes: dict[str, bytes] | None = None
            ) -> Path:
    (d / "checkpoints").mkdir(parents=True)
    (d / "log.jsonl").write_bytes(b"".join(leaf + b"\n" for _v, leaf in rows))
    for name, note in (notes or {}).items():
        (d / "checkpoints" / name).write_bytes(note)
    return d
