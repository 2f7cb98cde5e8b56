"""A player reports their table's result from their phone (issue 19, second part).

Owns: ``ReportForm`` (the form of one table, built from the
format's result vocabulary: one choice per outcome valid in that round's phase, with the
inputs its fields take; no outcome is written here) and ``given_from_form`` (the posted
form → the vocabulary's field texts, as a slip row gives them, which
``ledger.core.report_rules.parse_report`` checks before anything is signed), and the
CSRF token check (a per-browser cookie repeated in the form, and a same-origin
``Origin``).

May import: ``ledger.*``, ``projections.*``, the standard library.
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass
from typing import Any

from ledger.core.plugin import plugin_for
from ledger.core.state import TournamentState
from ledger.core.vocabulary import FieldKind, ResultEntry
from ledger.errors import UsageError

CSRF_COOKIE = "tourney_csrf"


def new_csrf() -> str:
    return secrets.token_hex(16)


def csrf_ok(cookie: str | None, field: str | None, origin: str | None, host: str) -> bool:
    """The form's token equals the browser's cookie, and a browser that says where the
    request comes from says it comes from this site."""
    if not cookie or not field or not hmac.compare_digest(cookie, field):
        return False
    if origin and origin != "null":
        return origin.split("://", 1)[-1].rstrip("/") == host
    return True


@dataclass(frozen=True)
class Choice:
    """One outcome a player may report, and the inputs it takes."""

    index: int
    summary: str
    selector: str
    inputs: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class ReportForm:
    round: int
    table: int
    players: tuple[int, ...]
    choices: tuple[Choice, ...]


def _input(field: Any, players: list[int], labels: dict[int, str],
           required: bool) -> dict[str, Any]:
    kind = field.kind
    out: dict[str, Any] = {"name": field.name, "help": field.help, "required": required,
                           "kind": kind.value}
    if kind is FieldKind.PLAYER:
        out["options"] = [(str(n), labels.get(n, f"#{n}")) for n in players]
    elif kind in (FieldKind.FLAG, FieldKind.SWITCH):
        out["options"] = [("", "no"), ("yes", "yes")] if not required else [("yes", "yes")]
    elif kind is FieldKind.CODE:
        out["options"] = [(c, c) for c in field.choices]
    elif kind is FieldKind.GAMES:
        out["pattern"] = r"\d+-\d+(-\d+)?"
        out["placeholder"] = "2-1"
    elif kind is FieldKind.COUNT:
        out["pattern"] = r"\d+"
    return out


def form_for(state: TournamentState, round_no: int, table: int,
             labels: dict[int, str]) -> ReportForm | None:
    """The report form of one table (None: no such table or no vocabulary)."""
    plugin = plugin_for(state.format.id if state.format else None)
    vocab = plugin.result_vocabulary() if plugin is not None else None
    found = plugin.table_at(state, round_no, table) if plugin is not None else None
    if vocab is None or found is None:
        return None
    players = list(found[0])
    phase = plugin.round_phase(state, round_no) if plugin is not None else None
    choices = []
    for i, e in enumerate(vocab.entries):
        if e.phases and phase is not None and phase not in e.phases:
            continue
        sel = vocab.field(e.selector)
        inputs = []
        if not e.value and sel.kind not in (FieldKind.FLAG,):
            inputs.append(_input(sel, players, labels, True))
        inputs += [_input(vocab.field(n), players, labels, True) for n in e.needs]
        inputs += [_input(vocab.field(n), players, labels, False) for n in e.takes]
        choices.append(Choice(index=i, summary=_summary(e), selector=e.selector,
                              inputs=tuple(inputs)))
    return ReportForm(round=round_no, table=table, players=tuple(players),
                      choices=tuple(choices))


def _summary(e: ResultEntry) -> str:
    return e.summary.replace("NUMBER", "the player chosen")


def given_from_form(state: TournamentState, form: dict[str, str]) -> dict[str, str]:
    """The posted choice and its inputs → the vocabulary's field texts (a slip row)."""
    plugin = plugin_for(state.format.id if state.format else None)
    vocab = plugin.result_vocabulary() if plugin is not None else None
    if vocab is None:
        raise UsageError("this event records no results here")
    raw = form.get("choice", "")
    if not raw.isdigit() or int(raw) >= len(vocab.entries):
        raise UsageError("choose what happened at your table")
    e = vocab.entries[int(raw)]
    sel = vocab.field(e.selector)
    prefix = f"c{raw}."
    given: dict[str, str] = {}
    if e.value:
        given[e.selector] = e.value
    elif sel.kind is FieldKind.FLAG:
        given[e.selector] = "yes"
    for name in (e.selector, *e.needs, *e.takes):
        text = form.get(prefix + name, "").strip()[:100]
        if text and name not in given:
            given[name] = text
    return given
