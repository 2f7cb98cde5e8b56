"""``tourney standings``: the ranked standings as a table, JSON, CSV or one HTML page.

Owns: the choice of output and the generic printed table (columns as the format declares
them, ``ledger.standings_view``, aligned by display width with ``cli.text``).  The rows,
ranks and arithmetic are the format's (``FormatPlugin.standings``), never recomputed here;
mid-round the standings are as of the last completed round and say so
(``projections.standings_doc.settled_view``).  Names no format.

May import: ``typer``, ``cli.common``, ``cli.text``, ``projections.*``, ``ledger.*``.
"""

from __future__ import annotations

import csv
import io
import sys
from typing import Annotated

import typer

from cli.common import JsonOpt, Session
from cli.sheet_language import LanguageOpt, sheet_language
from cli.text import ljust, rjust, width
from ledger.errors import UsageError
from ledger.standings_view import Align, Column, Show, StandingsView, Value

#: the widest a name cell gets in the printed table (longer names end in "…")
NAME_WIDTH = 24


def standings(
    ctx: typer.Context,
    csv_out: Annotated[bool, typer.Option("--csv", help="Print CSV (header first).")]
        = False,
    html: Annotated[bool, typer.Option(
        "--html", help="Print one self-contained HTML page (phone and print CSS).")] = False,
    language: LanguageOpt = "en",
    json: JsonOpt = False,
) -> None:
    """Show the standings (table, --json, --csv or --html for the desk printer).

    The columns are the format's: its sort key first after RANK # NAME, then its
    tiebreakers as percentages truncated to two decimals (JSON keeps the exact fraction:
    "figures": {"omw": {"exact": "191/400", "display": "47.75%"}}).  While a round is in
    progress the standings are as of the last completed round, and say so.  A disqualified
    player whose standing was revoked is listed last, unranked, with the prize policy.

    Example: tourney standings --html > standings.html
    """
    from projections.standings_doc import settled_view

    s = Session(ctx, json=json)
    if sum((csv_out, s.json, html)) > 1:
        raise UsageError("--csv, --json and --html are different outputs", hint="pick one")
    sheet = sheet_language(language)
    if language != "en" and not html:
        raise UsageError("--language is the printed sheet's", hint="add --html")
    if html:
        with s.ledger(readonly=True) as led:
            log = s.tournament(led)
            st = led.load(log).state
            view = settled_view(led, log, st)
            from projections.checkable import checkable_of

            cp = checkable_of(st, led)   # the sheet carries the line phones show (issue 18)
        from projections.site import standings_page

        sys.stdout.write(standings_page(st, view, st.size, cp, tr=sheet.translations,
                                        lang=sheet.code, dir_=sheet.dir,
                                        fw=sheet.words(st)))
        sys.stdout.flush()
        return
    with s.reader() as src:   # the state and raw leaves only (issue 22)
        log = s.tournament(src)
        st = src.load_state(log)
        view = settled_view(src, log, st)
    if csv_out:
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerows(view.csv_rows())
        sys.stdout.write(buf.getvalue())
        sys.stdout.flush()
        return
    if s.json:
        s.emit({"tournament": log, "format": st.format.id if st.format else None,
                **view.json()})
        return
    s.emit(None, table_lines(log, view))


_FRACTION_SHOWS = (Show.PERCENT, Show.DECIMAL)


def _fraction_texts(column: Column, values: list[Value]) -> list[str]:
    """``column.text`` of each value, once per distinct value object: a view's rows share
    their fraction objects (a field has few distinct tiebreaker values; issue 22), and
    the values stay alive in ``values`` while the memo is keyed by their identity."""
    memo: dict[int, str] = {}
    out = []
    for v in values:
        t = memo.get(id(v))
        if t is None:
            t = memo[id(v)] = column.text(v)
        out.append(t)
    return out


def table_lines(log: str, view: StandingsView) -> list[str]:
    """The printed table: heading, header, one line per row, notes (wide characters
    aligned by display width, ``cli.text``)."""
    # column by column: one text, width and padding pass per column (issue 22)
    padded: list[list[str]] = []
    for c in view.columns:
        key, text = c.key, c.text
        if c.show in _FRACTION_SHOWS:
            texts = [c.header, *_fraction_texts(c, [r.values.get(key) for r in view.rows])]
        else:
            values = [r.values.get(key) for r in view.rows]
            kinds = set(map(type, values))
            if kinds <= {str}:          # ``Column.text`` of a str is itself, of an int str()
                texts = [c.header, *values]                     # type: ignore[list-item]
            elif kinds == {int}:
                texts = [c.header, *map(str, values)]
            else:
                texts = [c.header, *map(text, values)]
        right = c.align is Align.RIGHT
        if "".join(texts).isascii():    # width is len (one C pass): str's own padding
            w = longest = max(map(len, texts))
            w = min(w, NAME_WIDTH) if key == "name" else w
            if longest <= w:            # nothing to cut: ``rjust``/``ljust`` would pad alike
                padded.append([t.rjust(w) for t in texts] if right
                              else [t.ljust(w) for t in texts])
                continue
        else:
            w = max(map(width, texts))
            w = min(w, NAME_WIDTH) if key == "name" else w
        pad = rjust if right else ljust
        padded.append([pad(t, w) for t in texts])

    head = f"{log}: {view.heading}" + (f" — {view.as_of}" if view.as_of else "")
    out = [head, *("  ".join(parts).rstrip() for parts in zip(*padded, strict=True))]
    out += [f"#{r.number} {r.name}: {r.revoked.text()}" for r in view.rows if r.revoked]
    out += list(view.notes)
    return out
