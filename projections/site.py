"""The published static site and the desk-printer pages (HTML from Jinja2 templates).

Owns: ``render_site`` (pages + JSON into a directory), ``environment`` (the templates,
English unless given a catalogue's callables), ``sheet_environment`` (the same, given a
printed sheet's ``--language`` translations), ``standings_page`` and
``round_page`` (one self-contained page with inline CSS, for ``--html``).  Templates and
``style.css`` live in ``projections/templates/``; autoescaping is on.  Columns of the
standings table are those the format declares (``ledger.standings_view``: header,
alignment, phone or not, a percentage with its exact fraction one tap away); result words
are the format's (``projections.result_words.describe``, via ``round_doc``); rounds are the
plain dicts of ``projections.report.round_doc``.  Players are named as the organizer
chose for public pages (``ledger.core.public_pages``, ADR 0023: full name by default, so
a ledger that never set it prints what it always did), and a round whose pairing waits
for the head judge's posting is left out of the site; ``public_view`` is the standings
as public pages name players (the live server calls it too).  Names no format.

May import: ``jinja2``, ``ledger.*``, ``projections.*``.
"""

from __future__ import annotations

import gettext as gettext_module
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ledger.core.format_socket import plugin_for
from ledger.core.player_words import plain
from ledger.core.public_pages import (
    NameStyle,
    held_rounds,
    public_label,
    public_short_name,
    round_posted,
)
from ledger.core.state import TournamentState
from ledger.standings_view import Align, Row, Show, StandingsView
from projections.checkable import Checkable, checkable_of
from projections.report import bracket_doc, to_json
from projections.standings_doc import event_summary, standings_view

TEMPLATES = Path(__file__).parent / "templates"
STANDINGS_NOTE = ("Ranks share a number on an exact tie. Percentages are truncated, never "
                  "rounded; tap one for the exact fraction.")


def sheet_environment(tr: gettext_module.NullTranslations | None = None, lang: str = "en",
         direction: str = "ltr", fw: Callable[[Any], Any] | None = None) -> Any:
    """``environment`` speaking a catalogue object: a printed sheet's ``--language``
    (``tr``, ``lang``, ``direction``: ``cli.sheet_language``; the format's words ``fw``);
    English with none (the published site's default)."""
    if tr is None:
        return environment(lang=lang, direction=direction, fw=fw)
    from markupsafe import escape

    return environment(lambda s: str(escape(tr.gettext(s))),
                       lambda s, p, n: str(escape(tr.ngettext(s, p, n))),
                       lang=lang, direction=direction, fw=fw)


def environment(gettext: Callable[[str], str] | None = None,
                ngettext: Callable[[str, str, int], str] | None = None,
                lang: str = "en", direction: str = "ltr",
                fw: Callable[[Any], Any] | None = None) -> Any:
    """The published site's and the printed sheets' templates (the one environment they
    share).  Jinja2's i18n extension with no catalogue by default: the templates mark
    their words with ``_()``/``ngettext`` (issue 31), and English is their own text, byte
    for byte (escaped, as any text: new-style gettext marks its result safe).  A caller
    that prints in another language passes that catalogue's callables (HTML-escaped:
    ``server.i18n.as_text``, or ``sheet_environment`` with a sheet's translations), the page's
    ``lang``/``direction`` and ``fw`` (the format's words,
    ``server.format_words.Words``)."""
    import jinja2
    from markupsafe import escape

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)),
                             autoescape=jinja2.select_autoescape(["html"]),
                             undefined=jinja2.StrictUndefined, trim_blocks=True,
                             lstrip_blocks=True, extensions=["jinja2.ext.i18n"])
    env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext or (lambda s: str(escape(s))),
        ngettext or (lambda s, p, n: str(escape(s if n == 1 else p))), newstyle=True)
    env.globals.update(lang=lang, dir=direction, fw=fw or _as_is)
    return env


def _as_is(text: Any) -> Any:
    return text


def _css() -> str:
    return (TEMPLATES / "style.css").read_text(encoding="utf-8")


def _tournament(state: TournamentState, size: int) -> dict[str, Any]:
    summary = event_summary(state)
    champ = summary["champion"]
    return {"name": state.name or state.log, "format": state.format.id if state.format else "",
            "players": len(state.players), "size": size,
            "champion": None if champ is None else public_label(state, champ),
            "cut": summary["cut"]}


def _label(state: TournamentState, n: int | None) -> str:
    """A player on a public page: ``#17 Name "nick"``, ``#17 Ann L.`` or ``#17``, per the
    organizer's style (``public_label``)."""
    return "—" if n is None else public_label(state, n)


def _entrant(state: TournamentState, n: int | None) -> str:
    """A table's entrant as a page names it: a team by its name (the plug-in's
    ``entrant_name``), a player by their public label."""
    plugin = plugin_for(state.format.id if state.format else None)
    name = plugin.views.entrant_name(state, n) if plugin is not None and n is not None else None
    return name if name is not None else _label(state, n)


def _result_text(state: TournamentState, res: dict[str, Any] | None) -> str:
    """The format's words for a table's result (``projections.result_words.describe``,
    carried by ``round_doc(…, state=…)``); "—" while there is none."""
    if res is None:
        return "—"
    return str(res.get("words") or "recorded")


def round_view(state: TournamentState, r: dict[str, Any]) -> dict[str, Any]:
    tables: list[dict[str, Any]] = []
    by_name: list[dict[str, Any]] = []
    for tb in r["tables"]:
        a, b = tb["players"]
        marks = ", ".join(([ "rematch"] if tb.get("rematch") else [])
                          + ([f"pair-down #{tb['pair_down']}"] if tb.get("pair_down") else []))
        res = tb.get("result")
        winner = None if res is None or res["winner"] is None else \
            (0 if res["winner"] == a else 1)
        sides = tb.get("sides") or ("", "")
        seats = [{"seat": st["seat"], "a": _label(state, st["players"][0]),
                  "b": _label(state, st["players"][1]), "result": st["result"] or "—",
                  "players": [st["players"][0], st["players"][1]]}
                 for st in tb.get("seats") or []]        # a team table (issue 20)
        entrant = _entrant if seats else _label
        said = _result_text(state, res)
        if seats and res is not None and res.get("winner") is not None:
            # a team table's result names the team by its name, not its number (issue 32)
            said = said.replace(f"#{res['winner']}", _entrant(state, res["winner"]), 1)
        tables.append({"table": tb["table"], "a": entrant(state, a) + sides[0],
                       "b": entrant(state, b) + sides[1], "seats": seats,
                       "marks": marks, "result": said, "winner": winner,
                       "entrants": [a, b]})        # numbers: a team's at a team table
        for st in tb.get("seats") or []:
            x, y = st["players"]
            for me, other in ((x, y), (y, x)):
                by_name.append({"label": _label(state, me),
                                "table": f"{tb['table']} seat {st['seat']}",
                                "opponent": _label(state, other),
                                "key": _sort_key(state, me)})
        for me, other in () if tb.get("seats") else ((a, b), (b, a)):
            by_name.append({"label": _label(state, me), "table": tb["table"],
                            "opponent": _label(state, other), "key": _sort_key(state, me)})
    if r.get("bye") is not None:
        by_name.append({"label": _label(state, r["bye"]), "table": "bye", "opponent": "—",
                        "key": _sort_key(state, r["bye"])})
    for n in r.get("advances") or []:
        by_name.append({"label": _label(state, n), "table": "—",
                        "opponent": "advances without playing", "key": _sort_key(state, n)})
    by_name.sort(key=lambda p: p["key"])
    phase = {"swiss": "Swiss", "top_cut": "top cut", "game": "Game"}.get(r["phase"], r["phase"])
    over = r.get("overridden")
    note = None if not over else (
        f"Pairing overridden by the head judge (seq {over['seq']}): {over['reason']}. "
        f"The engine's pairing (seq {over['paired_seq']}, not played): " + ", ".join(
            f"table {t['table']} {_label(state, t['players'][0])} v "
            f"{_label(state, t['players'][1])}" for t in over["engine_tables"]) + ".")
    plugin = plugin_for(state.format.id if state.format else None)
    stage = plugin.views.stage_name(state, r["round"]) if plugin is not None else None
    noun = "Game" if r["phase"] == "game" else "Round"
    return {"round": r["round"], "phase_label": phase, "stage": stage,
            "name": stage or f"{noun} {r['round']}",
            "noun": noun, "tables": tables,
            "by_name": by_name,
            "override_note": note,
            "bye_label": None if r.get("bye") is None else _label(state, r["bye"]) + (
                " (lost: Loss of Match)" if r.get("bye_lost") else ""),
            "advance_labels": [_label(state, n) for n in r.get("advances") or []]}


def _sort_key(state: TournamentState, n: int) -> tuple[str, int]:
    """The "by name" order: by the name the page shows (by number when it shows none),
    so the order never tells a hidden name."""
    if state.pages.names is NameStyle.FULL:
        p = state.players.get(n)
        return ((p.name if p else "").casefold(), n)
    return (public_short_name(state, n).casefold(), n)


def public_view(state: TournamentState, view: StandingsView) -> StandingsView:
    """The standings with each row's name as public pages show it (the view itself when
    they show full names)."""
    from dataclasses import replace

    if state.pages.names is NameStyle.FULL:
        return view

    def named(fields: dict[str, Any], n: int) -> dict[str, Any]:
        return {**fields, "name": public_short_name(state, n)} if "name" in fields else fields

    def named_row(r: Row) -> Row:
        def doc() -> dict[str, Any]:
            return named(r.document, r.number)

        members = None if r.members is None else tuple(
            (m, public_short_name(state, m)) for m, _ in r.members)
        return replace(r, name=public_short_name(state, r.number),
                       values=named(r.values, r.number), doc=doc, members=members)

    return replace(view, rows=tuple(named_row(r) for r in view.rows))


def standings_table(view: StandingsView, *, player: bool = False) -> dict[str, Any]:
    """The standings table as the format declares it: headers, alignment, which columns a
    phone keeps; a fraction cell shows its display text with the exact fraction one tap
    away (``<abbr title="191/400">``).  ``player``: the live pages' words (issue 32) —
    each column's ``player_label``/``player_help``, headings and notes without rule ids,
    and no percentages before a round is played; the desk's ``standings --html`` keeps
    the CLI's words byte for byte."""
    played = view.rounds - (1 if view.open_round is not None and view.as_of is None else 0)
    shown = [c for c in view.columns
             if not (player and played <= 0 and c.show is Show.PERCENT)]
    hidden = "" if len(shown) == len(view.columns) else \
        "The tiebreaker percentages appear once the first round is played."
    words = plain if player else str
    columns = [{"key": c.key,
                "label": (c.player_label or c.header).upper() if player else c.header,
                "title": (c.player_help or c.title) if player else c.title,
                "cls": " ".join(x for x in ("num" if c.align is Align.RIGHT else "",
                                            "" if c.phone else "optional") if x)}
               for c in shown]
    rows = []
    for r in view.rows:
        cells = []
        for c, col in zip(shown, columns, strict=True):
            value = r.values.get(c.key)
            cell: dict[str, Any] = {"cls": col["cls"], "text": c.text(value),
                                    "exact": c.exact(value)}
            if player and c.key == "name":
                cell["bidi"] = True     # a name is isolated (right-to-left scripts)
            cells.append(cell)
        rows.append({"status": r.status, "revoked": r.revoked is not None, "cells": cells})
    revoked = [" ".join(x for x in (f"#{r.number}", r.name) if x) + f": {r.revoked.text()}"
               for r in view.rows if r.revoked]
    return {"heading": words(view.heading), "as_of": view.as_of, "columns": columns,
            "rows": rows, "revoked": [words(x) for x in revoked],
            "notes": [words(x) for x in view.notes], "note": STANDINGS_NOTE,
            "hidden_columns": hidden, "player": player}


def standings_page(state: TournamentState, view: StandingsView, size: int,
                   cp: Checkable | None = None, *,
                   tr: gettext_module.NullTranslations | None = None, lang: str = "en",
                   dir_: str = "ltr", fw: Callable[[Any], Any] | None = None) -> str:
    """One self-contained standings page (inline CSS) for the desk printer; ``cp``: the
    checkable line it carries (``projections.checkable``; the state's own by default);
    ``tr``, ``lang``, ``dir_``, ``fw``: the sheet's language (English by default)."""
    return str(sheet_environment(tr, lang, dir_, fw).get_template("standings.html").render(
        t=_tournament(state, size), nav=None, inline_css=_css(),
        s=standings_table(public_view(state, view)), checkable=cp or checkable_of(state)))


def round_page(state: TournamentState, r: dict[str, Any], size: int,
               cp: Checkable | None = None, *,
               tr: gettext_module.NullTranslations | None = None, lang: str = "en",
               dir_: str = "ltr", fw: Callable[[Any], Any] | None = None) -> str:
    """One self-contained pairings page (inline CSS) for the desk printer (the wall
    sheet), with the checkable line the phones show; in the sheet's language."""
    return str(sheet_environment(tr, lang, dir_, fw).get_template("round.html").render(
        t=_tournament(state, size), nav=None, inline_css=_css(), r=round_view(state, r),
        checkable=cp or checkable_of(state)))


def render_site(out: Path, state: TournamentState, *, figures: dict[str, Any],
                rounds: list[dict[str, Any]], report: dict[str, Any],
                view: StandingsView | None = None, cp: Checkable | None = None,
                tr: gettext_module.NullTranslations | None = None, lang: str = "en",
                dir_: str = "ltr", fw: Callable[[Any], Any] | None = None) -> list[Path]:
    """Write the whole site into ``out`` (created; existing files of the same names are
    replaced).  Returns the files written.  ``view``: the standings to show (mid-round,
    ``projections.standings_doc.settled_view``'s); the state's own by default.  ``cp``:
    the checkable line every page carries (the state's own by default)."""
    cp = cp or checkable_of(state)
    env = sheet_environment(tr, lang, dir_, fw)
    view = public_view(state, standings_view(state) if view is None else view)
    rounds = [r for r in rounds if round_posted(state, r["round"])]
    size = figures["checkpoint"]["size"]
    t = _tournament(state, size)
    bracket = bracket_doc(state, rounds)
    nav = {"rounds": [r["round"] for r in rounds], "noun": view.round_noun.capitalize(),
           "bracket": event_summary(state)["cut"] is not None}
    views = [round_view(state, r) for r in rounds]
    common = {"t": t, "nav": nav, "inline_css": None, "checkable": cp}
    pages: dict[str, str | bytes] = {"style.css": _css()}
    summary = event_summary(state)
    pages["index.html"] = env.get_template("index.html").render(
        rounds=views, paired=summary["rounds"] - len(held_rounds(state)), noun=view.round_noun,
        done=sum(1 for r in rounds if r["closed"]), **common)
    pages["standings.html"] = env.get_template("standings.html").render(
        s=standings_table(view, player=True), **common)
    for r, v in zip(rounds, views, strict=True):
        n = r["round"]
        pages[f"round-{n}.html"] = env.get_template("round.html").render(r=v, **common)
        pages[f"round-{n}-names.html"] = env.get_template("names.html").render(r=v, **common)
        pages[f"round-{n}-slips.html"] = env.get_template("slips.html").render(r=v, **common)
        pages[f"round-{n}.json"] = to_json(r)
    slots = bracket["slots"] or []
    pages["bracket.html"] = env.get_template("bracket.html").render(
        seeds=[(i, _label(state, n) if n else "empty") for i, n in enumerate(slots, 1)],
        seeding=view.seeding or "seeding",
        bracket_rounds=[v for v in views if v["phase_label"] == "top cut"], **common)
    pages["bracket.json"] = to_json(bracket)
    pages["verify.html"] = env.get_template("verify.html").render(
        cp=figures["checkpoint"], digest=report["digest"], report_seq=report["seq"],
        actor=report["actor"], **common)
    pages["standings.json"] = to_json({**view.json(), "champion": figures["champion"],
                                       "cut": figures["cut"], "checkpoint":
                                       figures["checkpoint"]})
    pages["report.json"] = to_json(report)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, content in pages.items():
        path = out / name
        data = content if isinstance(content, bytes) else content.encode("utf-8")
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_bytes(data)
        tmp.replace(path)
        written.append(path)
    return written
