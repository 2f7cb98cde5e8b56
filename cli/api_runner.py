"""The server's command runner (issue 29 item 3): the CLI's own click commands, run in the
server's process on its long-lived ledger, signed by the authenticated official.

Owns: ``ApiRunner`` (``usecases.command_specs.CommandRunner``: ``specs``, ``run``,
``preview``, ``close``), ``argv_for`` (a JSON body → the command line, by the spec:
long options as ``--name=value``, positional arguments by name after ``--``, a FILE's
contents in a private temporary file whose path is passed) and ``outcome_of`` (an
error → the HTTP status of its class and the refusal body).

A call sets ``cli.common.INJECTED`` (the ledger, the signer, the output kept per call)
and runs the command through click exactly as ``tourney`` would, with ``--tournament``
of the followed event; every expected failure is a ``TourneyError`` or a click usage
error and becomes a refusal; anything else propagates (a signer may raise its own
exception to ask for a signature).  Calls are serialized by one lock: the ledger object
is not thread-safe, and the writes of one event are sequential anyway.  ``preview``
decides under ``ledger.storage.dry_run``: the store raises ``DryRun`` where it would
save, carrying the decided events, and nothing is written.

The ledger is opened on the first call, writable (a server that never runs a command
never opens one) and kept: its ``write`` keeps the aggregate in memory between commands
(``Ledger.session``), catching up with what other writers appended.

May import: ``typer``, ``msgspec``, ``cli.*``, ``usecases.*``, ``ledger.*``.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from cli.api_book import OUTCOME_COMMANDS, desk_specs, whole_tree
from cli.api_kinds import SUPPLIED, Supplied, given_back, renamed
from cli.common import INJECTED, Injected
from ledger.errors import (
    RuleError,
    StorageError,
    TourneyError,
    UsageError,
    VerificationError,
)
from usecases.command_specs import CommandSpec, Outcome, Param, ParamKind

try:  # recent typer vendors click
    from typer._click.exceptions import ClickException
except ImportError:  # pragma: no cover - older typer with click as a dependency
    from click.exceptions import ClickException  # type: ignore

if TYPE_CHECKING:
    from ledger.storage.location import Location
    from ledger.storage.store import Ledger
    from ledger.storage.write_session import WriteSession
    from ledger.wire.keys import Signer

#: the findings of ``ledger.core.rules.authorize``'s refusals (RULES-1.3): the signer is
#: not an official, was revoked, or lacks the role — 403, not 409
ROLE_RULE = "RULES-1.3"
ROLE_FINDINGS = frozenset({"unknown_key", "key_revoked", "role_not_permitted"})
_TRUE = frozenset({"true", "on", "yes", "1"})
_FALSE = frozenset({"false", "off", "no", "0", ""})


def refusal(status: int, kind: str, message: str, hint: str | None = None,
            rule: str | None = None) -> Outcome:
    return Outcome(ok=False, status=status, error={"kind": kind, "message": message,
                                                   "hint": hint, "rule": rule})


def outcome_of(err: TourneyError) -> Outcome:
    """A refusal's status and body by its class (docs/API.md "Commands")."""
    rule = getattr(err, "rule", None)
    if isinstance(err, RuleError):
        status = 403 if rule == ROLE_RULE and err.finding in ROLE_FINDINGS else 409
        return refusal(status, "rule", err.message, err.hint, rule)
    if isinstance(err, UsageError):
        return refusal(400, "usage", err.message, err.hint)
    if isinstance(err, VerificationError):
        return refusal(422, "verification", err.message, err.hint)
    if isinstance(err, StorageError):
        return refusal(503, "storage", err.message, err.hint)
    return refusal(500, "internal", err.message, err.hint)


def _flag(value: Any, name: str) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
        return value.strip().lower() in _TRUE
    raise UsageError(f"{name} must be true or false, not {value!r}",
                     hint=f'e.g. "{name}": true')


def _scalar(p: Param, value: Any, files: Callable[[str, str], str]) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise UsageError(f"{p.name} must be a {p.kind.value}, not {value!r}",
                         hint=f"give {p.name} as " + (
                             "a number" if p.kind in (ParamKind.INTEGER, ParamKind.NUMBER)
                             else "a string"))
    if p.kind is ParamKind.FILE:
        if not isinstance(value, str):
            raise UsageError(f"{p.name} is a file's contents, a string",
                             hint=f'e.g. "{p.name}": "number,name\\n1,Ann\\n"')
        return files(p.name, value)
    if p.kind is ParamKind.INTEGER and isinstance(value, float):
        raise UsageError(f"{p.name} must be a whole number, not {value!r}")
    if p.kind is ParamKind.CHOICE and p.choices and str(value) not in p.choices and \
            str(value).upper() not in p.choices:
        raise UsageError(f"{p.name} {value!r} is not one of {', '.join(p.choices)}",
                         hint=f"choose one of {', '.join(p.choices)}")
    return str(value)


def argv_for(spec: CommandSpec, args: Mapping[str, Any],
             files: Callable[[str, str], str]) -> list[str]:
    """The command line of ``spec`` with ``args`` (see the module docstring); ``files``
    stores a FILE's contents and returns the path to pass."""
    unknown = sorted(set(args) - {p.name for p in spec.params})
    if unknown:
        takes = ", ".join(p.name for p in spec.params) or "nothing"
        raise UsageError(f"{spec.path} has no parameter {', '.join(unknown)}",
                         hint=f"it takes: {takes} (GET /api/v1/openapi.json)")
    options: list[str] = []
    positional: list[str] = []
    for p in spec.params:
        if p.name not in args or args[p.name] is None:
            continue
        value = args[p.name]
        if p.kind is ParamKind.FLAG:
            on = _flag(value, p.name)
            if on:
                options.append(p.opts[0])
            elif p.off:
                options.append(p.off)
            continue
        values = value if isinstance(value, list) else [value]
        if len(values) > 1 and not p.multiple:
            raise UsageError(f"{p.name} takes one value, not a list",
                             hint=f'e.g. "{p.name}": {values[0]!r}')
        texts = [_scalar(p, v, files) for v in values]
        if p.positional:
            positional += texts
        else:
            options += [f"{p.opts[0]}={t}" for t in texts]
    return [*spec.words, *options, *(["--", *positional] if positional else [])]


class _Kept:
    """The server's ledger as a command sees it: ``write`` through one kept writer
    session per tournament (the aggregate stays in memory between commands); everything
    else is the ledger's own."""

    def __init__(self, led: Ledger) -> None:
        self._led = led
        self._sessions: dict[str, WriteSession] = {}

    def write(self, log: str, command: Callable[[Any, str], Any], *,
              retries: int = 8) -> Any:
        session = self._sessions.get(log)
        if session is None:
            session = self._sessions[log] = self._led.session(log)
        return session.write(command, retries=retries)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._led, name)


class ApiRunner:
    """``CommandRunner`` over the ledger at ``location``, for tournament ``tournament``
    (None: the only one)."""

    def __init__(self, location: Location, tournament: str | None = None,
                 publish_dir: Path | None = None) -> None:
        self.location, self.tournament = location, tournament
        self.publish_dir = publish_dir    # where ``publish`` writes (tourney serve's)
        self._lock = threading.RLock()
        self._tree: Any = None
        self._ledger: Ledger | None = None
        self._kept: _Kept | None = None
        self._log: str | None = None
        self._specs: dict[str, CommandSpec] | None = None

    # -- what it runs -----------------------------------------------------------------
    def specs(self) -> Sequence[CommandSpec]:
        return list(self._spec_map().values())

    def spec(self, path: str) -> CommandSpec | None:
        return self._spec_map().get(path)

    def _spec_map(self) -> dict[str, CommandSpec]:
        with self._lock:
            if self._specs is None:
                led, log = self._open()
                fmt = led.load(log).state.format
                self._specs = {s.path: s for s in desk_specs(self._cli(), fmt.id if fmt
                                                             else None)}
            return self._specs

    def _cli(self) -> Any:
        if self._tree is None:
            self._tree = whole_tree()
        return self._tree

    def _open(self) -> tuple[Ledger, str]:
        if self._ledger is None:
            import ledger.formats.registry  # noqa: F401  (plugs the formats into the core)
            from ledger.storage.store import Ledger

            if not self.location.is_postgres:
                # as the station: a long-lived writer puts the file in WAL first
                from ledger.storage import sqlite_probe as sq

                if self.location.path.exists() and \
                        not sq.holds_wal_header(self.location.path):
                    sq.switch_to_wal(self.location.path)
            led = Ledger(self.location)
            try:
                self._log = led.resolve(self.tournament)
            except BaseException:
                led.close()
                raise
            self._ledger, self._kept = led, _Kept(led)
        return self._ledger, str(self._log)

    def close(self) -> None:
        with self._lock:
            led, self._ledger, self._kept = self._ledger, None, None
            if led is not None:
                led.close()

    # -- running ----------------------------------------------------------------------
    def run(self, path: str, args: Mapping[str, Any], signer: Signer) -> Outcome:
        """Run ``path`` with ``args`` signed by ``signer`` (see the module docstring)."""
        return self._call(path, args, signer, dry=False)

    def preview(self, path: str, args: Mapping[str, Any], signer: Signer) -> Outcome:
        """Decide ``path`` without saving: ``events`` are what ``run`` would write now
        (``seq`` None); a refusal is the refusal ``run`` would give."""
        return self._call(path, args, signer, dry=True)

    def _call(self, path: str, args: Mapping[str, Any], signer: Signer, *,
              dry: bool) -> Outcome:
        from ledger.storage.dry_run import DRY_RUN, DryRun

        try:
            spec = self.spec(path)
        except TourneyError as err:
            return outcome_of(err)
        if spec is None:
            return refusal(404, "usage", f"there is no command {path!r}",
                           "see GET /api/v1/openapi.json for the commands")
        made: list[Path] = []      # a private directory, made only for a FILE's contents
        sent: list[tuple[str, str]] = []    # (temporary path, the parameter's name)
        try:
            def files(name: str, text: str) -> str:
                if not made:
                    made.append(Path(tempfile.mkdtemp(prefix="tourney-api-")))
                target = made[0] / f"{name}-{len(os.listdir(made[0]))}"
                target.write_text(text, encoding="utf-8")
                sent.append((str(target), name))
                return str(target)
            with self._lock:
                try:
                    argv = argv_for(spec, args, files)
                    returned = self._supply(path, argv, made)
                    led, log = self._open()
                    before = _size(led, log)
                except TourneyError as err:
                    return outcome_of(err)
                inj = Injected(ledger=self._kept, signer=signer, location=self.location)
                token, dry_token = INJECTED.set(inj), DRY_RUN.set(dry)
                decided: list[Any] | None = None
                failed: Outcome | None = None
                code: Any = 0
                try:
                    # a command's non-zero ``typer.Exit`` is click's return value here
                    code = self._cli().main(args=["--tournament", log, *argv],
                                            prog_name="tourney", standalone_mode=False)
                except DryRun as done:
                    decided = done.events
                except TourneyError as err:
                    failed = outcome_of(err)
                except ClickException as exc:
                    failed = refusal(400, "usage", exc.format_message().replace("\n", " "),
                                     f"see the parameters of {path} in "
                                     "GET /api/v1/openapi.json")
                finally:
                    DRY_RUN.reset(dry_token)
                    INJECTED.reset(token)
                if failed is not None:
                    return _unsent(failed, sent)
                if decided is not None:
                    return Outcome(ok=True, status=200, seq=None,
                                   events=[msgspec.json.decode(e.leaf) for e in decided],
                                   text=_said(inj), data=inj.data[-1] if inj.data else None)
                leaves = list(led.raw_leaves(log, after=before))
                seq = leaves[-1][0] if leaves else before
                given = given_back(returned, seq)
        finally:
            for tmp in made:
                shutil.rmtree(tmp, ignore_errors=True)
        text, data = _said(inj), inj.data[-1] if inj.data else None
        # the caller never sees the server's temporary paths: a file given back by its
        # name, a file sent by its parameter's
        for where, name in [*((w, f["name"]) for f, w in given), *sent]:
            text, data = text.replace(where, name), renamed(data, where, name)
        events = [msgspec.json.decode(leaf) for _, leaf in leaves]
        if isinstance(code, int) and code:
            # ``result import``'s partial import: its good rows are written (as at the
            # terminal, exit 3); the refusal says which were, and which rows were refused
            return Outcome(ok=False, status=409, seq=seq, events=events, text=text,
                           data=data, error={"kind": "rule",
                                             "message": _unpathed(" ".join(inj.lines), sent),
                                             "hint": _unpathed("; ".join(
                                                 n.removeprefix("error: ") for n in inj.notes),
                                                 sent) or None, "rule": None})
        return Outcome(ok=True, status=200, seq=seq, events=events,
                       receipt=_receipt(spec, log, leaves), text=text, data=data,
                       files=[f for f, _ in given])

    def _supply(self, path: str, argv: list[str], made: list[Path]
                ) -> list[tuple[str, Path, str]]:
        """Add to ``argv`` the parameters of ``path`` the command writes to
        (``cli.api_kinds.SUPPLIED``): never a path the caller chose.  Returns (parameter,
        file, name given) of those whose file goes back in the answer."""
        returned: list[tuple[str, Path, str]] = []
        for (cmd, name), (opt, where, shown) in SUPPLIED.items():
            if cmd != path:
                continue
            if where is Supplied.PUBLISH_DIR:
                if self.publish_dir is None:
                    raise UsageError("this server publishes to no directory",
                                     hint="restart it with 'tourney serve --publish-dir "
                                          "DIR', or run 'tourney publish DIR' at the desk")
                target = self.publish_dir
            else:
                if not made:
                    made.append(Path(tempfile.mkdtemp(prefix="tourney-api-")))
                target = made[0] / f"{name}-returned"
                returned.append((name, target, shown))
            if opt:
                at = argv.index("--") if "--" in argv else len(argv)
                argv.insert(at, f"{opt}={target}")
            else:
                argv += [str(target)] if "--" in argv else ["--", str(target)]
        return returned


def _unpathed(words: str, sent: list[tuple[str, str]]) -> str:
    for where, name in sent:
        words = words.replace(where, name)
    return words


def _unsent(out: Outcome, sent: list[tuple[str, str]]) -> Outcome:
    """A refusal naming a file the caller sent by its parameter, not the server's
    temporary path (``file line 2: …``)."""
    if not sent or out.error is None:
        return out
    return replace(out, error={k: _unpathed(v, sent) if isinstance(v, str) else v
                               for k, v in out.error.items()})


def _said(inj: Injected) -> str:
    return "\n".join([*inj.lines, *inj.notes])


def _size(led: Ledger, log: str) -> int:
    rows = led.app.recorder.select_events(log, desc=True, limit=1)
    return int(rows[0].originator_version) if rows else 0


def _receipt(spec: CommandSpec, log: str, leaves: list[tuple[int, bytes]]) -> Any:
    """The receipt of the result a result command recorded (its first event), else
    None."""
    if not leaves or spec.words[0] != "result":
        return None
    from ledger.wire.receipt import Receipt

    seq, leaf = leaves[0]
    return msgspec.to_builtins(Receipt.of(log, seq, leaf))


__all__ = ["OUTCOME_COMMANDS", "ApiRunner", "argv_for", "outcome_of", "refusal"]
