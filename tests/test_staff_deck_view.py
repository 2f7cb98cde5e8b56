"""A judge with a staff card sees the registered lists of a table during its deck check
(issue 30 item 4) on the staff page of a real server; a scorekeeper does not; once the
check ends the lists are gone from the page.  A list registered by hash only shows its
hash (the paper sheet is the list)."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.desk_event import desk_event, signed_in
from tests.helpers.live import running

LIST = "4 Alpha Strike\n4 Beta Guard\n"


def test_the_judge_sees_the_lists_during_a_check(tmp_path: Path) -> None:
    ev = desk_event(tmp_path, "bushiroad-swiss")
    cli = ev.cli
    tab = ev.round1["tables"][0]
    a, b = tab["players"]
    (tmp_path / "a.txt").write_text(LIST)
    (tmp_path / "b.txt").write_text("3 Gamma\n")
    cli("deck", "register", str(a), "--file", "a.txt", "--key", "sk.pem")
    reg_b = cli("deck", "register", str(b), "--file", "b.txt", "--hash-only", "--key",
                "sk.pem", "--json").doc
    start = cli("deck", "start", "--round", "1", "--table", str(tab["table"]), "--key",
                "judge.pem", "--json").doc
    with running(cli.ledger, station_key=ev.dir / "station.pem") as (base, _hub):
        judge = signed_in(base, ev.cards["judge"]).get("/staff").text
        keeper = signed_in(base, ev.cards["sk"]).get("/staff").text
    assert "Deck checks in progress" in judge and "4 Alpha Strike" in judge
    assert reg_b["event"]["event"]["body"]["sha256"] in judge and "3 Gamma" not in judge
    assert "Deck checks in progress" not in keeper and "4 Alpha Strike" not in keeper
    cli("deck", "end", str(start["seq"]), "--outcome", "matches", "--key", "judge.pem")
    with running(cli.ledger, station_key=ev.dir / "station.pem") as (base, _hub):
        after = signed_in(base, ev.cards["judge"]).get("/staff").text
    assert "Deck checks in progress" not in after and "4 Alpha Strike" not in after


def test_a_published_list_is_on_the_verify_page_with_its_hash(tmp_path: Path) -> None:
    import hashlib

    import httpx

    ev = desk_event(tmp_path, "bushiroad-swiss")
    cli = ev.cli
    (tmp_path / "a.txt").write_text(LIST)
    cli("deck", "register", "3", "--file", "a.txt", "--hash-only", "--key", "sk.pem")
    with running(cli.ledger) as (base, _hub):
        before = httpx.get(base + "/verify", timeout=30).text
    assert "4 Alpha Strike" not in before and "Published deck lists" not in before
    cli("deck", "publish", "3", "--file", "a.txt", "--key", "hj.pem")
    with running(cli.ledger) as (base, _hub):
        page = httpx.get(base + "/verify", timeout=30).text
    assert "4 Alpha Strike" in page
    assert hashlib.sha256(LIST.encode()).hexdigest() in page
