"""``tourney official``: add, revoke and list officials (docs/DESIGN.md §5, RULES.md §1.3).

Owns: the mapping of the command-line role names (``head-judge`` …) to ``Role`` and the
four commands (``bind``: a browser's key, ``usecases.official_keys``).  Authority checks are the ledger's (``ledger.core.rules``), never repeated here.

May import: ``typer``, ``cli.common``, ``ledger.*``.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from cli.common import JsonOpt, KeyOpt, Session, is_hex, write_result
from ledger.errors import UsageError
from ledger.wire.events import Role

app = typer.Typer(no_args_is_help=True, help=(
    "Officials: judges, scorekeepers, time-keepers and head judges (signed by the organizer).\n\n"
    "Example: tourney official add --role scorekeeper --name Bob --public-key sk.pem.pub "
    "--key hj.pem"))


class RoleName(str, Enum):
    judge = "judge"
    scorekeeper = "scorekeeper"
    head_judge = "head-judge"
    witness = "witness"
    time_keeper = "time-keeper"
    station = "station"   # the live server's key: signs players' reports only (ADR 0027)


ROLES = {RoleName.judge: Role.JUDGE, RoleName.scorekeeper: Role.SCOREKEEPER,
         RoleName.head_judge: Role.HEAD_JUDGE, RoleName.witness: Role.WITNESS,
         RoleName.time_keeper: Role.TIME_KEEPER, RoleName.station: Role.STATION}


@app.command("add")
def official_add(
    ctx: typer.Context,
    role: Annotated[RoleName, typer.Option("--role", help="The official's role.")],
    name: Annotated[str, typer.Option("--name", help="The official's name (display).")],
    public_key: Annotated[Path, typer.Option("--public-key", metavar="FILE.pub",
                                             help="Their public key file.")],
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Add an official with a role; signed by the organizer (genesis) key.

    A witness (an independent party: a second judge, the organizer, a player
    representative) signs no event; it cosigns checkpoints with 'tourney witness cosign'.

    Example: tourney official add --role judge --name "Carol" --public-key carol.pem.pub --key hj.pem
    """
    from ledger.wire.keys import load_public_key

    s = Session(ctx, key=key, json=json)
    pub = load_public_key(public_key)
    signer = s.signer()
    with s.ledger() as led:
        log = s.tournament(led)
        ev = led.write(log, lambda t, time: t.add_official(pub, ROLES[role], name.strip(),
                                                           signer, time))
    s.emit(write_result(ev, key_id=pub.key_id, role=ROLES[role].value),
           f"seq {ev.seq}: added {role.value} {name.strip()} (key {pub.key_id})")


@app.command("bind")
def official_bind(
    ctx: typer.Context,
    role: Annotated[RoleName, typer.Option("--role", help="The official's role.")],
    name: Annotated[str, typer.Option("--name", help="The official's name (display).")],
    public_key: Annotated[str, typer.Option(
        "--public-key", metavar="B64",
        help="The public key the official's console shows (base64 of 32 bytes).")],
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Bind a key made in the official's browser (the console, /desk) as that official.

    The key never leaves their browser: the console shows its public key, the head judge
    binds it here, and from then on the official signs in the browser (docs/LIVE.md).
    The event is the same official_added as 'official add'.

    Example: tourney official bind --role scorekeeper --name Sam --public-key Zm9v…= --key hj.pem
    """
    from usecases.official_keys import bind_official, browser_public_key

    s = Session(ctx, key=key, json=json)
    pub = browser_public_key(public_key, name)     # refused before the key is read
    signer = s.signer()
    with s.ledger() as led:
        log = s.tournament(led)
        ev = led.write(log, lambda t, time: bind_official(t, public_key, ROLES[role], name,
                                                          signer, time))
    s.emit(write_result(ev, key_id=pub.key_id, role=ROLES[role].value),
           f"seq {ev.seq}: bound {role.value} {pub.name}'s browser key (key {pub.key_id})")


@app.command("revoke")
def official_revoke(
    ctx: typer.Context,
    key_id: Annotated[str, typer.Argument(metavar="KEY_ID",
                                          help="Key id (16 hex digits) to revoke.")],
    reason: Annotated[str, typer.Option("--reason", metavar="TEXT",
                                        help="Why (recorded in the event).")] = "",
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Revoke an official's key from now on (earlier events stay valid).

    Example: tourney official revoke 3f2a9c01d4e5b6a7 --reason "lost laptop" --key hj.pem
    """
    s = Session(ctx, key=key, json=json)
    kid = key_id.strip().lower()
    if not is_hex(kid, 16):
        raise UsageError(f"{key_id!r} is not a key id (16 hex digits)",
                         hint="see 'tourney official list'")
    signer = s.signer()
    with s.ledger() as led:
        log = s.tournament(led)
        ev = led.write(log, lambda t, time: t.revoke_official(kid, reason, signer, time))
    s.emit(write_result(ev, key_id=kid), f"seq {ev.seq}: revoked key {kid}")


@app.command("list")
def official_list(ctx: typer.Context, json: JsonOpt = False) -> None:
    """List officials: key id, name, roles, seq added, seq revoked.

    Example: tourney official list --json
    """
    s = Session(ctx, json=json)
    with s.ledger(readonly=True) as led:
        log = s.tournament(led)
        st = led.load(log).state
    rows = sorted(st.officials.values(), key=lambda o: o.added_seq)
    data = {"tournament": log, "officials": [
        {"key_id": o.key_id, "name": o.name, "roles": [r.value for r in o.roles],
         "added_seq": o.added_seq, "revoked_seq": o.revoked_seq} for o in rows]}
    lines = [f"{'KEY ID':<16}  {'ADDED':>5}  {'REVOKED':>7}  {'ROLES':<22}  NAME"]
    for o in rows:
        roles = ",".join(r.value for r in o.roles)
        revoked = "-" if o.revoked_seq is None else str(o.revoked_seq)
        lines.append(f"{o.key_id:<16}  {o.added_seq:>5}  {revoked:>7}  {roles:<22}  {o.name}")
    s.emit(data, lines)
