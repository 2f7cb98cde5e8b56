"""``tourney simulate``: a whole simulated event signed into the ledger, then audited.

Owns: the command-line checks of a simulation (player count, format, exact decimal
rates parsed with ``fractions.Fraction``, cut size), choosing the tournament id
(``sim-<N>``, then ``sim-<N>-2``, ``-3``, … so the same command can run twice in one
ledger), creating the ledger file like ``init`` (and removing it again if nothing could be
written), the progress display on stderr (rich when stderr is a terminal, plain status
lines otherwise, nothing in ``--json`` mode), the demo key files written beside the
ledger (``<ledger>.demo-keys/<id>/``, marked DEMO, 0600), and the summary with the audit's
verdict (exit 4 when the audit fails).  The event itself is ``ledger.formats.simulation.simulate``'s and
the audit is ``audit.verify.verify_ledger``, never redone here.

May import: ``typer``, ``rich``, ``msgspec``, ``cli.common``, ``cli.tournament_cmd``,
``audit.*``, ``ledger.*``.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Annotated, Any

import msgspec
import typer

from cli.common import JsonOpt, Session, note
from cli.tournament_cmd import _remove_sqlite, valid_id
from ledger.errors import ExitCode, TourneyError, UsageError
from ledger.formats.registry import FORMAT_IDS

if TYPE_CHECKING:
    from ledger.storage.location import Location
    from ledger.storage.store import Ledger
    from ledger.wire.keys import Signer

MAX_PLAYERS = 100_000
DEFAULT_SEED = "tourney demo"


def parse_rate(text: str, option: str) -> Fraction:
    """A rate 0 ≤ r ≤ 1 written as a decimal (``0.05``) or fraction, parsed exactly."""
    try:
        rate = Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise UsageError(f"{option} {text!r} is not a number",
                         hint=f"e.g. {option} 0.05 (a rate between 0 and 1)") from None
    if not 0 <= rate <= 1:
        raise UsageError(f"{option} {text} is outside 0..1",
                         hint=f"e.g. {option} 0.05 (a rate between 0 and 1)")
    return rate


def pick_id(taken: list[str], players: int) -> str:
    """``sim-<N>``, or the first free ``sim-<N>-<k>`` (k = 2, 3, …)."""
    base = f"sim-{players}"
    if base not in taken:
        return base
    k = 2
    while f"{base}-{k}" in taken:
        k += 1
    return f"{base}-{k}"


class _Progress:
    """Status on stderr: a rich spinner/bar on a terminal, plain lines otherwise."""

    def __init__(self, enabled: bool) -> None:
        from rich.console import Console

        self.enabled = enabled
        self.console = Console(stderr=True)
        self.live = enabled and self.console.is_terminal
        self._progress: Any = None
        self._task: Any = None

    def __enter__(self) -> _Progress:
        if self.live:
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                SpinnerColumn,
                TextColumn,
            )
            self._progress = Progress(SpinnerColumn(), TextColumn("{task.description}"),
                                      BarColumn(), MofNCompleteColumn(),
                                      console=self.console, transient=True)
            self._progress.start()
            self._task = self._progress.add_task("simulating", total=None)
        return self

    def say(self, message: str) -> None:
        if not self.enabled:
            return
        if self._progress is not None:
            self._progress.update(self._task, description=message)
        else:
            note(message)

    def audit(self, done: int, total: int) -> None:
        if self._progress is not None:
            self._progress.update(self._task, description="auditing", completed=done,
                                  total=total)

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._progress is not None:
            self._progress.stop()


def demo_keys_dir(location: Location, log: str) -> Path:
    """Where ``simulate`` writes the demo keys of ``log``: ``<ledger>.demo-keys/<id>/``
    beside a SQLite file, ``./tourney-demo-keys/<id>/`` for PostgreSQL."""
    base = Path("tourney-demo-keys") if location.is_postgres else \
        location.path.with_name(location.path.name + ".demo-keys")
    return base / log


def _write_demo_keys(location: Location, log: str, hj: Signer, sk: Signer) -> Path:
    """Issue 17, defect 22: the demo keys that signed the simulation, as key files marked
    DEMO (0600), so a newcomer can continue or publish the simulated event."""
    from ledger.wire.keys import write_key

    directory = demo_keys_dir(location, log)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        write_key(directory / "head-judge.pem", hj, None, demo=True)
        write_key(directory / "scorekeeper.pem", sk, None, demo=True)
    except OSError as exc:
        raise UsageError(f"cannot write the demo keys to {directory}: {exc.strerror}",
                         hint="run the simulation in a writable directory") from None
    return directory


def _sim_location(s: Session, players: int) -> Location:
    """The ledger a simulation writes to: the one given (``--ledger`` or TOURNEY_LEDGER),
    else a fresh ``sim-<N>.db`` (``sim-<N>-2.db``, …) in the current directory — never
    the default ``./tournament.db`` of a real event."""
    from ledger.storage.location import Location

    if s.g.ledger:
        return s.location
    base = f"sim-{players}"
    k = 1
    while True:
        path = Path(f"{base}.db" if k == 1 else f"{base}-{k}.db")
        if not path.exists():
            return Location(str(path))
        k += 1


def _real_tournaments(led: Ledger) -> list[str]:
    """Tournaments of a ledger that are not simulations (by their genesis name)."""
    from ledger.wire.events import TournamentCreated, open_leaf

    out = []
    for tid in led.tournament_ids():
        first = next(led.raw_leaves(tid), None)
        body = open_leaf(first[1]).body if first else None
        if not (isinstance(body, TournamentCreated) and body.name.startswith("Simulated ")):
            out.append(tid)
    return out


def simulate(
    ctx: typer.Context,
    players: Annotated[int, typer.Option("--players", metavar="N",
                                         help=f"Number of players (2..{MAX_PLAYERS}).")],
    format: Annotated[str, typer.Option("--format", metavar="FORMAT",
                                        help=f"Format id: {', '.join(FORMAT_IDS)}.")],
    seed: Annotated[str, typer.Option(
        "--seed", metavar="TEXT",
        help="Seed text: derives the demo keys, every recorded seed and every simulated "
             "outcome (same text, same event).")] = DEFAULT_SEED,
    timeouts: Annotated[str, typer.Option(
        "--timeouts", metavar="RATE", help="Share of matches that reach time, e.g. 0.05.")]
        = "0",
    drops: Annotated[str, typer.Option(
        "--drops", metavar="RATE", help="Chance a player drops before each round, e.g. "
                                        "0.02.")] = "0",
    cut: Annotated[int | None, typer.Option(
        "--cut", metavar="N", show_default=False,
        help="Top cut size (default: the format's own, as 'tourney init' records it).")]
        = None,
    param: Annotated[list[str] | None, typer.Option(
        "--param", metavar="NAME=VALUE", show_default=False,
        help="A format parameter, as for 'tourney init' (repeatable).")] = None,
    tid: Annotated[str | None, typer.Option(
        "--id", metavar="ID", show_default=False,
        help="Tournament id (default: sim-<N>, or sim-<N>-2, -3, … if taken).")] = None,
    json: JsonOpt = False,
) -> None:
    """Simulate a whole event into its own ledger, then audit it (exit 4 if it fails).

    Without --ledger (or TOURNEY_LEDGER) the event goes into a fresh sim-<N>.db in the
    current directory, never into ./tournament.db; a ledger holding a real tournament is
    refused.  Demo keys derived from --seed sign every event; seeds, draws and
    checkpoints are recorded as in a real event.

    The demo keys are written beside the ledger, marked as demo keys (0600):
    <ledger>.demo-keys/<id>/head-judge.pem and scorekeeper.pem, so the simulated event
    can be continued or published (tourney publish site/ --key …/head-judge.pem).

    Formats: {formats} (Wheel of Time: all Cycles; --timeouts and --drops do not apply).

    Example: tourney simulate --players 70 --format hotc-swiss-de --seed "spring demo" --timeouts 0.05 --drops 0.02
    """
    from audit.verify import verify_ledger
    from ledger.formats.simulation import check_rates, demo_key
    from ledger.formats.simulation import simulate as run_simulation
    from ledger.storage.store import Ledger

    s = Session(ctx, json=json)
    if not 2 <= players <= MAX_PLAYERS:
        raise UsageError(f"--players {players} is outside 2..{MAX_PLAYERS}",
                         hint="e.g. --players 70")
    if format not in FORMAT_IDS:
        raise UsageError(f"unknown format {format!r}",
                         hint=f"known formats: {', '.join(sorted(FORMAT_IDS))}")
    from ledger.errors import RuleError
    from ledger.formats.registry import make_format, parse_params

    params = parse_params(format, list(param or []))
    try:
        size = make_format(format, cut, params).cut
    except RuleError as exc:
        raise UsageError(exc.message, hint=exc.hint) from None
    timeout_rate = parse_rate(timeouts, "--timeouts")
    drop_rate = parse_rate(drops, "--drops")
    check_rates(format, timeout_rate, drop_rate)
    if not seed:
        raise UsageError("--seed is empty", hint="pass any text, e.g. --seed demo")
    if tid is not None and not valid_id(tid):
        raise UsageError(f"tournament id {tid!r} is not 1-64 letters, digits, '.', '_' or "
                         "'-' starting with a letter or digit", hint="pass another --id")

    location = _sim_location(s, players)
    existed = location.exists()

    def cp_dir(log: str) -> Path:  # once the genesis is written (keyed by its hash)
        from ledger.proofs.checkpoint_store import checkpoint_dir
        return checkpoint_dir(location, s.checkpoint_override(), log)
    created = False
    hj, sk = demo_key(seed, "head-judge"), demo_key(seed, "scorekeeper")
    with _Progress(enabled=not s.json) as bar:
        try:
            with Ledger(location, create=True) as led:
                log = tid if tid is not None else pick_id(led.tournament_ids(), players)
                if tid is not None and tid in led.tournament_ids():
                    raise UsageError(f"tournament {tid!r} already exists in "
                                     f"{location.display()}",
                                     hint="choose another --id, or leave it out")
                real = _real_tournaments(led)
                if real:
                    raise UsageError(f"{location.display()} holds the real tournament "
                                     f"{real[0]!r}: a simulation there would break every "
                                     "command on it", hint="leave out --ledger (a fresh "
                                     "sim-<N>.db is created) or pass another --ledger")
                bar.say(f"simulating {log}: {players} players")
                created = True
                result = run_simulation(led, log=log, players=players, seed_text=seed,
                                        cut=size, timeouts=timeout_rate, drops=drop_rate,
                                        checkpoints=lambda: cp_dir(log),
                                        progress=bar.say, format_id=format,
                                        params=params)
        except TourneyError:
            if not created and not existed and not location.is_postgres:
                _remove_sqlite(location.path)
            raise
        keys_dir = _write_demo_keys(location, log, hj, sk)
        bar.say(f"auditing {result.events} events")
        report = verify_ledger(location, log, s.checkpoint_override(), progress=bar.audit)
        with Ledger(location, readonly=True) as led:
            final_state = led.load(log).state
            names = {n: p.name for n, p in final_state.players.items()}
            ruling = getattr(final_state.fmt, "no_champion_seq", None)
    errors = sum(1 for f in report.findings if getattr(f.severity, "value", f.severity)
                 == "error")
    data = {"ok": report.ok, "log": log, "ledger": location.display(),
            "events": result.events, "rounds": result.rounds, "cut": result.cut,
            "champion": result.champion, "no_champion_seq": ruling,
            "checkpoints": str(cp_dir(log)),
            "demo_keys": {"head_judge": hj.key_id, "scorekeeper": sk.key_id,
                          "directory": str(keys_dir),
                          "head_judge_file": str(keys_dir / "head-judge.pem"),
                          "scorekeeper_file": str(keys_dir / "scorekeeper.pem")},
            "audit": msgspec.to_builtins(report)}

    def who(n: int | None) -> str:
        return "none" if n is None else f"#{n} {names.get(n, '')}".rstrip()

    lines = [f"simulated {log} in {location.display()}: {players} players, "
             f"{result.events} events, {result.rounds} rounds",
             f"demo keys (derived from the seed text, NOT for real events): head judge "
             f"{hj.key_id}, scorekeeper {sk.key_id}, written (0600) to {keys_dir}/",
             f"top cut: {', '.join(who(n) for n in result.cut) or 'none'}",
             f"champion: {who(result.champion)}" + (
                 f" (head judge's no-champion ruling, seq {ruling})" if ruling else ""),
             f"audit: {'OK' if report.ok else 'FAILED'} ({len(report.findings)} findings, "
             f"{errors} errors; {report.checkpoints} checkpoints in the ledger)",
             f"look around: tourney --ledger {location.display()} --tournament {log} "
             "standings",
             f"publish it: tourney --ledger {location.display()} --tournament {log} "
             f"publish site/ --key {keys_dir / 'head-judge.pem'}"]
    s.emit(data, lines)
    if not report.ok:
        note(f"error: verification failed: {errors} error findings in {log} "
             f"(see 'tourney --tournament {log} audit verify')")
        raise typer.Exit(int(ExitCode.VERIFICATION))


simulate.__doc__ = (simulate.__doc__ or "").replace("{formats}", ", ".join(FORMAT_IDS))
