"""A format's result vocabulary, as data (issue 17, ADR 0015).

Owns: ``ResultField`` (one thing a result may name: a winner, a game score, a turn
player, a Wheel of Time outcome code …, with its command-line option and its slip
column), ``ResultEntry`` (one outcome a match can have: the option that selects it, the
fields it takes and needs, the round phases it exists in, the rule it follows) and
``Vocabulary`` (a format's fields and entries: parsing a command line or a slip row into
``Given`` values, choosing the one entry they describe, and the help text).

A format plug-in declares its vocabulary (``FormatPlugin.vocabulary``) and turns a chosen
entry into its own ``record_result`` keywords (``FormatPlugin.result_kwargs``).  The CLI,
the slip importer and the pages only read the declaration: no module outside a format's
folder knows which outcomes a format has, which options they take, or in which phase.

May import: ``ledger.errors``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum

from ledger.errors import RuleError, UsageError

#: parsed field values by field name: int, bool, str, list[int], dict[int, int] …
Given = dict[str, object]


class FieldKind(str, Enum):
    """How a field's text is read (command line and slip alike)."""

    PLAYER = "player"      # a player number
    FLAG = "flag"          # present or not (a slip: yes/true/1)
    SWITCH = "switch"      # --name / --off-name: True or False
    GAMES = "games"        # A-B or A-B-D: game wins of the first, second player [, draws]
    AMOUNTS = "amounts"    # N=V[,N=V]: an amount per player number
    ANNEX = "annex"        # A,B/C,D[;…]: Annex A values per checkpoint
    CODE = "code"          # one of ``choices`` (upper-cased)
    COUNT = "count"        # a whole number >= 0


@dataclass(frozen=True)
class ResultField:
    name: str                      # keyword name: "turn_player"
    kind: FieldKind
    help: str
    metavar: str = ""
    off: str = ""                  # SWITCH: the option that says False ("before-last-battle")
    choices: tuple[str, ...] = ()  # CODE
    rule: str = ""                 # CODE: the rule listing the codes (a code outside it is
                                   # refused by that rule, exit 3)
    #: a player's words for it (the live pages' report form): no option name, no rule id
    player_label: str = ""
    player_help: str = ""
    #: SWITCH: the player's words for on and off ("in the Last Battle", "before it")
    switch_words: tuple[str, ...] = ()
    #: a team member's seat (BR-TEAM-2): the report form fills it from the member's
    #: position in their team, never asks for it, and leaves it out of individual events
    team_seat: bool = False

    @property
    def option(self) -> str:
        return "--" + self.name.replace("_", "-")

    @property
    def usage(self) -> str:
        if self.kind is FieldKind.FLAG:
            return self.option
        if self.kind is FieldKind.SWITCH:
            return f"{self.option}|--{self.off}"
        return f"{self.option} {self.metavar or self.name.upper()}"


@dataclass(frozen=True)
class ResultEntry:
    """One outcome of a match: ``selector`` is the field that names it; ``summary`` is
    the CLI's words, ``player_label``/``player_help`` a player's (issue 32)."""

    key: str                         # stable: "win", "timeout", "annex_a", "O1" …
    selector: str
    summary: str                     # what it means, with the rule it follows
    takes: tuple[str, ...] = ()      # optional fields
    needs: tuple[str, ...] = ()      # required fields
    phases: tuple[str, ...] = ()     # round phases it exists in (empty: every phase)
    example: str = ""                # the options after --round/--table, e.g. "--winner 8"
    value: str = ""                  # a CODE selector: the code this entry is
    #: a player's words for it (the live pages): no option name, no rule id (``summary``
    #: keeps them for the CLI, the log and a "why?" detail)
    player_label: str = ""
    player_help: str = ""


@dataclass(frozen=True)
class Vocabulary:
    title: str
    fields: tuple[ResultField, ...]
    entries: tuple[ResultEntry, ...]
    #: optional slip CSV columns besides round,table[,winner] (docs/DESIGN.md §8)
    slip_columns: tuple[str, ...] = ("games", "decided_by")
    slip_required: tuple[str, ...] = ("winner",)
    notes: tuple[str, ...] = ()                  # lines printed under the entries
    #: how a round phase reads in messages ("swiss" → "Swiss phase")
    phase_names: tuple[tuple[str, str], ...] = (("swiss", "Swiss phase"),
                                                ("top_cut", "top cut"))

    def phase_name(self, phase: str | None) -> str:
        return dict(self.phase_names).get(phase or "", (phase or "").replace("_", " "))

    # -- lookup ------------------------------------------------------------------------
    def field(self, name: str) -> ResultField:
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(name)

    def options(self) -> str:
        return ", ".join(f.usage for f in self.fields)

    # -- parsing -----------------------------------------------------------------------
    def parse(self, args: Iterable[str]) -> Given:
        """``--winner 8 --games 2-1`` (the options the command did not declare itself)
        → {"winner": 8, "games": [2, 1]}; an option this format does not know is a usage
        error that lists the ones it does."""
        by_opt: dict[str, tuple[ResultField, bool]] = {}
        for f in self.fields:
            by_opt[f.option] = (f, True)
            if f.off:
                by_opt["--" + f.off] = (f, False)
        given: Given = {}
        items = list(args)
        i = 0
        while i < len(items):
            raw = items[i]
            opt, eq, inline = raw.partition("=")
            hit = by_opt.get(opt) if opt.startswith("--") else None
            if hit is None:
                what = f"option {opt}" if opt.startswith("-") else f"argument {raw!r}"
                raise UsageError(f"{self.title} results have no {what}",
                                 hint=f"{self.title} result options: {self.options()} "
                                      "(see 'tourney result codes')")
            f, on = hit
            if f.name in given:
                raise UsageError(f"{f.option} is given twice", hint="give it once")
            if f.kind in (FieldKind.FLAG, FieldKind.SWITCH):
                if eq:
                    raise UsageError(f"{opt} takes no value", hint=f"write {opt} alone")
                given[f.name] = on
                i += 1
                continue
            if eq:
                text = inline
                i += 1
            elif i + 1 < len(items):
                text = items[i + 1]
                i += 2
            else:
                raise UsageError(f"{f.option} needs a value", hint=f"e.g. {f.usage}")
            given[f.name] = read_value(f, text)
        return given

    def from_slip(self, row: Mapping[str, str]) -> Given:
        """The non-empty columns of a slip row named after fields, read as on the
        command line (the format maps its legacy columns first)."""
        given: Given = {}
        for f in self.fields:
            text = (row.get(f.name) or row.get(f.name.replace("_", "-")) or "").strip()
            if not text:
                continue
            if f.kind in (FieldKind.FLAG, FieldKind.SWITCH):
                low = text.lower()
                if low not in ("yes", "true", "1", "no", "false", "0"):
                    raise UsageError(f"column {f.name}: {text!r} is not yes or no")
                given[f.name] = low in ("yes", "true", "1")
            else:
                given[f.name] = read_value(f, text)
        return given

    # -- choosing ----------------------------------------------------------------------
    def entry_for(self, given: Given, phase: str | None) -> ResultEntry:
        """The one entry ``given`` describes in a round of ``phase``; the usage errors say
        which options this format's outcome takes."""
        known = {f.name for f in self.fields}
        for name in given:
            if name not in known:
                raise UsageError(f"{self.title} results have no "
                                 f"{'--' + name.replace('_', '-')}",
                                 hint=f"{self.title} result options: {self.options()}")
        selectors = list(dict.fromkeys(e.selector for e in self.entries))
        chosen = [s for s in selectors if s in given and given[s] is not False]
        first = ", ".join(self.field(s).usage for s in selectors)
        if not chosen:
            raise UsageError("no outcome given", hint=f"{self.title}: exactly one of {first}")
        if len(chosen) > 1:
            names = " and ".join(self.field(s).option for s in chosen)
            raise UsageError(f"{names} are different outcomes",
                             hint=f"{self.title}: exactly one of {first}")
        sel = chosen[0]
        candidates = [e for e in self.entries if e.selector == sel
                      and (not e.value or e.value == given[sel])]
        here = [e for e in candidates if not e.phases or phase is None or phase in e.phases]
        if not here:
            where = " / ".join(self.phase_name(p) for e in candidates for p in e.phases)
            options = ", ".join(dict.fromkeys(
                self.field(e.selector).usage for e in self.entries
                if not e.phases or phase in e.phases))
            raise UsageError(f"{self.field(sel).option} does not exist in the "
                             f"{self.phase_name(phase)} ({candidates[0].summary}; "
                             f"only in the {where})",
                             hint=f"{self.title} outcomes here: {options}")
        entry = here[0]
        allowed = {entry.selector, *entry.takes, *entry.needs}
        where = f" in the {self.phase_name(phase)}" if entry.phases and phase else ""
        for name in given:
            if name not in allowed:
                raise UsageError(f"{self.field(name).option} does not go with "
                                 f"{self.field(sel).option}{where} ({entry.summary})",
                                 hint=_takes_hint(self, entry))
        for name in entry.needs:
            if name not in given:
                raise UsageError(f"{self.field(sel).option} needs "
                                 f"{self.field(name).usage} ({entry.summary})",
                                 hint=f"e.g. {entry.example}" if entry.example else None)
        return entry

    # -- words -------------------------------------------------------------------------
    def help_lines(self) -> list[str]:
        """What ``--help`` and ``tourney result codes`` print for this format."""
        lines = [f"{self.title}:"]
        for e in self.entries:
            phase = f" [{', '.join(self.phase_name(p) for p in e.phases)}]" if e.phases else ""
            lines.append(f"  {e.example or self.field(e.selector).usage}{phase}: {e.summary}")
        lines += [f"  {n}" for n in self.notes]
        return lines


def _takes_hint(v: Vocabulary, entry: ResultEntry) -> str:
    more = [v.field(n).usage for n in (*entry.needs, *entry.takes)]
    return (f"{v.field(entry.selector).option} takes {', '.join(more)}" if more
            else f"{v.field(entry.selector).option} takes no other option")


def read_value(f: ResultField, text: str) -> object:
    """One field's text → its value; a usage error names the option and its form."""
    t = text.strip()
    bad = UsageError(f"{f.option} {text!r} is not {f.metavar or f.kind.value}",
                     hint=f"{f.help} e.g. {f.usage}")
    if f.kind is FieldKind.PLAYER or f.kind is FieldKind.COUNT:
        if not t.isascii() or not t.isdigit() or (f.kind is FieldKind.PLAYER and int(t) < 1):
            raise bad
        return int(t)
    if f.kind is FieldKind.GAMES:
        parts = t.split("-")
        if len(parts) not in (2, 3) or not all(p.isascii() and p.isdigit() for p in parts):
            raise bad
        return [int(p) for p in parts]
    if f.kind is FieldKind.AMOUNTS:
        out: dict[int, int] = {}
        for part in t.split(","):
            num, sep, val = part.strip().partition("=")
            if not sep or not (num + val).isascii() or not num.isdigit() \
                    or not val.isdigit() or int(num) in out:
                raise bad
            out[int(num)] = int(val)
        return out
    if f.kind is FieldKind.ANNEX:
        checkpoints: list[list[list[int]]] = []
        for checkpoint in t.split(";"):
            sides = checkpoint.strip().split("/")
            try:
                if len(sides) != 2:
                    raise ValueError
                checkpoints.append([[int(v) for v in side.split(",")] for side in sides])
            except ValueError:
                raise bad from None
        return checkpoints
    if f.kind is FieldKind.CODE:
        code = t.upper()
        if code not in f.choices:
            message = f"{f.option} {text!r} is not one of {', '.join(f.choices)}"
            hint = "see 'tourney result codes' for what each code means"
            if f.rule:
                raise RuleError(f.rule, message, hint=hint)
            raise UsageError(message, hint=hint)
        return code
    raise bad
