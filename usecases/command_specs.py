"""The desk's commands as data (issue 29 item 3): one description of each official's
command, read off the CLI's own definition, for the HTTP API, its OpenAPI document and
the console's forms.

Owns: ``Param`` and ``CommandSpec`` (what a command takes, its console group, who may
sign it and whether it is saved in one step: ``Steps``),
``Outcome`` (what running one gave: the API's JSON answer and the console's words) and
``CommandRunner`` (what the server is handed to run commands: ``tourney serve`` builds
one from the typer tree, so the server never imports the CLI — ADR 0039's layers).
The CLI's signatures stay the one definition: a spec is derived from them, never
written by hand beside them.

May import: the standard library, ``ledger.wire.keys`` (types only).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from ledger.wire.keys import Signer


class ParamKind(enum.Enum):
    """How a parameter is given: in JSON, and as a form field."""

    TEXT = "text"          # a string
    INTEGER = "integer"
    NUMBER = "number"      # a float
    FLAG = "flag"          # a boolean option (--flag / absent)
    CHOICE = "choice"      # one of ``choices``
    FILE = "file"          # a file's contents (CSV, JSON …): never a path on the server


@dataclass(frozen=True)
class Param:
    """One option or argument of a command.  ``name`` is the long option's name with
    ``_`` for ``-`` (``--seed-material`` → ``seed_material``), or the positional
    argument's name (``number``)."""

    name: str
    kind: ParamKind
    required: bool = False
    default: Any = None
    help: str = ""
    choices: tuple[str, ...] = ()
    positional: bool = False
    multiple: bool = False        # repeatable option: a JSON list
    metavar: str = ""
    opts: tuple[str, ...] = ()    # the CLI's spellings, e.g. ("--round", "-r")
    off: str = ""                 # FLAG: the option that says false (``--overruled``)


class Steps(enum.Enum):
    """How a command is saved: what signing it in a browser (prepare / sign / submit,
    one conversation per save) can promise."""

    ONE = "one"              # its events in one save (an automatic checkpoint after)
    RESUMABLE = "resumable"  # several saves; running it again continues (result import)
    ONCE = "once"            # several saves or fresh randomness: a second run differs,
    #                          so it cannot be prepared and submitted (seed commit, publish)


@dataclass(frozen=True)
class CommandSpec:
    """One command an official may run: ``path`` is ``result/record`` or ``drop``
    (``POST /api/v1/<path>``); ``words`` are the CLI's words (``("result", "record")``)."""

    path: str
    words: tuple[str, ...]
    summary: str
    help: str
    params: tuple[Param, ...]
    roles: tuple[str, ...] = ()   # who may sign it (empty: a read, or any official)
    signed: bool = True           # False: reads only, never writes
    group: str = ""               # the console's panel and the API's tag (``rounds``)
    steps: Steps = Steps.ONE      # how it is saved (a browser key signs ONCE: refused)
    kinds: tuple[str, ...] = ()   # the event kinds it signs (``roles`` come from them)

    @property
    def atomic(self) -> bool:
        """Whether everything it writes is saved at once (or not at all)."""
        return self.steps is Steps.ONE

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)


@dataclass(frozen=True)
class Outcome:
    """What running a command gave.  ``ok``: ``seq`` is the log size after it,
    ``events`` the leaves it wrote (decoded), ``text`` the CLI's lines; a refusal has
    ``error`` (``kind`` usage|rule|verification|storage, ``message``, ``hint``, ``rule``)
    and ``status`` the HTTP status of its class (issue 29 item 3), and wrote nothing —
    but for ``result import``'s partial import (409), whose good rows are written as at
    the terminal: its refusal also carries ``seq``, ``events`` and ``text``."""

    ok: bool
    status: int
    seq: int | None = None
    events: list[Any] = field(default_factory=list)
    receipt: Any = None
    text: str = ""
    error: dict[str, Any] | None = None
    data: Any = None              # the CLI's --json document, when it printed one
    #: files the command wrote for the caller (never a path the caller chose): each
    #: ``{"param", "name", "encoding": "utf-8"|"base64", "content"}``
    files: list[dict[str, str]] = field(default_factory=list)

    def json(self) -> dict[str, Any]:
        if self.ok:
            out = {"ok": True, "seq": self.seq, "events": self.events,
                   "receipt": self.receipt, "text": self.text}
            if self.data is not None:
                out["data"] = self.data
            if self.files:
                out["files"] = self.files
            return out
        if self.events:       # a partial import: what was written, beside the refusal
            return {"ok": False, "error": self.error, "seq": self.seq,
                    "events": self.events, "text": self.text}
        return {"ok": False, "error": self.error}


class CommandRunner(Protocol):
    """Runs the CLI's commands in the server's process, on its long-lived ledger."""

    def specs(self) -> Sequence[CommandSpec]:
        """The commands of the followed event (its format's result options included)."""
        ...

    def run(self, path: str, args: Mapping[str, Any], signer: Signer) -> Outcome:
        """Run ``path`` with ``args`` (by parameter name), signed by ``signer``; a refusal
        is an ``Outcome`` with ``ok=False`` and nothing written."""
        ...

    def preview(self, path: str, args: Mapping[str, Any], signer: Signer) -> Outcome:
        """Decide ``path`` as ``run`` would, without saving: ``events`` are the events
        ``run`` would write now (``seq`` None); nothing is written."""
        ...
