"""Printable player cards (issue 19, ADR 0027): the page ``tourney player cards`` writes and
the CSV for mail-merge.

Owns: ``Card`` (one player's card: number, name, the URL carrying their token),
``card_url``, ``render_cards`` (an HTML page, several cards per A4/Letter sheet, each with
the event name, the player's name and number and a QR code of the URL, from the Jinja2
template ``projections/templates/cards.html`` with autoescaping on and print CSS) and
``cards_csv`` (number,name,url).  Tokens arrive here from the command that drew them;
nothing here stores or logs them.

May import: ``jinja2``, ``segno``, ``projections.site`` (its environment), the standard library.
"""

from __future__ import annotations

import csv
import gettext
import io
from dataclasses import dataclass
from pathlib import Path

TEMPLATES = Path(__file__).parent / "templates"


@dataclass(frozen=True)
class Card:
    number: int
    name: str
    url: str


def card_url(base: str, token: str) -> str:
    """``BASE/c/<token>`` (one slash between)."""
    return f"{base.rstrip('/')}/c/{token}"


def render_cards(event_name: str, cards: list[Card], *,
                 tr: gettext.NullTranslations | None = None, lang: str = "en",
                 dir_: str = "ltr") -> str:
    """The printable page of ``cards`` (in the order given), in the language of ``tr``
    (``lang``/``dir_`` on the page; English by default: ``--language``, issue 31)."""
    import segno

    from projections.site import sheet_environment

    # the site's environment (one translation path for every printed sheet)
    env = sheet_environment(tr, lang, dir_)
    views = [{"number": c.number, "name": c.name, "url": c.url,
              "qr": segno.make(c.url, error="m").svg_inline(scale=3, border=2)}
             for c in cards]
    return str(env.get_template("cards.html").render(event=event_name, cards=views))


def cards_csv(cards: list[Card]) -> str:
    """number,name,url — one row per card, for mail-merge."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["number", "name", "url"])
    for c in cards:
        w.writerow([c.number, c.name, c.url])
    return out.getvalue()
