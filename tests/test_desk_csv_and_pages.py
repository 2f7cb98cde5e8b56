"""Issue 17, defect 24: a semicolon CSV is named by its delimiter; the verify page's code
block fits a phone; a scorekeeper posts pairings (``round show --html``) without the
head judge's key.  Real ``tourney`` subprocesses; the page in headless Chromium.
"""

from __future__ import annotations

from pathlib import Path

from tests.helpers.cli_event import open_event
from tests.helpers.cli_runner import Cli, remember_secret, snapshot


def test_defect_24_semicolon_players_csv_gets_a_delimiter_hint(tmp_path: Path) -> None:
    cli = Cli(tmp_path, tmp_path / "t.db")
    cli("keys", "new", "--name", "hj", "--out", "hj.pem")
    remember_secret(tmp_path / "hj.pem")
    cli("init", "--name", "Semi", "--format", "hotc-swiss-de", "--key", "hj.pem")
    (tmp_path / "players.csv").write_text("number;name\n1;Ana\n2;Ben\n")
    before = snapshot(tmp_path / "t.db")
    run = cli("player", "import", "players.csv", "--key", "hj.pem", code=2)
    assert "semicolon-separated (';')" in run.err and "nothing was written" in run.err
    assert snapshot(tmp_path / "t.db") == before


def test_defect_24_semicolon_slips_csv_gets_a_delimiter_hint(tmp_path: Path) -> None:
    cli, _log = open_event(tmp_path, "hotc-swiss-de", ["A", "B", "C", "D"], "--cut", "2")
    cli("round", "pair", "--seed-material", "semi 4 2 8", "--seed-source", "test",
        "--key", "hj.pem")
    (tmp_path / "slips.csv").write_text("round;table;winner\n1;1;1\n")
    before = snapshot(tmp_path / "t.db")
    run = cli("result", "import", "slips.csv", "--key", "sk.pem", code=2)
    assert "semicolon-separated (';')" in run.err
    assert snapshot(tmp_path / "t.db") == before


def _chromium() -> str | None:
    import shutil
    return shutil.which("chromium") or shutil.which("chromium-browser")


def test_defect_24_verify_page_code_block_fits_a_phone(tmp_path: Path) -> None:
    import subprocess

    import pytest

    from tests.helpers.published_event import make_event

    browser = _chromium()
    if browser is None:
        pytest.skip("no headless browser: install Debian's 'chromium' package")
    cli = make_event(tmp_path)
    cli("publish", "site", "--key", "hj.pem")
    site = tmp_path / "site"
    # the page pinned to 390 px (headless windows are at least 500 px): every <pre> holds
    # its text without a horizontal scroll (its scrollWidth is its clientWidth)
    probe = ("<style>html{width:390px}</style><script>addEventListener('load',()=>"
             "document.body.setAttribute('data-pre',[...document.querySelectorAll('pre')]"
             ".map(p=>p.scrollWidth+'/'+p.clientWidth).join(' ')))</script></body>")
    copy = site / "probe-verify.html"
    copy.write_text((site / "verify.html").read_text().replace("</body>", probe))
    dom = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                          "--hide-scrollbars", f"--user-data-dir={tmp_path / 'profile'}",
                          "--window-size=390,900", "--virtual-time-budget=2000",
                          "--dump-dom", copy.as_uri()], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    sizes = dom.split('data-pre="')[1].split('"')[0].split()
    assert sizes, "no code block measured"
    for size in sizes:
        scroll, client = (int(x) for x in size.split("/"))
        assert scroll <= client, f"the code block is {scroll}px wide in a {client}px box"


def test_defect_24_scorekeeper_posts_pairings_without_the_head_judges_key(
        tmp_path: Path) -> None:
    cli, _log = open_event(tmp_path, "bushiroad-swiss", [f"P{i}" for i in range(1, 11)])
    cli("round", "pair", "--seed-material", "post 3 1 4", "--seed-source", "test",
        "--key", "hj.pem")
    before = snapshot(tmp_path / "t.db")
    # the signed report is the head judge's: a scorekeeper is refused, told the way
    run = cli("publish", "site", "--key", "sk.pem", code=3)
    assert "--pairings-only" in run.err
    # pairings need no key, sign nothing and write nothing to the ledger
    cli.env.pop("TOURNEY_KEY", None)
    doc = cli("publish", "posted", "--pairings-only", "--json").doc
    assert doc["signed"] is False and doc["round"] == 1
    page = (tmp_path / "posted" / "round-1.html").read_text()
    assert "P1" in page and page == cli("round", "show", "1", "--html").out
    assert snapshot(tmp_path / "t.db") == before
