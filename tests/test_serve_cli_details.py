"""Issue 32 item 7: the smaller defects found running ``tourney serve`` on real events.

Real subprocess runs of the CLI (exit codes, one-line errors, nothing written on a
refusal); the search of the live pages in process.  Each test names the defect it
exercises; the backup and PostgreSQL ones are in ``tests/test_backup.py`` and
``tests/test_pg_connect_timeout.py``.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from ledger.wire.keys import load_signer
from tests.helpers.cli_event import open_event
from tests.helpers.cli_runner import Cli, raw_bytes, snapshot
from tests.helpers.live import get, running, serve_process
from tests.helpers.standings_play import pair, start

ROOT = Path(__file__).resolve().parents[1]
SK = ("--key", "sk.pem")


def test_simulate_demo_keys_are_git_ignored() -> None:
    """``tourney simulate`` writes private demo keys beside its ledger
    (``sim-70.db.demo-keys/<id>/*.pem``) or in ``./tourney-demo-keys/`` (PostgreSQL):
    a ``git add -A`` in a checkout must not pick them up."""
    paths = ["sim-70.db.demo-keys/sim-70/head-judge.pem",
             "sim-70-2.db.demo-keys/sim-70-2/scorekeeper.pem",
             "tourney-demo-keys/sim-8/head-judge.pem"]
    run = subprocess.run(["git", "check-ignore", "--no-index", *paths], cwd=ROOT,
                         capture_output=True, text=True, timeout=30)
    assert run.stdout.split() == paths, run.stdout + run.stderr


def test_round_show_json_carries_the_bo3_game_score(tmp_path: Path) -> None:
    """A Bushiroad BO3 result's game score (``--games 1-2``) was in the log and the text
    but not in ``round show --json``: each result now carries ``games`` ([wins of
    players[0], wins of players[1], draws]), null before a result; the other keys stay."""
    cli, _log = open_event(tmp_path, "bushiroad-swiss", ["Ann", "Bo", "Cy", "Di"],
                           "--param", "swiss_rounds=2", "--param", "match_format=BO3")
    cli("round", "pair", "--seed-material", "bo3 games 1 2 3", "--seed-source", "dice",
        "--key", "hj.pem")
    before = cli("round", "show", "1", "--json").doc
    assert all(t["result"] is None for t in before["tables"])
    t1, t2 = before["tables"]
    a, b = t1["players"]
    cli("result", "record", "--round", "1", "--table", str(t1["table"]), "--winner", str(b),
        "--games", "1-2", *SK)
    c, _d = t2["players"]
    cli("result", "record", "--round", "1", "--table", str(t2["table"]), "--winner", str(c),
        *SK)
    text_before = cli("round", "show", "1").out
    doc = cli("round", "show", "1", "--json").doc
    r1, r2 = (t["result"] for t in doc["tables"])
    assert set(r1) == {"seq", "winner", "losers", "outcome", "loss_reasons", "games"}
    assert r1["winner"] == b and r1["losers"] == [a] and r1["games"] == [1, 2, 0]
    assert r2["winner"] == c and r2["games"] == [2, 0, 0]     # BO3 win without --games
    assert "1-2" in text_before and "games" not in text_before


def _station_event(tmp_path: Path) -> Cli:
    """A HotC event of four, round 1 paired, with a station official (station.pem)."""
    cli, _log = start(tmp_path, "hotc-swiss-de", ["Ana A", "Bo B", "Cy C", "Dee D"])
    cli("keys", "new", "--name", "Live server", "--out", "station.pem")
    cli("official", "add", "--role", "station", "--name", "Live server", "--public-key",
        "station.pem.pub", "--key", "hj.pem")
    pair(cli, "hotc-swiss-de", 1)
    return cli


def _banner(cli: Cli, *serve_args: str) -> str:
    with serve_process(cli.cwd, cli.env, serve_args=serve_args) as (_base, proc):
        proc.terminate()
        out, _err = proc.communicate(timeout=10)
    return out


def test_serve_banner_and_help_say_it_writes_with_a_station_key(tmp_path: Path) -> None:
    """The banner said "the ledger is only read" and ``--help`` "writes nothing" even
    when the server took players' reports with ``--station-key`` (it writes them)."""
    cli = _station_event(tmp_path)
    help_text = " ".join(cli("serve", "--help").out.split())
    assert "writes nothing" not in help_text.replace("Without --station-key it writes "
                                                     "nothing", "")
    assert "with --station-key it also writes" in help_text
    reading = _banner(cli)
    assert "the ledger is only read" in reading and "WRITTEN" not in reading
    writing = _banner(cli, "--station-key", "station.pem")
    assert "the ledger is only read" not in writing
    assert "players' reports are WRITTEN to the ledger" in writing
    assert load_signer(tmp_path / "station.pem").key_id in writing


BAD_URLS = ["venue.example.org", "ftp://venue.example.org/", "http://", "http:///x",
            "http://venue.example.org:99999/", "http://venue.example.org:port/",
            "http://venue example.org/", "http://user:pw@venue.example.org/",
            "http://venue.example.org/?q=1", "http://venue.example.org/#top"]


def test_serve_url_is_validated_before_anything_is_written(tmp_path: Path) -> None:
    """``--url`` went into the QR code unchecked ("venue.example.org" made a code no phone
    opens): each bad address is a one-line usage error naming it (exit 2), before the
    port is bound; no QR page is written and the ledger is unchanged."""
    cli = _station_event(tmp_path)
    before = snapshot(cli.ledger)
    for bad in BAD_URLS:
        run = cli("serve", "--host", "127.0.0.1", "--port", "0", "--url", bad,
                  "--qr-page", "qr.html", code=2)
        assert f"--url {bad!r}" in run.err and "e.g. --url http://" in run.err, run.err
        assert not (tmp_path / "qr.html").exists()
    assert raw_bytes(cli.ledger) == before
    out = _banner(cli, "--url", " https://event.example.org:8443/spring ")
    assert "printable QR page: https://event.example.org:8443/spring/qr" in out


def test_serve_exit_codes_agree_with_the_docs(tmp_path: Path) -> None:
    """docs/LIVE.md said a missing tournament is a storage error (exit 5); it is the
    usage error every command gives (exit 2).  A missing ledger file, a file that is not
    a ledger: exit 5.  The docs and ``serve --help`` now say so, and nothing is written."""
    cli = _station_event(tmp_path)
    before = snapshot(cli.ledger)
    run = cli("--tournament", "no-such-event", "serve", "--host", "127.0.0.1", "--port",
              "0", code=2)
    assert "no tournament 'no-such-event'" in run.err
    run = cli("--ledger", str(tmp_path / "missing.db"), "serve", "--host", "127.0.0.1",
              "--port", "0", code=5)
    assert "missing.db does not exist" in run.err
    assert not (tmp_path / "missing.db").exists()
    (tmp_path / "notes.db").write_text("not a ledger\n" * 50)
    run = cli("--ledger", str(tmp_path / "notes.db"), "serve", "--host", "127.0.0.1",
              "--port", "0", code=5)
    assert "notes.db" in run.err
    assert (tmp_path / "notes.db").read_text() == "not a ledger\n" * 50
    assert raw_bytes(cli.ledger) == before
    help_text = " ".join(cli("serve", "--help").out.split())
    assert "2 for a port in use, a bad option or a missing --tournament" in help_text
    assert "5 for a missing ledger file" in help_text
    live = " ".join((ROOT / "docs" / "LIVE.md").read_text().split())
    assert "a missing tournament is a usage error (exit 2" in live


ACCENTED = ["Nguyễn Văn An", "Søren Ørsted", "Zoë Ångström", "Đặng Thị Bích", "Łukasz Żak",
            "Ana Alves"]


def test_find_folds_accents_and_case(tmp_path: Path) -> None:
    """``/find?q=nguyen`` did not find "Nguyễn" (case was folded, accents were not): a
    query and the public names are compared without case or accents, both ways."""
    from server.search import find, fold

    assert fold("Nguyễn") == "nguyen" and fold("ĐẶNG") == "dang" and fold("Ørsted") == \
        "orsted" and fold("ﬁnn") == "finn"
    labels = {i: f"#{i} {n}" for i, n in enumerate(ACCENTED, 1)}
    assert find(labels, "nguyen") == [(1, "#1 Nguyễn Văn An")]
    assert find(labels, "NGUYỄN van") == [(1, "#1 Nguyễn Văn An")]   # the name's start
    assert find(labels, "van") == [(1, "#1 Nguyễn Văn An")]
    assert [n for n, _ in find(labels, "sor")] == [2]
    assert [n for n, _ in find(labels, "angstrom")] == [3]
    assert [n for n, _ in find(labels, "dang")] == [4]
    assert [n for n, _ in find(labels, "lukasz")] == [5]
    assert [n for n, _ in find(labels, "zak")] == [5]
    assert [n for n, _ in find(labels, "Zoe")] == [3]
    assert [n for n, _ in find(labels, "a")] == [1, 3, 6]   # An, Ångström, Ana Alves
    assert find(labels, "#6") == [(6, "#6 Ana Alves")] and find(labels, "  ") == []
    cli, _log = start(tmp_path, "hotc-swiss-de", ACCENTED)
    pair(cli, "hotc-swiss-de", 1)
    with running(cli.ledger) as (base, _hub):
        for q, n in (("nguyen", 1), ("orsted", 2), ("zoe", 3), ("dang+thi", 4)):
            r = get(f"{base}/find?q={q}")
            assert r.status_code == 303 and r.headers["location"] == f"/p/{n}", (q, r.text)


def test_find_hint_fits_how_public_pages_name_players(tmp_path: Path) -> None:
    """With names shown as "Ann L." a last name cannot be found, with numbers only no
    name can: the search box and the no-match hint said "your first or last name"
    whatever the organizer chose."""
    cli, _log = start(tmp_path, "hotc-swiss-de", ACCENTED)
    pair(cli, "hotc-swiss-de", 1)
    with running(cli.ledger) as (base, _hub):
        full = get(base + "/find?q=zzz").text
        assert "Try the start of your first or last name" in full
        assert "Your name or player number" in get(base + "/find").text
    cli("pages", "set", "--names", "initial", "--key", "hj.pem")
    with running(cli.ledger) as (base, _hub):
        initial = get(base + "/find?q=orsted").text           # "#2 Søren Ø." only
        assert "No player matches" in initial and "last name" not in initial
        assert "your first name, or your player number" in initial
        assert get(base + "/find?q=soren").headers["location"] == "/p/2"
        assert "Find your table: your first name or player number" in get(base + "/").text
    cli("pages", "set", "--names", "number", "--key", "hj.pem")
    with running(cli.ledger) as (base, _hub):
        numbers = get(base + "/find?q=ana").text
        assert "No player matches" in numbers and "first name" not in numbers
        assert "search by your player number" in numbers
        assert "Your player number" in get(base + "/find").text
        assert "Find your table: your player number" in get(base + "/").text
        assert get(base + "/find?q=6").headers["location"] == "/p/6"
