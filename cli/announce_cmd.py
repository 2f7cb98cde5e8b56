"""``tourney announce``: the head judge's announcements to the hall (issue 30 item 5), each a
signed ``announcement_made`` shown on the hall screen ``/screen`` until withdrawn.

Owns: option shapes and output; the rule (PAGES-6) is the ledger's (``ledger.core.rules``).

May import: ``typer``, ``cli.common``, ``ledger.*``.
"""

from __future__ import annotations

from typing import Annotated

import typer

from cli.common import JsonOpt, KeyOpt, Session, write_result
from ledger.errors import UsageError


def announce(
    ctx: typer.Context,
    text: Annotated[str, typer.Argument(metavar="TEXT", show_default=False, help=(
        "One line, at most 160 characters (empty with --withdraw)."))] = "",
    withdraw: Annotated[int | None, typer.Option("--withdraw", metavar="SEQ", min=1,
                                                 show_default=False, help=(
        "Take down the announcement recorded at SEQ (TEXT, if given, replaces it)."))
    ] = None,
    key: KeyOpt = None, json: JsonOpt = False,
) -> None:
    """Show an announcement on the hall screen, or take one down (head judge).

    Example: tourney announce "Round 3 starts at 14:30; deck checks at tables 4 and 9" --key hj.pem
    """
    from ledger.wire.pages import AnnouncementMade

    s = Session(ctx, key=key, json=json)
    if not text.strip() and withdraw is None:
        raise UsageError("give the announcement's TEXT, or --withdraw SEQ",
                         hint='e.g. tourney announce "Lunch until 13:00" --key hj.pem')
    signer = s.signer()
    body = AnnouncementMade(text=text.strip(), withdraws=withdraw)
    with s.ledger() as led:
        log = s.tournament(led)
        ev, agg = led.write(log, lambda t, time: (t.record(body, signer, time), t))
    on_show = dict(sorted(agg.state.pages.notes.items()))
    s.emit(write_result(ev, on_show={str(k): v for k, v in on_show.items()}),
           [f"seq {ev.seq}: " + (f"announced: {body.text}" if body.text else
                                 f"announcement seq {withdraw} withdrawn"),
            f"{len(on_show)} announcement(s) on show"])
