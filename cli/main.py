"""The ``tourney`` command (docs/DESIGN.md §8): the Typer app and the ONE catch point.

Owns: the root app with its global options (``--ledger``, ``--key``, ``--tournament``,
``--checkpoints``, ``--json`` and their environment variables), the command tree (one
sub-app per noun, top-level verbs), and ``run()`` — the console-script entry point and
the only place that turns exceptions into exit codes:

* ``TourneyError`` → its one-line ``cli_message()`` on stderr (and ``to_json()`` on
  stdout with ``--json``), exit ``err.exit_code``;
* usage errors of the option parser → one line on stderr, exit 2;
* anything else → ``internal error: …``, exit 1 (with the traceback if TOURNEY_DEBUG is
  set).

May import: ``typer``, ``cli.*``, ``ledger.errors`` (command modules import the rest).
"""

from __future__ import annotations

import copy
import importlib
import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from cli.common import (
    CHECKPOINTS_ENV,
    KEY_ENV,
    LEDGER_ENV,
    TOURNAMENT_ENV,
    Globals,
    emit,
    json_requested,
    note,
    report_error,
    set_json,
)
from ledger.errors import ExitCode, TourneyError, UsageError

try:  # recent typer vendors click
    from typer._click.exceptions import ClickException, NoArgsIsHelpError
except ImportError:  # pragma: no cover - older typer with click as a dependency
    from click.exceptions import ClickException, NoArgsIsHelpError  # type: ignore

DEBUG_ENV = "TOURNEY_DEBUG"
#: Commands that neither read nor write checkpoints: ``--checkpoints`` is a usage error.
NO_CHECKPOINTS = frozenset({"keys", "init", "official", "player", "seed", "draw", "log",
                            "standings", "backup"})

def _version() -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    try:
        return dist_version("tourney-ledger")
    except PackageNotFoundError:  # a bare checkout on PYTHONPATH
        return "unknown (not installed)"


def _print_version(value: bool) -> None:
    if value:
        sys.stdout.write(f"tourney {_version()} (wire format tourney-leaf/v1, DRAW-v1)\n")
        raise typer.Exit(0)


def root(
    ctx: typer.Context,
    ledger: Annotated[str | None, typer.Option(
        "--ledger", metavar="PATH|URL", envvar=LEDGER_ENV, show_default=False,
        help="SQLite file or postgresql:// URL (default: ./tournament.db).")] = None,
    key: Annotated[Path | None, typer.Option(
        "--key", metavar="FILE", envvar=KEY_ENV, show_default=False,
        help="Private key file that signs commands.")] = None,
    tournament: Annotated[str | None, typer.Option(
        "--tournament", metavar="ID", envvar=TOURNAMENT_ENV, show_default=False,
        help="Tournament id (default: the only tournament in the ledger).")] = None,
    checkpoints: Annotated[list[Path] | None, typer.Option(
        "--checkpoints", metavar="DIR", envvar=CHECKPOINTS_ENV, show_default=False,
        help="Checkpoint directory (default: <ledger>.checkpoints/, notes in <id>-<hash>/); repeatable for "
             "'audit verify', where every note of every DIR binds the audit.")] = None,
    json: Annotated[bool, typer.Option(
        "--json", help="Exactly one JSON document on stdout; diagnostics on stderr.")]
        = False,
    version: Annotated[bool, typer.Option(
        "--version", is_eager=True, callback=_print_version,
        help="Print the version and exit.")] = False,
) -> None:
    """Audit-grade tournament ledger: every decision is a signed, hash-chained event.

    Example: tourney --ledger spring.db init --name "Spring Open" --format hotc-swiss-de --key hj.pem
    """
    set_json(json)
    if checkpoints and ctx.invoked_subcommand in NO_CHECKPOINTS:
        raise UsageError(f"--checkpoints does not apply to 'tourney {ctx.invoked_subcommand}'",
                         hint="drop the option; it applies to commands that read or write "
                              "checkpoints (audit verify, checkpoint, proof, export, …)")
    ctx.obj = Globals(ledger=ledger or None, key=key, tournament=tournament or None,
                      checkpoints=list(checkpoints or []), json=json)


_SETUP, _RANDOM, _LOG = "Set up and registration", "Randomness", "Log and proofs"
_AUDIT, _PLAY, _CUT = "Audit", "Rounds and results", "Top cut and standings"
_SIM, _OFF = "Simulation", "Officiating"

#: The command tree: name -> (module, attribute, is a sub-app, help panel).  Modules are
#: imported only for the command being run (start-up is most of a command's latency).
COMMANDS: dict[str, tuple[str, str, bool, str]] = {
    "keys": ("keys_cmd", "app", True, _SETUP),
    "init": ("tournament_cmd", "init", False, _SETUP),
    "official": ("officials_cmd", "app", True, _SETUP),
    "player": ("players_cmd", "app", True, _SETUP),
    "team": ("team_cmd", "app", True, _SETUP),
    "registration": ("tournament_cmd", "registration_app", True, _SETUP),
    "seed": ("random_cmd", "seed_app", True, _RANDOM),
    "draw": ("random_cmd", "draw", False, _RANDOM),
    "round": ("round_cmd", "app", True, _PLAY),
    "result": ("results_cmd", "app", True, _PLAY),
    "drop": ("results_cmd", "drop", False, _PLAY),
    "forfeit": ("wot_cmd", "forfeit", False, _PLAY),
    "tbp-override": ("wot_cmd", "tbp_override", False, _PLAY),
    "slowplay": ("slowplay_cmd", "app", True, _PLAY),
    "penalty": ("penalty_cmd", "app", True, _OFF),
    "disqualify": ("penalty_cmd", "disqualify", False, _OFF),
    "undrop": ("corrections_cmd", "undrop", False, _OFF),
    "level": ("corrections_cmd", "level_amend", False, _OFF),
    "ruling": ("floor_cmd", "ruling", False, _OFF),
    "appeal": ("floor_cmd", "appeal_app", True, _OFF),
    "deck": ("deck_cmd", "deck_app", True, _OFF),
    "announce": ("announce_cmd", "announce", False, _OFF),
    "call": ("call_cmd", "app", True, _OFF),
    "floor": ("call_cmd", "floor_app", True, _OFF),
    "cut": ("cut_cmd", "cut", False, _CUT),
    "bracket": ("cut_cmd", "bracket", False, _CUT),
    "standings": ("standings_cmd", "standings", False, _CUT),
    "simulate": ("simulate_cmd", "simulate", False, _SIM),
    "log": ("log_cmd", "log", False, _LOG),
    "info": ("tournament_cmd", "info", False, _LOG),
    "checkpoint": ("log_cmd", "checkpoint", False, _LOG),
    "proof": ("log_cmd", "proof", False, _LOG),
    "consistency": ("log_cmd", "consistency", False, _LOG),
    "export": ("audit_cmd", "export", False, _AUDIT),
    "backup": ("backup_cmd", "backup", False, _AUDIT),
    "publish": ("publish_cmd", "publish", False, _AUDIT),
    "serve": ("serve_cmd", "serve", False, _AUDIT),
    "audit": ("audit_cmd", "app", True, _AUDIT),
    "witness": ("witness_cmd", "app", True, _AUDIT),
    "pages": ("pages_cmd", "app", True, _AUDIT),
    "report": ("report_cmd", "app", True, _PLAY),
}
#: Commands of a group defined in another module (officiating adds to 'round',
#: 'result' and 'player'): group -> (command, module, attribute).
GROUP_EXTRAS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "round": (("start", "floor_cmd", "round_start"), ("time", "floor_cmd", "round_time"),
              ("extend", "floor_cmd", "round_extend"),
              ("override", "corrections_cmd", "round_override"),
              ("void", "corrections_cmd", "round_void"),
              ("post", "pages_cmd", "round_post")),
    "result": (("eom", "floor_cmd", "result_eom"),
               ("amend", "corrections_cmd", "result_amend"),
               ("wrong-table", "corrections_cmd", "result_wrong_table")),
    "player": (("late", "corrections_cmd", "player_late"),
               ("cards", "cards_cmd", "player_cards"), ("card", "cards_cmd", "player_card")),
    "official": (("card", "cards_cmd", "official_card"),),
}
#: Root options that may also be written after the sub-command (docs/DESIGN.md §8).
GLOBAL_VALUE_OPTIONS = ("--ledger", "--key", "--tournament", "--checkpoints")
GLOBAL_FLAG_OPTIONS = ("--json",)


def _group(name: str, group: typer.Typer, leaf: str | None) -> typer.Typer:
    """A copy of ``group`` with its commands from other modules (``GROUP_EXTRAS``), reduced
    to its command ``leaf`` when it has one by that name: typer builds every command of a
    group it runs, reading each signature, so only the one being run is imported."""
    from typer.models import CommandInfo

    commands = list(group.registered_commands)
    for sub, module, attr in GROUP_EXTRAS.get(name, ()):
        if leaf is None or leaf == sub:
            fn = getattr(importlib.import_module(f"cli.{module}"), attr)
            # a command may say how typer builds it (a result command takes the format's
            # outcome options: ``cli.result_options.OUTCOME_SETTINGS``)
            commands.append(CommandInfo(name=sub, callback=fn,
                                        **getattr(fn, "command_options", {})))
    keep = [c for c in commands if c.name == leaf]
    reduced = copy.copy(group)
    reduced.registered_commands = keep if keep and not group.registered_groups else commands
    return reduced


def register(target: typer.Typer, names: Iterable[str], leaf: str | None = None) -> typer.Typer:
    """Add the named commands (imported now) to ``target``; a sub-app with only its
    command ``leaf`` when that is given."""
    for name in names:
        module, attr, group, panel = COMMANDS[name]
        obj = getattr(importlib.import_module(f"cli.{module}"), attr)
        if group:
            target.add_typer(_group(name, obj, leaf), name=name, rich_help_panel=panel)
        else:
            target.command(name, rich_help_panel=panel)(obj)
    return target


def build_app(names: Iterable[str] | None = None, leaf: str | None = None) -> typer.Typer:
    """A fresh root app with the named commands (all of them by default)."""
    fresh = typer.Typer(name="tourney", no_args_is_help=True,
                        pretty_exceptions_enable=False, add_completion=False)
    fresh.callback()(root)
    return register(fresh, COMMANDS if names is None else names, leaf)


def __getattr__(name: str) -> Any:
    """``cli.main.app``: the whole command tree (for tests and tools walking it)."""
    if name == "app":
        whole = build_app()
        globals()["app"] = whole
        return whole
    raise AttributeError(name)


def _takes_value(param: Any) -> bool:
    return not (getattr(param, "is_flag", False) or getattr(param, "count", False))


def hoist_globals(argv: list[str], names_of: Callable[[list[str]], Any]) -> list[str]:
    """Move global options written after the sub-command to the front, so ``tourney
    result record … --ledger X`` means ``tourney --ledger X result record …``.

    ``names_of(path)`` gives the click command at a sub-command path.  A command's own
    option of the same name (``--key``, ``--json``) means the same and stays; a token
    that is the value of a command option is never taken for a global option."""
    head: list[str] = []
    rest: list[str] = []
    path: list[str] = []
    cmd = names_of([])
    i = 0
    while i < len(argv):
        tok = argv[i]
        if tok == "--":
            rest.extend(argv[i:])
            break
        if tok.startswith("--"):
            opt = tok.split("=", 1)[0]
            own = {n: p for p in getattr(cmd, "params", []) for n in p.opts}
            if path and opt not in own and opt in GLOBAL_VALUE_OPTIONS + GLOBAL_FLAG_OPTIONS:
                take = 2 if opt in GLOBAL_VALUE_OPTIONS and "=" not in tok else 1
                head.extend(argv[i:i + take])
                i += take
                continue
            rest.append(tok)
            if opt in own and _takes_value(own[opt]) and "=" not in tok and i + 1 < len(argv):
                rest.append(argv[i + 1])
                i += 1
            i += 1
            continue
        rest.append(tok)
        sub = getattr(cmd, "commands", None)
        if sub is not None and tok in sub:
            path.append(tok)
            cmd = sub[tok]
        i += 1
    return head + rest


def _command_words(argv: list[str]) -> tuple[str | None, str | None]:
    """The sub-command named on the command line (after the root options), if known, and
    the word after it (a group's command, when it is one)."""
    i = 0
    while i < len(argv):
        tok = argv[i]
        if tok in GLOBAL_VALUE_OPTIONS:
            i += 2
            continue
        if tok.startswith("-"):
            i += 1
            continue
        if tok not in COMMANDS:
            return None, None
        nxt = argv[i + 1] if i + 1 < len(argv) else None
        return tok, (nxt if nxt is not None and not nxt.startswith("-") else None)
    return None, None


def _usage_line(exc: ClickException) -> str:
    ctx = getattr(exc, "ctx", None)
    where = f"run '{ctx.command_path} --help'" if ctx is not None else "run 'tourney --help'"
    return exc.format_message().replace("\n", " ").strip() + f" ({where} for usage)"


def run(argv: list[str] | None = None) -> NoReturn:
    """Console-script entry point and the one catch point of the CLI."""
    code: int
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        first, leaf = _command_words(args)
        tree: Any = typer.main.get_command(
            build_app(None if first is None else [first], leaf))
        if first is not None:
            def at(path: list[str]) -> Any:
                cmd: Any = tree
                for p in path:
                    cmd = cmd.commands[p]
                return cmd
            args = hoist_globals(args, at)
        rv = tree.main(args=args, prog_name="tourney", standalone_mode=False)
        code = rv if isinstance(rv, int) else 0
    except TourneyError as err:
        report_error(err, json_requested(argv))
        code = int(err.exit_code)
    except NoArgsIsHelpError as exc:
        # a bare group ('tourney', 'tourney player'): its help (rich help is already
        # printed while the error is built; plain help comes as the message), exit 2
        text = exc.format_message()
        if text.strip():
            sys.stdout.write(text + "\n")
        code = int(ExitCode.USAGE)
    except ClickException as exc:
        if exc.exit_code == int(ExitCode.USAGE) or not exc.exit_code:
            report_error(UsageError(_usage_line(exc)), json_requested(argv))
            code = int(ExitCode.USAGE)
        else:  # FileError and friends of the parser
            report_error(UsageError(exc.format_message()), json_requested(argv))
            code = int(ExitCode.USAGE)
    except typer.Abort:
        note("aborted")
        code = int(ExitCode.INTERNAL)
    except KeyboardInterrupt:
        note("interrupted")
        code = 130
    except BrokenPipeError:  # e.g. 'tourney log | head': the reader left, not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = 0
    except Exception as exc:  # the last resort: a bug, never an expected failure
        if os.environ.get(DEBUG_ENV):
            import traceback

            traceback.print_exc()
        message = f"internal error: {type(exc).__name__}: {exc}".replace("\n", " ")
        if json_requested(argv):
            emit(True, {"ok": False, "error": {"code": "internal_error", "message": message,
                                               "hint": None, "exit_code": 1}})
        note(message + " (please report this with the command line you ran)")
        code = int(ExitCode.INTERNAL)
    sys.exit(code)


if __name__ == "__main__":
    run()
