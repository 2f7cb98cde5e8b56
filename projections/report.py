"""The published report: the figures a publisher checks, and the pages' data.

Owns: ``report_figures`` (tournament, format, the checkpoint covered, champion, cut and
every standings row with whatever columns the standings projection provides),
``report_digest`` (SHA-256 of the canonical figures, signed into ``report_published``),
``compare_figures`` (figure-by-figure differences, for ``tourney audit report``) and
``round_doc`` / ``round_docs`` (each round's tables and results as plain data, the same
shape as ``tourney round show --json``) and ``player_label``.

Format-agnostic on purpose: standings rows are the projection's own dicts (columns are not
hard-coded here), rounds are plain dicts.  Pure functions of a ``TournamentState`` (plus,
for earlier rounds, the ledger's raw leaves through ``projections.rounds``).

May import: ``msgspec``, ``ledger.*``, ``projections.*``.
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec

from ledger.core.format_socket import plugin_for
from ledger.core.state import TournamentState
from ledger.formats.match.model import MatchState
from ledger.wire.canonical import canonical
from projections.result_words import describe
from projections.standings_doc import event_summary, standings_document

REPORT_VERSION = "tourney-report/v1"


def report_figures(state: TournamentState, size: int, root_hex: str) -> dict[str, Any]:
    """Everything ``report_published`` states, computed from the state at ``size``."""
    table = standings_document(state)
    summary = event_summary(state)
    fmt = state.format
    return {
        "version": REPORT_VERSION,
        "tournament": state.log,
        "name": state.name,
        "format": None if fmt is None else fmt.id,
        "checkpoint": {"origin": f"tourney/{state.log}", "size": size, "root": root_hex},
        "champion": summary["champion"],
        "cut": summary["cut"],
        "rounds": summary["rounds"],
        "standings": _public_rows(state, table["players"]),
    }


def _public_rows(state: TournamentState, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The standings rows as public pages name players (ADR 0023): a report is published
    with the site, so a name the organizer keeps off public pages is kept out of it too
    (the rows themselves when pages show full names, so older reports are unchanged)."""
    from ledger.core.public_pages import NameStyle, public_short_name

    if state.pages.names is NameStyle.FULL:
        return rows
    return [{**r, "name": public_short_name(state, r["number"])} if "name" in r else r
            for r in rows]


def report_digest(figures: dict[str, Any]) -> str:
    return hashlib.sha256(canonical(figures)).hexdigest()


def compare_figures(claimed: Any, derived: dict[str, Any]) -> list[str]:
    """Human-readable differences between a report's figures and the log's (empty = equal)."""
    if not isinstance(claimed, dict):
        return ["the report's figures are not a JSON object"]
    out: list[str] = []
    for key, want in derived.items():
        got = claimed.get(key)
        if key == "standings":
            out += _compare_rows(got, want)
        elif got != want:
            out.append(f"{key}: report says {got!r}, the log says {want!r}")
    for key in sorted(set(claimed) - set(derived)):
        out.append(f"{key}: the report states a figure the log does not have")
    return out


def _compare_rows(got: Any, want: list[dict[str, Any]]) -> list[str]:
    if not isinstance(got, list) or not all(isinstance(r, dict) for r in got):
        return ["standings: not a list of rows"]
    out: list[str] = []
    by_number = {r.get("number"): r for r in got}
    for row in want:
        claimed = by_number.pop(row["number"], None)
        if claimed is None:
            out.append(f"standings: player #{row['number']} is missing")
            continue
        for col, value in row.items():
            if claimed.get(col) != value:
                out.append(f"standings: player #{row['number']} {col}: report says "
                           f"{claimed.get(col)!r}, the log says {value!r}")
        for col in sorted(set(claimed) - set(row)):
            out.append(f"standings: player #{row['number']} {col}: not in the log")
    for number in by_number:
        out.append(f"standings: player #{number} is not in the log")
    if not out and [r.get("number") for r in got] != [r["number"] for r in want]:
        out.append("standings: the order of the rows differs from the log's")
    return out


def player_label(state: TournamentState, number: int | None) -> str:
    """``Name "nickname"`` (display only; players are identified by number)."""
    if number is None:
        return "—"
    p = state.players.get(number)
    if p is None:
        return f"#{number}"
    return f'{p.name} "{p.nickname}"' if p.nickname else p.name


def round_doc(rnd: Any, overridden: Any = None, *, lost_bye: bool = False,
              state: TournamentState | None = None) -> dict[str, Any]:
    """A round as plain data (``tourney round show --json`` shape); ``overridden`` is the
    head judge's override of its pairing (``projections.rounds.Overridden``) or None,
    ``lost_bye`` whether its bye was lost to a Loss of Match (BR-SWISS-7).  With ``state``
    each result also carries ``words``: the format's own words for it
    (``projections.result_words.describe``)."""
    def result(res: Any) -> dict[str, Any] | None:
        if res is None:
            return None
        out = {"seq": res.seq, "winner": res.winner, "losers": list(res.losers),
               "outcome": str(getattr(res.outcome, "value", res.outcome))}
        if state is not None:
            out["words"] = describe(state, res)
        return out

    plugin = plugin_for(state.format.id if state is not None and state.format else None)

    def seats(table: int) -> dict[str, Any]:    # a team table's seats (issue 20)
        got = None if plugin is None or state is None else \
            plugin.views.table_seats(state, rnd.number, table)
        return {} if got is None else {"seats": got}

    return {"round": rnd.number, "phase": str(getattr(rnd.phase, "value", rnd.phase)),
            "bye": rnd.bye, "advances": list(rnd.advances),
            "closed": rnd.closed_seq is not None, "bye_lost": lost_bye,
            "overridden": None if overridden is None else overridden.json(),
            "tables": [{"table": t.table, "players": list(t.players),
                        "groups": list(t.groups), "rematch": t.rematch,
                        "pair_down": t.pair_down, "result": result(t.result),
                        **seats(t.table)}
                       for t in rnd.tables]}


def round_docs(led: Any, log: str, state: TournamentState) -> list[dict[str, Any]]:
    """Every round of the tournament, oldest first, as played (``projections.rounds``)."""
    from projections.rounds import bye_lost, load_round, override_of

    out: list[dict[str, Any]] = []
    if not isinstance(state.fmt, MatchState):
        # a format whose rounds are not matches (Wheel of Time Games) may give its own
        # documents, in the same shape (its plug-in's ``round_docs`` facet)
        plugin = plugin_for(state.format.id if state.format else None)
        own = None if plugin is None else plugin.round_docs
        return list(own.round_docs(state)) if own is not None else out
    for meta in state.fmt.rounds:
        rnd = load_round(led, log, state, meta.number)
        if rnd is not None:
            out.append(round_doc(rnd, override_of(led, log, state, rnd),
                                 lost_bye=bye_lost(state, rnd), state=state))
    return out


def bracket_doc(state: TournamentState, rounds: list[dict[str, Any]], *,
                champion: int | None | bool = False) -> dict[str, Any]:
    """The top-cut bracket: seeded slots and each top-cut round's matches (``champion``:
    when the caller has the standings already; computed from them otherwise)."""
    h = state.fmt if isinstance(state.fmt, MatchState) else None
    return {"slots": h.slots if h else None, "cut": h.cut if h else None,
            "champion": event_summary(state)["champion"] if champion is False else champion,
            "rounds": [r for r in rounds if r["phase"] == "top_cut"]}


def to_json(doc: Any) -> bytes:
    """Pretty, stable JSON for the published files (no floats anywhere)."""
    return msgspec.json.format(msgspec.json.encode(doc, order="sorted"), indent=1) + b"\n"
