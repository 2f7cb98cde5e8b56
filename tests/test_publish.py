"""Publishing (issue 8 items 6, 7, 9): ``tourney publish``, the site, ``audit report``,
``--html`` pages, sealing; the site checked in a real headless browser (Debian chromium).

A 12-player simulated event (in-process, demo keys) is published through the real CLI.
Tamper cases: a report file with one changed standing, a report from another ledger, and a
``report_published`` forged into the log with a wrong figure (validly signed).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from ledger.formats.simulation import demo_key
from ledger.storage.location import Location
from tests.helpers.browser import _skip_reason as browser_skip_reason
from tests.helpers.cli_runner import Cli
from tests.helpers.live import GENEROUS_S
from tests.helpers.published_event import SEED, make_event

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = Path(os.environ.get("TOURNEY_TEST_ARTIFACTS", ROOT / "test-artifacts"))


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> tuple[Cli, dict[str, Any]]:
    cli = make_event(tmp_path_factory.mktemp("pub"))
    doc = cli("publish", "site", "--key", "hj.pem", "--json").doc
    cli("export", "bundle")
    return cli, doc


def test_publish_writes_signed_report_and_site(published: tuple[Cli, dict[str, Any]]) -> None:
    cli, doc = published
    site = cli.cwd / "site"
    for name in ("index.html", "standings.html", "standings.json", "bracket.html",
                 "verify.html", "report.json", "round-1.html", "round-1-names.html",
                 "round-1-slips.html", "round-1.json", "style.css"):
        assert (site / name).is_file(), name
    report = json.loads((site / "report.json").read_text())
    standings = json.loads(cli("standings", "--json").out)
    # the signed rows are the normative rows; --json adds the uniform "figures" (ADR 0021)
    assert report["figures"]["standings"] == [
        {k: v for k, v in row.items() if k != "figures"} for row in standings["players"]]
    assert report["figures"]["champion"] == standings["champion"] is not None
    assert report["seq"] == doc["seq"] and report["figures"]["checkpoint"]["size"] == doc["seq"] - 1
    # every column the format declares is a column of the page (format-agnostic)
    page = (site / "standings.html").read_text()
    assert page.count("<tr") == len(standings["players"]) + 1
    assert page.count('<th class') == len(standings["columns"])
    # by name: alphabetical, every player of round 1 once
    names = (site / "round-1-names.html").read_text()
    order = [names.index(f"<tr><td><bdi>#{n} Player {n:04d}</bdi></td>") for n in range(1, 13)]
    assert order == sorted(order)


def test_audit_report_passes_on_ledger_and_bundle(published: tuple[Cli, dict[str, Any]]
                                                  ) -> None:
    cli, _ = published
    cli("audit", "report", "site/report.json", str(cli.ledger))
    doc = cli("audit", "report", "site/report.json", "bundle", "--json").doc
    assert doc["ok"] and not [f for f in doc["findings"] if f["severity"] == "error"]


def test_report_with_one_changed_standing_fails(published: tuple[Cli, dict[str, Any]]) -> None:
    cli, _ = published
    report = json.loads((cli.cwd / "site" / "report.json").read_text())
    report["figures"]["standings"][3]["rank"] += 1
    (cli.cwd / "changed-standing-report.json").write_text(json.dumps(report))
    run = cli("audit", "report", "changed-standing-report.json", "bundle", "--json", code=4)
    codes = {f["code"] for f in run.doc["findings"]}
    assert "report_mismatch" in codes
    assert any("rank" in f["message"] for f in run.doc["findings"])


def test_report_from_another_ledger_is_not_in_log(published: tuple[Cli, dict[str, Any]],
                                                  tmp_path: Path) -> None:
    cli, _ = published
    other = make_event(tmp_path, log="pub-12")
    run = other("audit", "report", str(cli.cwd / "site" / "report.json"), str(other.ledger),
                "--json", code=4)
    assert "report_not_in_log" in {f["code"] for f in run.doc["findings"]}


def test_forged_report_event_is_flagged_by_the_audit(tmp_path: Path) -> None:
    import hashlib

    from ledger.wire.canonical import canonical
    from ledger.wire.events import ReportPublished
    from tests.helpers.tamper import forge_next, rows

    cli = make_event(tmp_path)
    cli("publish", "site", "--key", "hj.pem")
    report = json.loads((tmp_path / "site" / "report.json").read_text())
    figures = report["figures"]
    figures["champion"] = figures["standings"][1]["number"]  # crown the runner-up
    body = ReportPublished(size=len(rows_of(cli)), root="", digest="", figures=figures)
    # a validly signed report over the current log, claiming the wrong champion
    from ledger.proofs.merkle import leaf_hash, root_from_hashes
    root = root_from_hashes([leaf_hash(b) for _v, b in rows_of(cli)]).hex()
    figures["checkpoint"] = {"origin": "tourney/pub-12", "size": body.size, "root": root}
    body = ReportPublished(size=body.size, root=root, figures=figures,
                           digest=hashlib.sha256(canonical(figures)).hexdigest())
    forge_next(Location(str(cli.ledger)), body, demo_key(SEED, "head-judge"), log="pub-12")
    seq = len(rows(Location(str(cli.ledger)), "pub-12"))
    run = cli("audit", "verify", "--json", code=4)
    assert ("report_mismatch", seq) in {(f["code"], f["seq"]) for f in run.doc["findings"]}


def rows_of(cli: Cli) -> list[tuple[int, bytes]]:
    import sqlite3
    with sqlite3.connect(cli.ledger) as db:
        return [(v, bytes(s)) for v, s in db.execute(
            "SELECT originator_version, state FROM stored_events WHERE originator_id=? "
            "ORDER BY originator_version", ("pub-12",))]


def test_publish_refused_for_scorekeeper_writes_nothing(tmp_path: Path) -> None:
    cli = make_event(tmp_path)
    before = cli.ledger.read_bytes()
    run = cli("publish", "site", "--key", "sk.pem", "--json", code=3)
    assert run.doc["error"]["finding"] == "role_not_permitted"
    assert cli.ledger.read_bytes() == before and not (tmp_path / "site").exists()


def test_html_pages_for_the_desk_printer(published: tuple[Cli, dict[str, Any]]) -> None:
    cli, _ = published
    page = cli("standings", "--html").out
    assert page.startswith("<!doctype html>") and "@media print" in page
    assert "<link" not in page  # self-contained
    rnd = cli("round", "show", "1", "--html").out
    assert "Round 1" in rnd and rnd.count("<tr>") >= 6
    cli("standings", "--html", "--json", code=2)


@pytest.mark.skipif(browser_skip_reason() is not None, reason=browser_skip_reason() or "")
def test_site_in_a_real_headless_browser(published: tuple[Cli, dict[str, Any]]) -> None:
    """One headless Debian chromium (Playwright) and one tab for every page (a chromium
    started per page cost a second each: ADR 0048 item 3, ADR 0069)."""
    from tests.helpers.browser import launched

    cli, _ = published
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    site = cli.cwd / "site"
    with launched("--hide-scrollbars") as browser:
        tab = browser.new_page(viewport={"width": 390, "height": 900})
        for page, width in (("standings.html", 390), ("round-1.html", 390),
                            ("round-1-names.html", 390), ("index.html", 1200)):
            shot = ARTIFACTS / f"{page.removesuffix('.html')}-{width}.png"
            shot.unlink(missing_ok=True)
            tab.set_viewport_size({"width": width, "height": 900})
            tab.goto((site / page).as_uri(), wait_until="load")
            tab.screenshot(path=str(shot))
            data = shot.read_bytes()
            assert data[:8] == b"\x89PNG\r\n\x1a\n"
            assert int.from_bytes(data[16:20], "big") == width  # rendered at phone width
            assert len(data) > 5000, "blank page"
        # phone-readable: laid out 390 px wide (a test copy pins the page width; phone
        # media rules apply below 640 px), nothing but the table scrollers may be wider.
        # Measured by a script injected into the copy: the published pages have no script.
        probe = ("<style>html{width:390px}</style><script>addEventListener('load',()=>"
                 "document.body.setAttribute('data-sw',document.body.scrollWidth+'/'+"
                 "matchMedia('(max-width: 40rem)').matches))</script></body>")
        tab.set_viewport_size({"width": 390, "height": 900})
        for page in ("standings.html", "round-1.html", "round-1-names.html", "verify.html",
                     "round-1-slips.html", "index.html", "bracket.html"):
            copy = site / f"probe-{page}"
            copy.write_text((site / page).read_text().replace("</body>", probe))
            tab.goto(copy.as_uri(), wait_until="load")
            tab.wait_for_selector("body[data-sw]", state="attached",
                                  timeout=GENEROUS_S * 1000)
            measured = tab.get_attribute("body", "data-sw") or ""
            copy.unlink()
            width, phone = measured.split("/")
            assert phone == "true" and int(width) <= 390, f"{page} is {width}px wide on a phone"
        # the browser's DOM has the rendered standings (no scripts needed)
        tab.goto((site / "standings.html").as_uri(), wait_until="load")
        dom = tab.content()
        assert dom.count("<tr") == 13 and "Player 0001" in dom
        # printable: the slips print to a PDF
        pdf = ARTIFACTS / "round-1-slips.pdf"
        pdf.unlink(missing_ok=True)
        tab.goto((site / "round-1-slips.html").as_uri(), wait_until="load")
        tab.pdf(path=str(pdf))
    assert pdf.read_bytes()[:5] == b"%PDF-" and pdf.stat().st_size > 2000
