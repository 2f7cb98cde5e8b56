"""The staff console's forms, generated from the commands' specs (issue 29 item 1).

Owns: ``Panel`` and ``PANELS`` (the titles and order of the console's groups of
commands: registration, rounds, results, officiating, cut and publishing — each spec
names its own ``group``), ``panels`` (the runner's specs in those groups), ``Field``
and ``fields_of`` (one form field per
``usecases.command_specs.Param``, by its ``ParamKind``: TEXT/INTEGER/NUMBER → an input,
CHOICE → a select, FLAG → a checkbox, FILE → a file input and a paste box), ``args_from``
(a posted form → the command's arguments by parameter name; a value that is not of its
kind is refused in the CLI's words, ``UsageError``, before anything runs), ``LISTED``
and ``lists`` (the closed sets the ledger names for text parameters — the Penalty Guide
by infraction name, the penalty ranks, where a penalty applies — as datalists) and
``guide`` (the Penalty Guide as (section, name) pairs).

May import: ``usecases.command_specs``, ``ledger.*``, the standard library.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ledger.errors import UsageError
from usecases.command_specs import CommandSpec, Param, ParamKind


@dataclass(frozen=True)
class Panel:
    key: str        # a ``CommandSpec.group`` (``cli.api_book.DESK``'s keys)
    title: str


#: the panels' titles and order, by the specs' ``group`` (the one list of groups is the
#: API's, ``cli.api_book.DESK``; a group not named here is shown under its own key)
PANELS: tuple[Panel, ...] = (
    Panel("registration", "Registration"),
    Panel("rounds", "Rounds"),
    Panel("results", "Results"),
    Panel("officiating", "Officiating, drops"),
    Panel("cut", "Cut, bracket, checkpoints, publishing"),
)
OTHER = Panel("other", "Other commands")


def panel_of(spec: CommandSpec) -> Panel:
    if not spec.group:
        return OTHER
    return next((p for p in PANELS if p.key == spec.group),
                Panel(spec.group, spec.group.capitalize()))


def panels(specs: Sequence[CommandSpec]) -> list[tuple[Panel, list[CommandSpec]]]:
    """The desk's commands in their panels, in the panels' order (empty panels left
    out), each panel's commands in the CLI's order."""
    out: dict[Panel, list[CommandSpec]] = {p: [] for p in PANELS}
    for s in specs:
        out.setdefault(panel_of(s), []).append(s)
    return [(p, mine) for p, mine in out.items() if mine]


@dataclass(frozen=True)
class Field:
    """One form field of a parameter: ``widget`` is ``text``, ``number``, ``select``,
    ``check``, ``file`` or ``lines`` (a repeatable option: one value per line)."""

    name: str
    label: str
    widget: str
    required: bool
    help: str
    value: str = ""
    options: tuple[str, ...] = ()
    step: str = ""
    datalist: str = ""          # the id of a <datalist> that helps type it


def label_of(p: Param) -> str:
    """The CLI's spelling of a parameter (``--seed-material``, or NUMBER)."""
    if p.positional:
        return (p.metavar or p.name).upper()
    return next((o for o in p.opts if o.startswith("--")), "--" + p.name.replace("_", "-"))


def fields_of(spec: CommandSpec, given: Mapping[str, str] | None = None) -> list[Field]:
    """The form of ``spec``: a field per parameter, prefilled from ``given`` (the form
    as posted, or the query string) or the parameter's default."""
    given = given or {}
    out: list[Field] = []
    for p in spec.params:
        default = "" if p.default is None or p.kind is ParamKind.FLAG else str(p.default)
        value = given.get(p.name, default)
        kind = p.kind
        widget = ("lines" if p.multiple and kind is not ParamKind.FILE else
                  "select" if kind is ParamKind.CHOICE else
                  "check" if kind is ParamKind.FLAG else
                  "file" if kind is ParamKind.FILE else
                  "number" if kind in (ParamKind.INTEGER, ParamKind.NUMBER) else "text")
        if kind is ParamKind.FLAG and p.off:
            # a flag with its opposite (--upheld / --overruled): both said, or neither
            out.append(Field(p.name, label_of(p), "select", p.required, p.help,
                             given.get(p.name, ""), (label_of(p), p.off)))
            continue
        if kind is ParamKind.FLAG:
            value = "yes" if given.get(p.name) in ("yes", "on", "true") or \
                (p.name not in given and p.default is True) else ""
        out.append(Field(p.name, label_of(p), widget, p.required, p.help, value,
                         p.choices, "any" if kind is ParamKind.NUMBER else "1",
                         LISTED.get(p.name, "")))
    return out


def _whole(p: Param, text: str) -> int:
    t = text.strip()
    # ``\d``: decimal digits of any script (``int`` reads them: "１２" is 12); never a
    # superscript or other digit-like sign that ``str.isdigit`` admits and ``int`` refuses
    if not re.fullmatch(r"-?\d{1,11}", t):
        raise UsageError(f"{label_of(p)} {t!r} is not a whole number",
                         hint=f"type a number for {label_of(p)}")
    return int(t)


def _number(p: Param, text: str) -> float:
    try:
        return float(text.strip())
    except ValueError:
        raise UsageError(f"{label_of(p)} {text.strip()!r} is not a number",
                         hint=f"type a number for {label_of(p)}") from None


def _one(p: Param, text: str) -> Any:
    if p.kind is ParamKind.INTEGER:
        return _whole(p, text)
    if p.kind is ParamKind.NUMBER:
        return _number(p, text)
    if p.kind is ParamKind.CHOICE and p.choices and text not in p.choices:
        raise UsageError(f"{label_of(p)} {text!r} is not one of its choices",
                         hint="one of " + ", ".join(p.choices))
    return text


def args_from(spec: CommandSpec, posted: Mapping[str, str],
              files: Mapping[str, bytes] | None = None) -> dict[str, Any]:
    """The posted form → ``spec``'s arguments by name (a blank optional field is left
    out: the CLI's default).  A FILE parameter is the uploaded file's text, or the paste
    box's (``NAME.paste``) when no file was chosen; a repeatable option takes one value
    per line; a required parameter left blank is refused as the CLI refuses it."""
    files = files or {}
    args: dict[str, Any] = {}
    for p in spec.params:
        if p.kind is ParamKind.FLAG and p.off:
            said = posted.get(p.name, "")
            if said in (label_of(p), p.off):
                args[p.name] = said == label_of(p)
            elif p.required:
                raise UsageError(f"say {label_of(p)} or {p.off}", hint=p.help or "")
            continue
        if p.kind is ParamKind.FLAG:
            if posted.get(p.name) in ("yes", "on", "true"):
                args[p.name] = True
            elif p.name in posted and p.default is True:
                args[p.name] = False
            continue
        if p.kind is ParamKind.FILE:
            data = files.get(p.name) or b""
            text = data.decode("utf-8", "replace") if data else \
                posted.get(p.name + ".paste", "")
            if text.strip():
                args[p.name] = text
            elif p.required:
                raise UsageError(f"missing {label_of(p)}",
                                 hint="choose a file or paste its contents")
            continue
        raw = posted.get(p.name, "")
        if p.multiple:
            values = [v.strip() for v in raw.replace(",", "\n").splitlines() if v.strip()]
            if values:
                args[p.name] = [_one(p, v) for v in values]
            elif p.required:
                raise UsageError(f"missing {label_of(p)}", hint=p.help or "fill it in")
            continue
        if raw.strip():
            args[p.name] = _one(p, raw.strip())
        elif p.required:
            raise UsageError(f"missing {label_of(p)}", hint=p.help or "fill it in")
    return args


#: parameters typed as text whose values are a closed set the ledger names: the id of the
#: ``<datalist>`` that helps type them (``lists``)
LISTED = {"infraction": "guide", "penalty": "ranks", "applies_to": "applies"}


def lists(spec: CommandSpec) -> dict[str, list[tuple[str, str]]]:
    """The datalists ``spec``'s form uses: id → (value, words)."""
    from ledger.formats.match.officiating_model import AppliesTo
    from ledger.formats.officiating.catalogue import Penalty

    def made(key: str) -> list[tuple[str, str]]:
        if key == "ranks":
            return [(p.value, f"({p.short})") for p in Penalty]
        if key == "applies":
            return [(a.value, "") for a in AppliesTo]
        return guide()

    return {LISTED[p.name]: made(LISTED[p.name]) for p in spec.params if p.name in LISTED}


def guide() -> list[tuple[str, str]]:
    """The Penalty Guide as (section, infraction name) pairs, in the guide's order
    (``ledger.formats.officiating.catalogue``): the penalty form's searchable list."""
    from ledger.formats.officiating.catalogue import CATALOGUE

    return [(i.section, i.name) for i in CATALOGUE.values()]
