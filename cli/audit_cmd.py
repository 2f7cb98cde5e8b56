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
    with s.ledger(readonly=True) as led:
        log_id = s.tournament(led)
        info = export_bundle(led, log_id, directory, None, force=force,
                             note_files=s.checkpoint_files(led, log_id))
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
    checkpoints: Annotated[list[Path] | None, typer.Option(
        "--checkpoints", metavar="DIR", show_default=False,
        help="A directory of published checkpoint notes (every *.note, also DIR/<id>/); "
             "repeatable. Every note binds the audit of a ledger or bundle.")] = None,
    json: JsonOpt = False,
) -> None:
    """Verify every byte, signature, chain link, role, rule and checkpoint (exit 4 on errors).

    Prints a summary line and one line per finding: SEVERITY CODE seq=N message.
    Checkpoint notes: the ledger's own (or the bundle's checkpoints/) plus every
    --checkpoints DIR you kept or were published; a note the log does not match fails.

    Example: tourney audit verify bundle/ --checkpoints published-notes/
    """
    from audit.findings import report_json
    from audit.verify import verify_bundle, verify_ledger
    from ledger.storage.location import location_from

    s = Session(ctx, json=json)
    published = [*s.g.checkpoints, *(checkpoints or [])]
    for d in published:
        if not d.is_dir():
            raise UsageError(f"--checkpoints {d} is not a directory",
                             hint="pass the directory that holds the published *.note files")
    with _Bar(enabled=not s.json) as bar:
        path = Path(target) if target else None
        if path is not None and path.is_dir() and not (path / "log.jsonl").is_file():
            raise UsageError(f"{path} is a directory without log.jsonl",
                             hint="pass a bundle written by 'tourney export' or a ledger")
        if path is not None and path.is_dir():
            report = verify_bundle(path, progress=bar, published=published)
            if s.g.tournament is not None and report.log != s.g.tournament:
                raise UsageError(f"--tournament {s.g.tournament} does not apply: the bundle "
                                 f"{path} holds {report.log}",
                                 hint="drop --tournament for a bundle")
        else:
            location = location_from(target or s.g.ledger)
            if not location.is_postgres and not location.path.exists():
                raise StorageError(f"ledger {location.display()} does not exist",
                                   hint="pass a ledger path, URL or bundle directory")
            report = verify_ledger(location, s.g.tournament, None, progress=bar,
                                   published=published)
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


def _print_report(s: Session, report: Any, what: str) -> None:
    from audit.findings import report_json

    failed = not report.ok
    if s.json:
        sys.stdout.write(report_json(report).decode("utf-8") + "\n")
        sys.stdout.flush()
    else:
        errors = sum(1 for f in report.findings if f.severity == "error")
        lines = [f"{'FAILED' if failed else 'OK'}: {what}: {errors} errors"]
        for f in report.findings:
            seq = "-" if f.seq is None else str(f.seq)
            lines.append(f"{str(getattr(f.severity, 'value', f.severity)).upper()} "
                         f"{f.code} seq={seq} {f.message}")
        s.emit(None, lines)
    if failed:
        note(f"error: verification failed: {what} (see the findings)")
        raise typer.Exit(int(ExitCode.VERIFICATION))


@app.command("report")
def audit_report(
    ctx: typer.Context,
    report_file: Annotated[Path, typer.Argument(metavar="REPORT",
                                                help="report.json written by 'tourney publish'.")],
    target: Annotated[str | None, typer.Argument(
        metavar="LEDGER|BUNDLE", show_default=False,
        help="Ledger path or URL, or an exported bundle directory (default: --ledger).")]
        = None,
    json: JsonOpt = False,
) -> None:
    """Check a published report against the log (exit 0 only if every figure equals it).

    Runs the whole audit of the log, then checks that the report's signed event is in the
    log and that every figure (standings rows, cut, champion, checkpoint) equals the one
    recomputed from the log at the checkpoint the report covers; exit 4 with findings
    otherwise.

    Example: tourney audit report site/report.json spring-open-bundle/
    """
    from audit.report import verify_report

    s = Session(ctx, json=json)
    report = verify_report(report_file, target or s.g.ledger, tournament=s.g.tournament,
                           checkpoints=s.g.checkpoints)
    _print_report(s, report, f"report {report_file} against {report.source}")


@app.command("proof")
def audit_proof(
    ctx: typer.Context,
    proof_file: Annotated[Path, typer.Argument(metavar="FILE",
                                               help="Written by 'tourney proof SEQ --out'.")],
    json: JsonOpt = False,
) -> None:
    """Check an appeal proof file without the ledger (exit 4 if any check fails).

    Example: tourney audit proof appeal-12.json
    """
    import ledger.formats.registry  # noqa: F401  (the proved event may be of any format)
    from cli.common import read_file_bytes
    from ledger.proofs.proof_file import verify_proof_file

    s = Session(ctx, json=json)
    res = verify_proof_file(read_file_bytes(proof_file, "proof file"))
    s.emit({"ok": True, "tournament": res.tournament, "seq": res.seq, "kind": res.kind,
            "actor": res.actor, "body": res.body, "checkpoint_size": res.checkpoint_size,
            "root": res.root, "genesis_leaf_hash": res.genesis_leaf_hash},
           [f"OK: seq {res.seq} ({res.kind}, signed by {res.actor}) is in the checkpoint of "
            f"tourney/{res.tournament} at size {res.checkpoint_size}, root {res.root}",
            f"trust anchor: genesis leaf hash {res.genesis_leaf_hash}"])
