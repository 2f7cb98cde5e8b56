"""The published static site and the desk-printer pages (HTML from Jinja2 templates).

Owns: ``render_site`` (pages + JSON into a directory), ``standings_page`` and
``round_page`` (one self-contained page with inline CSS, for ``--html``).  Templates and
``style.css`` live in ``projections/templates/``; autoescaping is on.  Columns of the
standings table are whatever the standings projection's rows carry (format-agnostic);
rounds are the plain dicts of ``projections.report.round_doc``.

May import: ``jinja2``, ``ledger.*``, ``projections.*``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ledger.state import TournamentState
from projections.report import bracket_doc, player_label, to_json
from projections.standings_doc import event_summary

TEMPLATES = Path(__file__).parent / "templates"
#: Always shown, also on a phone; other standings columns hide below 40rem (not in print).
PRIMARY = ("rank", "number", "name", "wins", "losses", "status", "points", "gp")
LABELS = {"number": "#", "mw_percent": "MW%", "omw_percent": "OMW%", "oomw_percent": "OOMW%",
          "mw": "MW (exact)", "omw": "OMW (exact)", "oomw": "OOMW (exact)",
          "pair_downs": "pair-downs", "cut_finish": "cut out in round"}
STANDINGS_NOTE = ("Ranks share a number on an exact tie. Tiebreakers are exact fractions; "
                  "percentages are truncated, never rounded.")


def _env() -> Any:
    import jinja2

    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)),
                              autoescape=jinja2.select_autoescape(["html"]),
                              undefined=jinja2.StrictUndefined, trim_blocks=True,
                              lstrip_blocks=True)


def _css() -> str:
    return (TEMPLATES / "style.css").read_text(encoding="utf-8")


def _tournament(state: TournamentState, size: int) -> dict[str, Any]:
    summary = event_summary(state)
    champ = summary["champion"]
    return {"name": state.name or state.log, "format": state.format.id if state.format else "",
            "players": len(state.players), "size": size,
            "champion": None if champ is None else f"#{champ} {player_label(state, champ)}",
            "cut": summary["cut"]}


def _label(state: TournamentState, n: int | None) -> str:
    return "—" if n is None else f"#{n} {player_label(state, n)}"


def _result_text(state: TournamentState, res: dict[str, Any] | None) -> str:
    if res is None:
        return "—"
    if res["winner"] is None:
        return f"double loss ({res['outcome']})"
    extra = "" if res["outcome"] == "win" else f" ({res['outcome'].replace('_', ' ')})"
    return f"{_label(state, res['winner'])} wins{extra}"


def _round_view(state: TournamentState, r: dict[str, Any]) -> dict[str, Any]:
    tables, by_name = [], []
    for tb in r["tables"]:
        a, b = tb["players"]
        marks = ", ".join(([ "rematch"] if tb.get("rematch") else [])
                          + ([f"pair-down #{tb['pair_down']}"] if tb.get("pair_down") else []))
        res = tb.get("result")
        winner = None if res is None or res["winner"] is None else \
            (0 if res["winner"] == a else 1)
        tables.append({"table": tb["table"], "a": _label(state, a), "b": _label(state, b),
                       "marks": marks, "result": _result_text(state, res), "winner": winner})
        for me, other in ((a, b), (b, a)):
            by_name.append({"label": _label(state, me), "table": tb["table"],
                            "opponent": _label(state, other), "key": _sort_key(state, me)})
    if r.get("bye") is not None:
        by_name.append({"label": _label(state, r["bye"]), "table": "bye", "opponent": "—",
                        "key": _sort_key(state, r["bye"])})
    for n in r.get("advances") or []:
        by_name.append({"label": _label(state, n), "table": "—",
                        "opponent": "advances without playing", "key": _sort_key(state, n)})
    by_name.sort(key=lambda p: p["key"])
    phase = "Swiss" if r["phase"] == "swiss" else "top cut"
    over = r.get("overridden")
    note = None if not over else (
        f"Pairing overridden by the head judge (seq {over['seq']}): {over['reason']}. "
        f"The engine's pairing (seq {over['paired_seq']}, not played): " + ", ".join(
            f"table {t['table']} {_label(state, t['players'][0])} v "
            f"{_label(state, t['players'][1])}" for t in over["engine_tables"]) + ".")
    return {"round": r["round"], "phase_label": phase, "tables": tables, "by_name": by_name,
            "override_note": note,
            "bye_label": None if r.get("bye") is None else _label(state, r["bye"]) + (
                " (lost: Loss of Match)" if r.get("bye_lost") else ""),
            "advance_labels": [_label(state, n) for n in r.get("advances") or []]}


def _sort_key(state: TournamentState, n: int) -> tuple[str, int]:
    p = state.players.get(n)
    return ((p.name if p else "").casefold(), n)


def _standings_view(rows: list[dict[str, Any]]) -> tuple[list[dict[str, str]],
                                                          list[dict[str, Any]]]:
    keys: list[str] = []
    for row in rows:
        keys += [k for k in row if k not in keys]
    order = [k for k in PRIMARY if k in keys] + [k for k in keys if k not in PRIMARY]
    columns = []
    for k in order:
        numeric = all(isinstance(r.get(k), int) or r.get(k) is None for r in rows) \
            or k.endswith("_percent")
        cls = ("num " if numeric else "") + ("" if k in PRIMARY else "optional")
        columns.append({"key": k, "label": LABELS.get(k, k.replace("_", " ")),
                        "cls": cls.strip()})
    classes = [c["cls"] for c in columns]
    view = [{"status": r.get("status"),
             "cells": [(cls, "—" if r.get(k) is None else r.get(k))
                       for cls, k in zip(classes, order, strict=True)]}
            for r in rows]
    return columns, view


def standings_page(state: TournamentState, rows: list[dict[str, Any]], size: int) -> str:
    """One self-contained standings page (inline CSS) for the desk printer."""
    columns, view = _standings_view(rows)
    return str(_env().get_template("standings.html").render(
        t=_tournament(state, size), nav=None, inline_css=_css(), columns=columns, rows=view,
        standings_note=STANDINGS_NOTE))


def round_page(state: TournamentState, r: dict[str, Any], size: int) -> str:
    """One self-contained pairings page (inline CSS) for the desk printer."""
    return str(_env().get_template("round.html").render(
        t=_tournament(state, size), nav=None, inline_css=_css(), r=_round_view(state, r)))


def render_site(out: Path, state: TournamentState, *, figures: dict[str, Any],
                rounds: list[dict[str, Any]], report: dict[str, Any]) -> list[Path]:
    """Write the whole site into ``out`` (created; existing files of the same names are
    replaced).  Returns the files written."""
    env = _env()
    size = figures["checkpoint"]["size"]
    t = _tournament(state, size)
    bracket = bracket_doc(state, rounds)
    nav = {"rounds": [r["round"] for r in rounds],
           "bracket": event_summary(state)["cut"] is not None}
    views = [_round_view(state, r) for r in rounds]
    common = {"t": t, "nav": nav, "inline_css": None}
    pages: dict[str, str | bytes] = {"style.css": _css()}
    pages["index.html"] = env.get_template("index.html").render(rounds=views, **common)
    columns, view = _standings_view(figures["standings"])
    pages["standings.html"] = env.get_template("standings.html").render(
        columns=columns, rows=view, standings_note=STANDINGS_NOTE, **common)
    for r, v in zip(rounds, views, strict=True):
        n = r["round"]
        pages[f"round-{n}.html"] = env.get_template("round.html").render(r=v, **common)
        pages[f"round-{n}-names.html"] = env.get_template("names.html").render(r=v, **common)
        pages[f"round-{n}-slips.html"] = env.get_template("slips.html").render(r=v, **common)
        pages[f"round-{n}.json"] = to_json(r)
    slots = bracket["slots"] or []
    pages["bracket.html"] = env.get_template("bracket.html").render(
        seeds=[f"{i}: {_label(state, n) if n else 'empty'}" for i, n in enumerate(slots, 1)],
        bracket_rounds=[v for v in views if v["phase_label"] == "top cut"], **common)
    pages["bracket.json"] = to_json(bracket)
    pages["verify.html"] = env.get_template("verify.html").render(
        cp=figures["checkpoint"], digest=report["digest"], report_seq=report["seq"],
        actor=report["actor"], **common)
    pages["standings.json"] = to_json({"players": figures["standings"],
                                       "champion": figures["champion"],
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
