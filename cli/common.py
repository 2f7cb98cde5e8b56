"""Shared plumbing of the CLI: global options, the per-command session, and output.

Owns: ``Globals`` (the root options ``--ledger/--key/--tournament/--checkpoints/--json``
and their environment variables), the option aliases every command reuses (``KeyOpt``,
``JsonOpt``), ``Session`` (merges a command's own ``--key``/``--json`` with the global
ones, opens the ledger, loads the signer, resolves the tournament and its checkpoint
directory) and the output helpers: ``emit`` (exactly one JSON document on stdout in
``--json`` mode, plain lines otherwise), ``report_error`` (what the one catch point in
``cli.main.run`` prints), ``event_json`` / ``write_result`` / ``events_brief`` /
``seq_span`` for signed events, and ``auto_checkpoint`` (the checkpoint a head judge's
command writes after pairings, results, the cut and the bracket).

Nothing here catches errors: every expected failure is a ``ledger.errors.TourneyError``
that propagates to ``cli.main.run``.

The injection seam (``INJECTED``, ``Injected``; issue 29 item 3, ``cli.api_runner``): while
a call of the server's command runner sets it, ``Session`` gives that call's ledger (the
server's long-lived one, never closed here), signer (the authenticated official's) and
location, and ``emit``/``note`` keep the command's output in the call's ``Injected``
instead of writing to the process's stdout/stderr.  Unset (the CLI), nothing changes.

May import: ``typer``, ``msgspec``, ``ledger.*`` (ledger.storage.store lazily: it pulls in
``eventsourcing``, which commands such as ``keys`` do not need).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import msgspec
import typer

from ledger.errors import TourneyError, UsageError

if TYPE_CHECKING:
    from ledger.core.state import TournamentState
    from ledger.storage.location import Location
    from ledger.storage.reader import LeafSource, LedgerSource, SqliteReader
    from ledger.storage.store import Ledger
    from ledger.wire.events import SignedEvent
    from ledger.wire.keys import Signer

TOURNAMENT_ENV = "TOURNEY_TOURNAMENT"
KEY_ENV = "TOURNEY_KEY"
CHECKPOINTS_ENV = "TOURNEY_CHECKPOINTS"
LEDGER_ENV = "TOURNEY_LEDGER"

KeyOpt = Annotated[Path | None, typer.Option(
    "--key", metavar="FILE", show_default=False,
    help="Private key file that signs (same as the global --key / TOURNEY_KEY).")]
JsonOpt = Annotated[bool, typer.Option(
    "--json", help="Print exactly one JSON document on stdout (same as the global --json).")]

_json_seen = False  # set as soon as any --json is parsed; read by the catch point


@dataclass
class Injected:
    """One in-process call of the server's command runner (see the module docstring):
    what ``Session`` uses instead of the options, and what the command said."""

    ledger: Any                       # the server's open ``Ledger`` (or a stand-in for it)
    signer: Any                       # the official's ``Signer`` (or a stand-in for it)
    location: Location
    data: list[Any] = field(default_factory=list)     # every ``emit``'s document
    lines: list[str] = field(default_factory=list)    # every ``emit``'s lines
    notes: list[str] = field(default_factory=list)    # every ``note``


#: set by ``cli.api_runner`` around one command it runs in the server's process
INJECTED: ContextVar[Injected | None] = ContextVar("tourney_injected", default=None)


@dataclass
class Globals:
    """The root options, after typer applied the environment variables."""

    ledger: str | None = None
    key: Path | None = None
    tournament: str | None = None
    checkpoints: list[Path] = field(default_factory=list)
    json: bool = False


def json_requested(argv: list[str] | None = None) -> bool:
    """Whether the current invocation asked for JSON (also before options were parsed)."""
    if _json_seen:
        return True
    args = sys.argv[1:] if argv is None else argv
    if "--" in args:
        args = args[:args.index("--")]
    return "--json" in args


def set_json(value: bool) -> None:
    global _json_seen
    _json_seen = _json_seen or value


def _globals(ctx: typer.Context) -> Globals:
    root = ctx.find_root()
    obj = root.obj
    return obj if isinstance(obj, Globals) else Globals()


class Session:
    """One command's view of the options, merged with the global ones."""

    def __init__(self, ctx: typer.Context, *, key: Path | None = None,
                 json: bool = False) -> None:
        g = _globals(ctx)
        self.g = g
        self.injected = INJECTED.get()
        # injected: the lines are built too (the API answers with both)
        self.json = False if self.injected is not None else json or g.json
        if self.injected is None:
            set_json(self.json)
        self._key = key or g.key

    # -- inputs --------------------------------------------------------------------------
    @property
    def location(self) -> Location:
        if self.injected is not None:
            return self.injected.location
        from ledger.storage.location import location_from
        return location_from(self.g.ledger)

    def key_path(self) -> Path:
        if self._key is None:
            raise UsageError("this command is signed but no key was given",
                             hint=f"pass --key FILE or set {KEY_ENV}")
        return self._key

    def signer(self) -> Signer:
        if self.injected is not None:
            signer: Signer = self.injected.signer
            return signer
        from ledger.wire.keys import load_signer
        return load_signer(self.key_path())

    @contextmanager
    def ledger(self, *, create: bool = False, readonly: bool = False) -> Iterator[Ledger]:
        """The ledger; ``readonly`` for commands that only read (they work on write-
        protected media and never change the file)."""
        import ledger.formats.registry  # noqa: F401  (plugs the formats into the core)
        from ledger.storage.store import Ledger
        if self.injected is not None and not create:
            yield self.injected.ledger     # the server's: it stays open
            return
        with Ledger(self.location, create=create, readonly=readonly) as led:
            yield led

    @contextmanager
    def reader(self) -> Iterator[SqliteReader | LedgerSource]:
        """The ledger's read path for commands that only read the state and raw leaves:
        a SQLite file through ``sqlite3`` alone, verified as ``Ledger.load`` verifies
        (``ledger.storage.reader``; issue 22)."""
        import ledger.formats.registry  # noqa: F401  (plugs the formats into the core)
        from ledger.storage.reader import open_reader
        with open_reader(self.location) as src:
            yield src

    def tournament(self, ledger: Ledger | LeafSource) -> str:
        return ledger.resolve(self.g.tournament)

    def checkpoint_override(self) -> Path | None:
        """The one ``--checkpoints DIR`` of a command that reads or writes one directory
        (given twice it cannot apply: exit 2)."""
        dirs = self.g.checkpoints
        if len(dirs) > 1:
            raise UsageError(f"--checkpoints was given {len(dirs)} times; this command uses "
                             "one checkpoint directory",
                             hint="pass it once (several are for 'tourney audit verify')")
        return dirs[0] if dirs else None

    def checkpoint_dir(self, ledger: Ledger, log: str) -> Path:
        """Where note files of this log are written and read (``--checkpoints DIR`` or the
        default ``<ledger>.checkpoints/``, then ``<id>-<genesis hash>/``; issue 17,
        defect 8: keyed by the log, never by its name)."""
        from ledger.proofs.checkpoint_store import checkpoint_dir, genesis_of
        return checkpoint_dir(self.location, self.checkpoint_override(), log,
                              genesis_of(ledger, log))

    def checkpoint_files(self, ledger: Ledger, log: str) -> list[Path]:
        """The note files of this log: its directory's, then those of the old name-keyed
        directory that are this log's (``legacy_note_files``)."""
        from ledger.proofs.checkpoint_store import legacy_note_files, list_checkpoint_files
        return [*list_checkpoint_files(self.checkpoint_dir(ledger, log)),
                *legacy_note_files(ledger, self.location, self.checkpoint_override(), log)]

    # -- output --------------------------------------------------------------------------
    def emit(self, data: Any, lines: str | Iterable[str] = ()) -> None:
        """JSON mode: ``data`` as one document; otherwise ``lines`` on stdout."""
        emit(self.json, data, lines)


def emit(json_mode: bool, data: Any, lines: str | Iterable[str] = ()) -> None:
    """Print ``data`` as JSON, or ``lines`` for a terminal with every control, bidi or
    line-separator character shown as a visible ``\\uXXXX`` escape (issue 12, defect 9:
    a foreign log's text can never move the cursor, recolour or reorder a posted table)."""
    from ledger.wire.text import escape_display

    inj = INJECTED.get()
    if inj is not None:
        if data is not None:
            inj.data.append(data)
        inj.lines.extend([lines] if isinstance(lines, str) else lines)
        return
    if json_mode:
        sys.stdout.write(msgspec.json.encode(data).decode("utf-8") + "\n")
    else:
        sys.stdout.write("".join(escape_display(line) + "\n" for line in
                                 ([lines] if isinstance(lines, str) else lines)))
    sys.stdout.flush()


def note(message: str) -> None:
    """A diagnostic line on stderr (never stdout, so --json stays one document), escaped
    like ``emit``."""
    from ledger.wire.text import escape_display

    inj = INJECTED.get()
    if inj is not None:
        inj.notes.append(message)
        return
    sys.stderr.write(escape_display(message) + "\n")
    sys.stderr.flush()


def report_error(err: TourneyError, json_mode: bool) -> None:
    """The one error printer: one line on stderr, plus ``to_json()`` on stdout with --json."""
    if json_mode:
        doc = err.to_json()
        detail = doc.get("error")
        if isinstance(detail, dict):  # a refusal also names its rule and audit code
            for attr in ("rule", "finding"):
                if isinstance(getattr(err, attr, None), str):
                    detail.setdefault(attr, getattr(err, attr))
        sys.stdout.write(msgspec.json.encode(doc).decode("utf-8") + "\n")
        sys.stdout.flush()
    note(err.cli_message())


def event_json(ev: SignedEvent) -> Any:
    """The decoded leaf of a signed event (what JSON output shows of events)."""
    return msgspec.json.decode(ev.leaf)


def write_result(ev: SignedEvent, **extra: Any) -> dict[str, Any]:
    """The JSON document of a command that appended one event."""
    return {"ok": True, "tournament": ev.log, "seq": ev.seq, "kind": ev.kind,
            "leaf_hash": ev.leaf_hash_hex, **extra, "event": event_json(ev)}


def env_or_none(name: str) -> str | None:
    return os.environ.get(name) or None


def is_hex(text: str, length: int) -> bool:
    return len(text) == length and all(c in "0123456789abcdef" for c in text)


def read_file_bytes(path: Path, what: str) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise UsageError(f"{what} {path} not found", hint="check the path") from None
    except IsADirectoryError:
        raise UsageError(f"{what} {path} is a directory", hint="pass a file") from None
    except OSError as exc:
        raise UsageError(f"cannot read {what} {path}: {exc.strerror}") from None


def events_brief(events: Iterable[SignedEvent]) -> list[dict[str, Any]]:
    """What a multi-event command prints of the events it wrote: seq, kind, leaf hash."""
    return [{"seq": e.seq, "kind": e.kind, "leaf_hash": e.leaf_hash_hex} for e in events]


def seq_span(events: list[SignedEvent]) -> str:
    """``seq 7`` or ``seqs 7..10`` for a non-empty list of written events."""
    first, last = events[0].seq, events[-1].seq
    return f"seq {first}" if first == last else f"seqs {first}..{last}"


@dataclass(frozen=True)
class WrittenCheckpoint:
    """A checkpoint a command signed: stored in the ledger, maybe mirrored to a file."""

    size: int
    root: bytes
    path: Path | None = None

    def json(self) -> dict[str, Any]:
        return {"size": self.size, "root": self.root.hex(), "stored": "ledger",
                "path": None if self.path is None else str(self.path)}

    def __str__(self) -> str:
        where = "in the ledger" + (f" and {self.path}" if self.path else "")
        return f"size {self.size}, root {self.root.hex()[:16]}… ({where})"


def auto_checkpoint(s: Session, ledger: Ledger, log: str, signer: Signer, done: str,
                    state: TournamentState | None = None) -> WrittenCheckpoint | None:
    """docs/DESIGN.md §4's automatic checkpoint after a command: written when ``signer`` is a
    head judge (else None).  ``done`` says what was already written if it fails;
    ``state`` is the tournament as just saved (so nothing is read again)."""
    from ledger.proofs.checkpoint_store import checkpoint_if_head_judge

    mirror = s.checkpoint_dir(ledger, log)  # also as files: reveal, publish and witnesses read them
    try:
        cp = checkpoint_if_head_judge(ledger, log, signer, mirror, state=state)
    except TourneyError:
        note(f"{done}, but the checkpoint failed")
        raise
    if cp is None:
        return None
    return WrittenCheckpoint(cp.size, cp.root, mirror / f"{cp.size}.note")


_PLACEHOLDER_WORDS = r"\b(what the randomizer|placeholder|todo|tbd|fixme|change ?me|" \
                     r"your seed|insert seed|lorem ipsum)\b"


def check_seed_material(material: str, option: str) -> str:
    """Refuse seed material that looks like a placeholder (a README's ``"<…>"``, ``…``,
    TODO): it would be signed into the log forever as a real randomizer's output."""
    import re

    text = material.strip()
    if not text:
        raise UsageError(f"{option} is empty", hint="enter exactly what the randomizer gave")
    low = text.casefold()
    if re.fullmatch(r"[\s.…\-_?*]*|(x[\s\-]*){3,}", low) or re.search(r"<[^<>]*>", text) or \
            re.search(_PLACEHOLDER_WORDS, low):
        raise UsageError(f"{option} {material!r} looks like a placeholder, not randomizer "
                         "output", hint="type exactly what the randomizer showed, e.g. "
                                        f"{option} \"4 17 33 52 61\"; nothing was written")
    return material
