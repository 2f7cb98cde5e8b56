"""``tourney export`` and ``tourney audit verify``: bundles and the independent audit.

Owns: choosing what to audit (a ledger path/URL, or an exported bundle directory holding
``log.jsonl``), the rich progress bar on stderr for big logs (never in ``--json`` mode),
and printing the report: human summary + one line per finding, or exactly the
``Report`` JSON.  Exit 4 when the report has an error finding.

May import: ``typer``, ``rich``, ``cli.common``, ``audit.*``, ``ledger.*``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import TracebackType
from typing import Annotated, Any

import typer

from cli.common import JsonOpt, Session, note
from ledger.errors import ExitCode, StorageError, UsageError

PROGRESS_THRESHOLD = 5000  # events; smaller audits finish before a bar would help

app = typer.Typer(no_args_is_help=True, help=(
    "Independent verification of a ledger or an exported bundle.\n\n"
    "Example: tourney audit verify bundle/ --json"))


def export(
    ctx: typer.Context,
    directory: Annotated[Path, typer.Argument(metavar="DIR",
                                              help="New (or empty) directory to write.")],
    force: Annotated[bool, typer.Option(
        "--force", help="Replace an earlier bundle in DIR (refused if DIR holds anything "
                        "else).")] = False,
    json: JsonOpt = False,
) -> None:
    """Export an audit bundle: DIR/log.jsonl, DIR/checkpoints/*.note, DIR/README.txt.

    The checkpoints are those stored in the ledger (and any note files of --checkpoints).

    Example: tourney export spring-open-bundle/ --force
    """
    from audit.bundle import export_bundle

    s = Session(ctx, json=json)
    with s.ledger() as led:
        log_id = s.tournament(led)
        info = export_bundle(led, log_id, directory, s.checkpoint_dir(log_id), force=force)
    s.emit({"ok": True, "tournament": log_id, "directory": str(info.directory),
            "events": info.events, "checkpoints": info.checkpoints},
           [f"exported {info.events} events and {info.checkpoints} checkpoints of "
            f"{log_id} to {info.directory}",
            f"verify with: tourney audit verify {info.directory}"])


class _Bar:
    """A progress callback that shows a rich bar on stderr once the log is big."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self._progress: Any = None
        self._task: Any = None

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or total < PROGRESS_THRESHOLD:
            return
        if self._progress is None:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeRemainingColumn,
            )
            self._progress = Progress(TextColumn("verifying"), BarColumn(),
                                      MofNCompleteColumn(), TimeRemainingColumn(),
                                      console=Console(stderr=True), transient=True)
            self._progress.start()
            self._task = self._progress.add_task("verify", total=total)
        self._progress.update(self._task, completed=done, total=total)

    def __enter__(self) -> _Bar:
        return self

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._progress is not None:
            self._progress.stop()


@app.command("verify")
def audit_verify(
    ctx: typer.Context,
    target: Annotated[str | None, typer.Argument(
        metavar="LEDGER|DIR", show_default=False,
        help="Ledger path or postgresql:// URL, or an exported bundle directory "
             "(default: --ledger).")] = None,
    json: JsonOpt = False,
) -> None:
    """Verify every byte, signature, chain link, role, rule and checkpoint (exit 4 on errors).

    Prints a summary line and one line per finding: SEVERITY CODE seq=N message.

    Example: tourney audit verify tournament.db
    """
    from audit.findings import report_json
    from audit.verify import verify_bundle, verify_ledger
    from ledger.store import location_from

    s = Session(ctx, json=json)
    with _Bar(enabled=not s.json) as bar:
        path = Path(target) if target else None
        if path is not None and path.is_dir():
            if not (path / "log.jsonl").is_file():
                raise UsageError(f"{path} is a directory without log.jsonl",
                                 hint="pass a bundle written by 'tourney export' or a ledger")
            report = verify_bundle(path, progress=bar)
        else:
            location = location_from(target or s.g.ledger)
            if not location.exists():
                raise StorageError(f"ledger {location.display()} does not exist",
                                   hint="pass a ledger path, URL or bundle directory")
            report = verify_ledger(location, s.g.tournament, s.g.checkpoints, progress=bar)
    failed = not report.ok
    if s.json:
        sys.stdout.write(report_json(report).decode("utf-8") + "\n")
        sys.stdout.flush()
    else:
        errors = sum(1 for f in report.findings if f.severity == "error")
        warnings = sum(1 for f in report.findings if f.severity == "warning")
        head = "FAILED" if failed else "OK"
        lines = [f"{head}: {report.log or '?'}: {report.events} events, "
                 f"{report.checkpoints} checkpoints, {errors} errors, {warnings} warnings"
                 + (f", root {report.root}" if report.root else "")]
        for f in report.findings:
            seq = "-" if f.seq is None else str(f.seq)
            lines.append(f"{str(getattr(f.severity, 'value', f.severity)).upper()} "
                         f"{f.code} seq={seq} {f.message}")
        s.emit(None, lines)
    if failed:
        errors = sum(1 for f in report.findings if f.severity == "error")
        note(f"error: verification failed: {errors} error findings in "
             f"{report.source or report.log} (see the report)")
        raise typer.Exit(int(ExitCode.VERIFICATION))
