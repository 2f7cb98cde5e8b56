"""The ``tourney`` command (DESIGN.md §8): the Typer app and the ONE catch point.

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

import os
import sys
import traceback
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from cli import (
    audit_cmd,
    corrections_cmd,
    cut_cmd,
    floor_cmd,
    keys_cmd,
    log_cmd,
    officials_cmd,
    penalty_cmd,
    players_cmd,
    publish_cmd,
    random_cmd,
    results_cmd,
    round_cmd,
    simulate_cmd,
    slowplay_cmd,
    standings_cmd,
    tournament_cmd,
    witness_cmd,
    wot_cmd,
)
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
                            "standings"})  # set to print the traceback of an internal error

app = typer.Typer(
    name="tourney",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


@app.callback()
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
        help="Checkpoint directory (default: <ledger>.checkpoints/<id>/); repeatable for "
             "'audit verify', where every note of every DIR binds the audit.")] = None,
    json: Annotated[bool, typer.Option(
        "--json", help="Exactly one JSON document on stdout; diagnostics on stderr.")]
        = False,
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


_SETUP = _PLAYERS = "Set up and registration"
_RANDOM, _LOG, _AUDIT = "Randomness", "Log and proofs", "Audit"
_PLAY, _CUT, _SIM = "Rounds and results", "Top cut and standings", "Simulation"
app.add_typer(keys_cmd.app, name="keys", rich_help_panel=_SETUP)
app.command("init", rich_help_panel=_SETUP)(tournament_cmd.init)
app.add_typer(officials_cmd.app, name="official", rich_help_panel=_SETUP)
app.add_typer(players_cmd.app, name="player", rich_help_panel=_PLAYERS)
app.add_typer(tournament_cmd.registration_app, name="registration",
              rich_help_panel=_PLAYERS)
app.add_typer(random_cmd.seed_app, name="seed", rich_help_panel=_RANDOM)
app.command("draw", rich_help_panel=_RANDOM)(random_cmd.draw)
app.add_typer(round_cmd.app, name="round", rich_help_panel=_PLAY)
app.add_typer(results_cmd.app, name="result", rich_help_panel=_PLAY)
app.command("drop", rich_help_panel=_PLAY)(results_cmd.drop)
app.command("forfeit", rich_help_panel=_PLAY)(wot_cmd.forfeit)
app.command("tbp-override", rich_help_panel=_PLAY)(wot_cmd.tbp_override)
app.add_typer(slowplay_cmd.app, name="slowplay", rich_help_panel=_PLAY)
app.add_typer(penalty_cmd.app, name="penalty", rich_help_panel="Officiating")
app.command("disqualify", rich_help_panel="Officiating")(penalty_cmd.disqualify)
app.command("undrop", rich_help_panel="Officiating")(corrections_cmd.undrop)
app.command("level", rich_help_panel="Officiating")(corrections_cmd.level_amend)
app.command("ruling", rich_help_panel="Officiating")(floor_cmd.ruling)
app.add_typer(floor_cmd.appeal_app, name="appeal", rich_help_panel="Officiating")
app.add_typer(floor_cmd.deck_app, name="deck", rich_help_panel="Officiating")
round_cmd.app.command("start")(floor_cmd.round_start)
round_cmd.app.command("time")(floor_cmd.round_time)
round_cmd.app.command("extend")(floor_cmd.round_extend)
results_cmd.app.command("eom")(floor_cmd.result_eom)
results_cmd.app.command("amend")(corrections_cmd.result_amend)
results_cmd.app.command("wrong-table")(corrections_cmd.result_wrong_table)
round_cmd.app.command("override")(corrections_cmd.round_override)
round_cmd.app.command("void")(corrections_cmd.round_void)
players_cmd.app.command("late")(corrections_cmd.player_late)
app.command("cut", rich_help_panel=_CUT)(cut_cmd.cut)
app.command("bracket", rich_help_panel=_CUT)(cut_cmd.bracket)
app.command("standings", rich_help_panel=_CUT)(standings_cmd.standings)
app.command("simulate", rich_help_panel=_SIM)(simulate_cmd.simulate)
app.command("log", rich_help_panel=_LOG)(log_cmd.log)
app.command("info", rich_help_panel=_LOG)(tournament_cmd.info)
app.command("checkpoint", rich_help_panel=_LOG)(log_cmd.checkpoint)
app.command("proof", rich_help_panel=_LOG)(log_cmd.proof)
app.command("consistency", rich_help_panel=_LOG)(log_cmd.consistency)
app.command("export", rich_help_panel=_AUDIT)(audit_cmd.export)
app.command("publish", rich_help_panel=_AUDIT)(publish_cmd.publish)
app.add_typer(audit_cmd.app, name="audit", rich_help_panel=_AUDIT)
app.add_typer(witness_cmd.app, name="witness", rich_help_panel=_AUDIT)


def _usage_line(exc: ClickException) -> str:
    ctx = getattr(exc, "ctx", None)
    where = f"run '{ctx.command_path} --help'" if ctx is not None else "run 'tourney --help'"
    return exc.format_message().replace("\n", " ").strip() + f" ({where} for usage)"


def run(argv: list[str] | None = None) -> NoReturn:
    """Console-script entry point and the one catch point of the CLI."""
    code: int
    try:
        rv = app(args=argv, prog_name="tourney", standalone_mode=False)
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
