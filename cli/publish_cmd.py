"""``tourney publish DIR``: the signed report and the static site for players and publishers.

Owns: the publish sequence — seal the log in a checkpoint, sign a ``report_published``
event with the figures of the log at that checkpoint, seal again (so the report itself is
covered), then write the site (``projections.site``) and ``report.json``
(``audit.report.report_document``) into DIR; and ``--pairings-only``, one round's pairings
page written read-only with no key (ADR 0022: who may publish).  The figures are
``projections.report``'s, never recomputed here.

May import: ``typer``, ``cli.common``, ``audit.*``, ``projections.*``, ``ledger.*``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from cli.common import JsonOpt, KeyOpt, Session
from cli.sheet_language import LanguageOpt, SheetLanguage
from ledger.errors import ConcurrencyError, RuleError, UsageError, write_failure


def publish(
    ctx: typer.Context,
    directory: Annotated[Path, typer.Argument(metavar="DIR", help=(
        "Directory for the site (created; files of the same names are replaced)."))],
    pairings_only: Annotated[bool, typer.Option(
        "--pairings-only",
        help="Write only the pairings page of the latest round (or --round N): signs "
             "nothing and needs no key, so a scorekeeper can post pairings.")] = False,
    round_no: Annotated[int | None, typer.Option(
        "--round", metavar="N", min=1, show_default=False,
        help="With --pairings-only: the round to post (default: the latest).")] = None,
    language: LanguageOpt = "en",
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Sign a report of the standings, cut and champion (head judge) and write the site.

    Who may publish (ADR 0022): the signed report and the site need a head judge's key
    (they seal the log in a checkpoint, docs/DESIGN.md §5); pairings are not signed, so
    anyone with the ledger posts them: 'tourney publish DIR --pairings-only' (no key)
    or 'tourney round show N --html'.

    DIR gets index.html, standings, pairings by table and by name, result slips and the
    bracket (HTML for phones and print, plus the same data as JSON), a "how to verify"
    page and report.json, which 'tourney audit report DIR/report.json LEDGER|BUNDLE'
    checks against the log.

    Example: tourney publish site/ --key hj.pem
    """
    from audit.report import report_document
    from cli.sheet_language import sheet_language
    from ledger.proofs.checkpoint_store import write_checkpoint
    from ledger.wire.events import ReportPublished
    from projections.report import report_digest, report_figures, round_docs
    from projections.site import render_site
    from projections.standings_doc import settled_view

    sheet = sheet_language(language)      # refused before anything is signed or written
    s = Session(ctx, key=key, json=json)
    if directory.exists() and not directory.is_dir():
        raise UsageError(f"{directory} is not a directory", hint="pass a directory for the site")
    if pairings_only:
        _publish_pairings(s, directory, round_no, sheet)
        return
    if round_no is not None:
        raise UsageError("--round applies only with --pairings-only",
                         hint="the signed site holds every round")
    signer = s.signer()
    with s.ledger() as led:
        log = s.tournament(led)
        cp_dir = s.checkpoint_dir(led, log)
        try:
            note0, cp0 = write_checkpoint(led, log, signer, cp_dir)
        except RuleError as err:  # issue 17, defect 24: say who may publish what
            raise RuleError(err.rule, err.message.removesuffix(f" [{err.rule}]"),
                            hint="the signed report needs the head judge's key; pairings "
                                 f"need none: 'tourney publish {directory} --pairings-only'",
                            finding=err.finding) from None
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
        from projections.checkable import checkable_of

        cp = checkable_of(agg.state, led)  # the sealed log: the line phones show (issue 18)
    notes = {str(cp0.size): note0.read_text(), str(cp1.size): note1.read_text()}
    report = report_document(ev, notes)
    try:
        files = render_site(directory, agg.state, figures=figures, rounds=rounds, report=report,
                            view=view, cp=cp, tr=sheet.translations, lang=sheet.code,
                            dir_=sheet.dir, fw=sheet.words(agg.state))
    except OSError as exc:
        raise write_failure(exc, f"cannot write the site to {directory}",
                            hint=f"the report is signed at seq {ev.seq}; fix the directory "
                                 "or free disk space and publish again") from None
    s.emit({"ok": True, "tournament": log, "seq": ev.seq, "digest": report["digest"],
            "checkpoint": {"size": cp0.size, "root": cp0.root.hex()},
            "sealed": {"size": cp1.size, "root": cp1.root.hex()},
            "directory": str(directory), "files": [p.name for p in files]},
           [f"seq {ev.seq}: report_published (figures of the log at size {cp0.size}, "
            f"digest {report['digest'][:16]}…)",
            f"site: {len(files)} files in {directory} (open {directory / 'index.html'})",
            f"publishers check it with: tourney audit report {directory / 'report.json'} "
            "LEDGER|BUNDLE"])


def _publish_pairings(s: Session, directory: Path, number: int | None,
                      sheet: SheetLanguage) -> None:
    """Issue 17, defect 24: one round's pairings page (``projections.site.round_page``, as
    'round show --html' prints it) written to DIR; read-only, signs nothing, no key."""
    from cli.round_cmd import bye_lost
    from projections.report import round_doc
    from projections.rounds import load_round, override_of
    from projections.site import round_page

    with s.ledger(readonly=True) as led:
        log = s.tournament(led)
        st = led.load(log).state
        rounds = getattr(st.fmt, "rounds", None)
        if rounds is None:
            raise UsageError(f"{log} pairs Games, not rounds of tables",
                             hint="post them with 'tourney round show N'")
        if not rounds:
            raise UsageError(f"no round of {log} has been paired yet",
                             hint="the head judge pairs one with 'tourney round pair'")
        n = rounds[-1].number if number is None else number
        rnd = load_round(led, log, st, n)
        if rnd is None:
            raise UsageError(f"{log} has no round {n} (rounds 1..{rounds[-1].number})",
                             hint="leave out --round for the latest round")
        from ledger.core.public_pages import round_posted

        if not round_posted(st, n):         # the posting gate (ADR 0023, PAGES-3)
            raise RuleError("PAGES-3", f"round {n} is held: not on public pages until "
                            "the head judge posts it",
                            hint=f"the head judge runs 'tourney round post {n}' first")
        from projections.checkable import checkable_of

        page = round_page(st, round_doc(rnd, override_of(led, log, st, rnd),
                                        lost_bye=bye_lost(st, rnd)), st.size,
                          checkable_of(st, led), tr=sheet.translations, lang=sheet.code,
                          dir_=sheet.dir, fw=sheet.words(st))
    path = directory / f"round-{n}.html"
    try:
        directory.mkdir(parents=True, exist_ok=True)
        path.write_text(page, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror}",
                         hint="pass a writable directory") from None
    s.emit({"ok": True, "tournament": log, "round": n, "signed": False, "path": str(path)},
           [f"round {n} pairings of {log}: {path} (not signed; the head judge's "
            "'tourney publish' signs the report)"])
