"""A player reports their table's result from their phone (issue 19, second part).

Owns: ``ReportForm`` (the form of one table, built from the
format's result vocabulary: one choice per outcome valid in that round's phase, with the
inputs its fields take; no outcome is written here) and ``given_from_form`` (the posted
form → the vocabulary's field texts, as a slip row gives them, which
``ledger.core.report_rules.parse_report`` checks before anything is signed),
``given_parts`` / ``Given`` (a recorded report's fields kept as data, worded when a page
is shown: ``worded``, ``given_words``; issue 31), and the
CSRF token check (a per-browser cookie repeated in the form, and a same-origin
``Origin``).

May import: ``ledger.*``, ``projections.*``, the standard library.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from ledger.core.format_socket import plugin_for
from ledger.core.state import TournamentState
from ledger.core.vocabulary import FieldKind, ResultEntry, ResultField
from ledger.errors import UsageError

CSRF_COOKIE = "tourney_csrf"


def new_csrf() -> str:
    return secrets.token_hex(16)


def csrf_ok(cookie: str | None, field: str | None, origin: str | None, host: str) -> bool:
    """The form's token equals the browser's cookie, and a browser that says where the
    request comes from says it comes from this site."""
    if not cookie or not field or \
            not hmac.compare_digest(cookie.encode("utf-8"), field.encode("utf-8")):
        return False
    if origin and origin != "null":
        return origin.split("://", 1)[-1].rstrip("/") == host
    return True


@dataclass(frozen=True)
class Part:
    """One box of an input: a field a kind splits per player (a game score, amounts,
    Annex A values) has one per player (and one for drawn games)."""

    name: str
    label: str
    pattern: str = ""
    numeric: bool = False


@dataclass(frozen=True)
class Input:
    """One field of a choice, rendered by its kind: ``widget`` is ``select`` (a player,
    a code, a switch), ``check`` (an optional flag) or ``boxes`` (one text box per
    ``Part``)."""

    name: str
    label: str
    widget: str
    required: bool
    kind: FieldKind
    options: tuple[tuple[str, str], ...] = ()
    parts: tuple[Part, ...] = ()


@dataclass(frozen=True)
class Choice:
    """One outcome a player may report, and the inputs it takes."""

    index: int
    summary: str
    selector: str
    inputs: tuple[Input, ...]
    #: what choosing it says by itself: an outcome code, a flag that is the outcome
    fixed: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class ReportForm:
    round: int
    table: int
    players: tuple[int, ...]
    choices: tuple[Choice, ...]
    #: a team member's own seat of a team table (REPORT-21); None: a one-against-one table
    seat: int | None = None

    def choice(self, raw: str) -> Choice | None:
        return next((c for c in self.choices if str(c.index) == raw), None)


_DIGITS = r"[0-9]{1,4}"
_ANNEX = r"[0-9]{1,4}(,[0-9]{1,4})*(;[0-9]{1,4}(,[0-9]{1,4})*)*"


def _input(field: ResultField, players: list[int], labels: dict[int, str],
           required: bool) -> Input:
    """``field`` as the form shows it, by its kind (``ledger.core.vocabulary.FieldKind``),
    with the words a player reads (``ResultField.player_label``)."""
    kind, label = field.kind, field.player_label or field.help
    name = field.name
    who = [(str(n), labels.get(n, f"#{n}")) for n in players]
    if kind is FieldKind.PLAYER:
        return Input(name, label, "select", required, kind, options=tuple(who))
    if kind is FieldKind.FLAG:
        return Input(name, label, "check", required, kind)
    if kind is FieldKind.SWITCH:
        on, off = field.switch_words or ("yes", "no")
        return Input(name, label, "select", required, kind, options=(("yes", on), ("no", off)))
    if kind is FieldKind.CODE:
        return Input(name, label, "select", required, kind,
                     options=tuple((c, c) for c in field.choices))
    if kind is FieldKind.GAMES:
        parts = [Part(str(i), f"{t}", _DIGITS, True) for i, (_, t) in enumerate(who[:2])]
        parts.append(Part("2", "drawn games", _DIGITS, True))
        return Input(name, label, "boxes", required, kind, parts=tuple(parts))
    if kind is FieldKind.AMOUNTS:
        return Input(name, label, "boxes", required, kind,
                     parts=tuple(Part(n, t, _DIGITS, True) for n, t in who))
    if kind is FieldKind.ANNEX:
        return Input(name, label, "boxes", required, kind,
                     parts=tuple(Part(str(i), t, _ANNEX) for i, (_, t) in enumerate(who[:2])))
    return Input(name, label, "boxes", required, kind,       # COUNT
                 parts=(Part("", "", _DIGITS, True),))


def form_for(state: TournamentState, round_no: int, table: int,
             labels: dict[int, str], seat: int | None = None) -> ReportForm | None:
    """The report form of one table (None: no such table or no vocabulary); with
    ``seat``, of that seat of a team table: its two fighters, the seat fixed (the
    member's own, never asked, REPORT-21)."""
    plugin = plugin_for(state.format.id if state.format else None)
    vocab = plugin.entry.result_vocabulary() if plugin is not None else None
    found = None if plugin is None else plugin.entry.table_at(state, round_no, table) \
        if seat is None else plugin.entry.seat_at(state, round_no, table, seat)
    own = () if seat is None else tuple((f.name, str(seat)) for f in vocab.fields
                                        if f.team_seat) if vocab is not None else ()
    if vocab is None or found is None:
        return None
    players = list(found[0])
    phase = plugin.entry.round_phase(state, round_no) if plugin is not None else None
    choices = []
    for i, e in enumerate(vocab.entries):
        if e.phases and phase is not None and phase not in e.phases:
            continue
        sel = vocab.field(e.selector)
        inputs = []
        fixed: tuple[tuple[str, str], ...] = ((e.selector, e.value),) if e.value else \
            ((e.selector, "yes"),) if sel.kind is FieldKind.FLAG else ()
        if not fixed:
            inputs.append(_input(sel, players, labels, True))
        fixed += own
        for names, required in ((e.needs, True), (e.takes, False)):
            inputs += [_input(vocab.field(n), players, labels, required) for n in names
                       if not vocab.field(n).team_seat]
        choices.append(Choice(index=i, summary=e.player_label or _summary(e), selector=e.selector,
                              inputs=tuple(inputs), fixed=fixed))
    return ReportForm(round=round_no, table=table, players=tuple(players),
                      choices=tuple(choices), seat=seat)


def _summary(e: ResultEntry) -> str:
    return e.summary.replace("NUMBER", "the player chosen")


def given_from_form(form: ReportForm, posted: dict[str, str]) -> dict[str, str]:
    """The posted choice and its inputs → the vocabulary's field texts (a slip row); a
    choice left out, or a required box left empty, is refused here in the form's words."""
    choice = form.choice(posted.get("choice", ""))
    if choice is None:
        raise UsageError("choose what happened at your table")
    prefix = f"c{choice.index}."
    given: dict[str, str] = {}
    for i in choice.inputs:
        key = prefix + i.name
        if i.widget == "select":
            text = _clean(posted.get(key))
            if text not in {v for v, _ in i.options}:
                text = ""
        elif i.widget == "check":
            text = "yes" if _clean(posted.get(key)) == "yes" else ""
        else:
            text = _boxes(i, [_clean(posted.get(f"{key}.{p.name}" if p.name else key))
                              for p in i.parts])
        if text:
            given[i.name] = text
        elif i.required:
            raise UsageError(f"fill in: {i.label}")
    return {**dict(choice.fixed), **given}


def _clean(text: str | None) -> str:
    return (text or "").strip()[:100]


def _boxes(i: Input, texts: list[str]) -> str:
    """The boxes of one input → the field's text as a slip gives it."""
    if not any(texts):
        return ""
    if i.kind is FieldKind.GAMES:                       # A-B[-D]
        a, b, d = (t or "0" for t in texts)
        return f"{a}-{b}" + (f"-{d}" if texts[2] else "")
    if i.kind is FieldKind.ANNEX:                       # A/B[;A/B…]
        sides = [t.split(";") for t in texts]
        if len(sides[0]) != len(sides[1]):
            raise UsageError(f"{i.label}: give both players the same number of "
                             "checkpoints")
        return ";".join(f"{x}/{y}" for x, y in zip(sides[0], sides[1], strict=True))
    if i.kind is FieldKind.AMOUNTS:                     # N=V[,N=V]
        return ",".join(f"{p.name}={t}" for p, t in zip(i.parts, texts, strict=True) if t)
    return texts[0]


@dataclass(frozen=True)
class GivenPart:
    """One piece of a report's fields as its player reads them: ``label`` in English (an
    outcome's words, a field's label, or a field's own name where the format has no
    vocabulary: ``plain``), then ``value`` (None for an outcome alone) after ``sep``;
    ``switch``: the value is a switch's words; ``name``: the value is a player's name."""

    label: str
    value: str | None = None
    sep: str = ": "
    switch: bool = False
    name: bool = False
    plain: bool = False


@dataclass(frozen=True)
class Given:
    """A report's fields kept as data (issue 31, actwords): its parts, the text between
    them and the team seat it was made from (None: none), worded when a page is shown."""

    parts: tuple[GivenPart, ...]
    joiner: str = "; "
    seat: str | None = None


def given_parts(state: TournamentState, given: dict[str, str],
                labels: dict[int, str]) -> Given:
    """A report's fields as its player reads them, not yet worded: the outcome's words,
    then each field's label and value (a player's name for a player number)."""
    plugin = plugin_for(state.format.id if state.format else None)
    vocab = plugin.entry.result_vocabulary() if plugin is not None else None
    seat = given.get("seat")
    if vocab is None:
        return Given(tuple(GivenPart(k, v, " ", plain=True)
                           for k, v in sorted(given.items())), ", ", seat)
    parts: list[GivenPart] = []
    for f in vocab.fields:
        v = given.get(f.name)
        if v is None or f.team_seat:
            continue
        entry = next((e for e in vocab.entries if e.selector == f.name
                      and (not e.value or e.value == v)), None)
        if entry is not None and (entry.value or f.kind is FieldKind.FLAG):
            parts.insert(0, GivenPart(entry.player_label or _summary(entry)))
            continue
        label = f.player_label or f.help
        if f.kind is FieldKind.SWITCH and f.switch_words:
            yes = v.lower() in ("yes", "true", "1")
            parts.append(GivenPart(label, f.switch_words[0 if yes else 1], switch=True))
        elif v.isascii() and v.isdigit() and len(v) < 10 and int(v) in labels:
            parts.append(GivenPart(label, labels[int(v)], name=True))
        else:
            parts.append(GivenPart(label, v))
    return Given(tuple(parts), "; ", seat)


def worded(g: Given, word: Callable[[str], str] = str) -> str:
    """``g`` as one line of text; ``word`` puts the outcome, a label and a switch's words
    in the page's language (``server.sentences``; English: as they are), never a name."""
    return g.joiner.join(
        (p.label if p.plain else word(p.label)) + (
            "" if p.value is None else p.sep + (word(p.value) if p.switch else p.value))
        for p in g.parts)


def given_words(state: TournamentState, given: dict[str, str],
                labels: dict[int, str], word: Callable[[str], str] = str) -> str:
    """A report's fields as its player reads them (``given_parts``, ``worded``)."""
    return worded(given_parts(state, given, labels), word)
