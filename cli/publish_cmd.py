"""``tourney publish DIR``: the signed report and the static site for players and publishers.

Owns: the publish sequence — seal the log in a checkpoint, sign a ``report_published``
event with the figures of the log at that checkpoint, seal again (so the report itself is
covered), then write the site (``projections.site``) and ``report.json``
(``audit.report.report_document``) into DIR.  The figures are ``projections.report``'s,
never recomputed here.

May import: ``typer``, ``cli.common``, ``audit.*``, ``projections.*``, ``ledger.*``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from cli.common import JsonOpt, KeyOpt, Session
from ledger.errors import ConcurrencyError, UsageError


def publish(
    ctx: typer.Context,
    directory: Annotated[Path, typer.Argument(metavar="DIR", help=(
        "Directory for the site (created; files of the same names are replaced)."))],
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Sign a report of the standings, cut and champion (head judge) and write the site.

    DIR gets index.html, standings, pairings by table and by name, result slips and the
    bracket (HTML for phones and print, plus the same data as JSON), a "how to verify"
    page and report.json, which 'tourney audit report DIR/report.json LEDGER|BUNDLE'
    checks against the log.

    Example: tourney publish site/ --key hj.pem
    """
    from audit.report import report_document
    from ledger.checkpoint_store import write_checkpoint
    from ledger.events import ReportPublished
    from projections.report import report_digest, report_figures, round_docs
    from projections.site import render_site
    from projections.standings_doc import settled_view

    s = Session(ctx, key=key, json=json)
    if directory.exists() and not directory.is_dir():
        raise UsageError(f"{directory} is not a directory", hint="pass a directory for the site")
    signer = s.signer()
    with s.ledger() as led:
        log = s.tournament(led)
        cp_dir = s.checkpoint_dir(log)
        note0, cp0 = write_checkpoint(led, log, signer, cp_dir)
        figures: dict[str, Any] = {}

        def act(t: Any, time: str) -> Any:
            if t.version != cp0.size:
                raise ConcurrencyError(f"the log grew to {t.version} events while publishing "
                                       f"the checkpoint of size {cp0.size}",
                                       hint="run 'tourney publish' again")
            figures.update(report_figures(t.state, cp0.size, cp0.root.hex()))
            return t.record(ReportPublished(size=cp0.size, root=cp0.root.hex(),
                                            digest=report_digest(figures), figures=figures),
                            signer, time), t

        ev, agg = led.write(log, act, retries=0)
        note1, cp1 = write_checkpoint(led, log, signer, cp_dir)
        rounds = round_docs(led, log, agg.state)
        view = settled_view(led, log, agg.state)
    notes = {str(cp0.size): note0.read_text(), str(cp1.size): note1.read_text()}
    report = report_document(ev, notes)
    try:
        files = render_site(directory, agg.state, figures=figures, rounds=rounds, report=report,
                            view=view)
    except OSError as exc:
        raise UsageError(f"cannot write the site to {directory}: {exc.strerror}",
                         hint=f"the report is signed at seq {ev.seq}; fix the directory "
                              "and publish again") from None
    s.emit({"ok": True, "tournament": log, "seq": ev.seq, "digest": report["digest"],
            "checkpoint": {"size": cp0.size, "root": cp0.root.hex()},
            "sealed": {"size": cp1.size, "root": cp1.root.hex()},
            "directory": str(directory), "files": [p.name for p in files]},
           [f"seq {ev.seq}: report_published (figures of the log at size {cp0.size}, "
            f"digest {report['digest'][:16]}…)",
            f"site: {len(files)} files in {directory} (open {directory / 'index.html'})",
            f"publishers check it with: tourney audit report {directory / 'report.json'} "
            "LEDGER|BUNDLE"])
