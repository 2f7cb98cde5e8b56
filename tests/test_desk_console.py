"""The staff console ``/desk`` (issue 29 item 1) over HTTP: a real server on loopback, a
ledger the real CLI wrote, commands run by the CLI's own code, signed with each
official's own key.

A result is entered by table number with the outcome picked from the format's
vocabulary; the round at a glance drops that table; a refusal shows the CLI's own
sentence and writes nothing; a scorekeeper's card cannot issue a penalty (the CLI's role
refusal, nothing written); a judge checks a penalty first (its upgrade shown, nothing
signed) and then signs it; a disqualification is signed only after its confirmation; a
value of the wrong kind is refused before anything runs; a slip CSV uploaded as a file
is imported; a server without the official's key says so and signs nothing.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.helpers.cli_runner import CLOCK
from tests.helpers.desk_event import desk_event, desk_server, form_token, signed_in
from tests.helpers.live import ledger_bytes, wait_until


@pytest.fixture(autouse=True)
def _same_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOURNEY_FIXED_CLOCK", CLOCK)


def _post(c, base: str, url: str, data: dict[str, str]):  # type: ignore[no-untyped-def]
    c.get("/desk")
    return c.post(url, data={"csrf": c.cookies["tourney_csrf"], **data},
                  headers={"Origin": base})


def _main(text: str) -> str:
    m = re.search(r"<main>(.*)</main>", text, re.S)
    body = re.sub(r"<[^>]+>", " ", m.group(1) if m else text)
    return re.sub(r"\s+", " ", body.replace("&#39;", "'").replace("&quot;", '"'))


def test_a_result_by_table_a_refusal_in_the_clis_words_and_the_glance(
        tmp_path: Path) -> None:
    ev = desk_event(tmp_path, "bushiroad-swiss")
    t1 = ev.round1["tables"][0]
    a, b = t1["players"]
    with desk_server(ev) as (base, _hub):
        sk = signed_in(base, ev.cards["sk"])
        page = sk.get("/desk")
        assert page.status_code == 200
        text = _main(page.text)
        assert "4 of 4 tables without a result" in text
        assert "this server holds your key" in text
        # the table's outcomes come from the format's vocabulary
        form = sk.get(f"/desk/result?round=1&table={t1['table']}")
        assert form.status_code == 200 and 'type="radio"' in form.text
        win = re.search(r'name="choice" value="(\d+)"[^>]*> One of us won', form.text)
        assert win is not None, "the vocabulary's win is not offered"
        c = win.group(1)
        r = sk.post("/desk/result", data={"csrf": form_token(form.text), "round": "1",
                                          "table": str(t1["table"]), "choice": c,
                                          f"c{c}.winner": str(a)},
                    headers={"Origin": base})
        assert r.status_code == 200, _main(r.text)
        assert "Done" in r.text
        wait_until(lambda: "3 of 4 tables without a result" in _main(sk.get("/desk").text),
                   10)
        # corrected, with a reason (the form linked from the result page, prefilled)
        judge = signed_in(base, ev.cards["judge"])
        fix = judge.get(f"/desk/do/result/correct?round=1&table={t1['table']}")
        assert f'name="table" value="{t1["table"]}"' in fix.text
        r = _post(judge, base, "/desk/do/result/correct",
                  {"round": "1", "table": str(t1["table"]), "winner": str(b),
                   "reason": "slip misread"})
        assert r.status_code == 200 and "Done" in r.text, _main(r.text)
        # a refusal: the CLI's sentence, nothing written
        before = ledger_bytes(ev.cli.ledger)
        r = _post(sk, base, "/desk/do/drop", {"number": "99", "reason": "gone"})
        assert r.status_code in (400, 409), r.status_code
        words = _main(r.text)
        assert "Not done" in words and "Nothing was written" in words
        cli = ev.cli.plain("drop", "99", "--reason", "gone", "--key", "sk.pem",
                           env={"TOURNEY_LEDGER": str(ev.cli.ledger)})
        assert cli.code != 0
        sentence = cli.err.strip().splitlines()[0].removeprefix("error: ")
        assert sentence in words, (sentence, words)
        assert ledger_bytes(ev.cli.ledger) == before
        # a result form without its outcome: the form's words, nothing written
        r = _post(sk, base, "/desk/result", {"round": "1", "table": str(t1["table"])})
        assert r.status_code == 400 and "choose what happened" in _main(r.text)
        assert 'type="radio"' in r.text             # the table's form, shown again
        # a value of the wrong kind is refused before anything runs
        r = _post(sk, base, "/desk/do/drop", {"number": "seven"})
        assert r.status_code == 400 and "is not a whole number" in _main(r.text)
        # a form from elsewhere is refused
        r = sk.post("/desk/do/drop", data={"csrf": sk.cookies["tourney_csrf"], "number": "3"},
                    headers={"Origin": "http://evil.invalid"})
        assert r.status_code == 403
        assert ledger_bytes(ev.cli.ledger) == before
    leaves = [leaf["event"] for leaf in ev.cli("log", "--json").doc]
    rec = [e for e in leaves if e["kind"] == "result_recorded"]
    assert len(rec) == 1 and rec[0]["actor"] == ev.kids["sk"]
    assert rec[0]["body"]["winner"] == a and rec[0]["body"]["table"] == t1["table"]
    fixed = [e for e in leaves if e["kind"] == "result_corrected"]
    assert len(fixed) == 1 and fixed[0]["actor"] == ev.kids["judge"], fixed
    ev.cli("audit", "verify", str(ev.cli.ledger))


def test_penalties_follow_the_officials_roles_and_show_the_upgrade_first(
        tmp_path: Path) -> None:
    ev = desk_event(tmp_path, "bushiroad-swiss")
    n = ev.round1["tables"][1]["players"][0]
    pen = {"number": str(n), "infraction": "3.5.3.2", "penalty": "warning"}
    with desk_server(ev) as (base, _hub):
        sk = signed_in(base, ev.cards["sk"])
        before = ledger_bytes(ev.cli.ledger)
        r = _post(sk, base, "/desk/do/penalty/issue", pen)
        assert r.status_code in (403, 409), r.status_code
        words = _main(r.text)
        assert "Not done" in words and "Nothing was written" in words
        cli = ev.cli.plain("penalty", "issue", str(n), "--infraction", "3.5.3.2",
                           "--penalty", "warning", "--key", "sk.pem",
                           env={"TOURNEY_LEDGER": str(ev.cli.ledger)})
        said = cli.err.strip().splitlines()[0].removeprefix("error: ")
        assert cli.code != 0 and said in words, (said, words)
        assert ledger_bytes(ev.cli.ledger) == before
        judge = signed_in(base, ev.cards["judge"])
        page = judge.get("/desk/do/penalty/issue")
        assert '<datalist id="guide">' in page.text and "Looking at extra cards" in page.text
        r = _post(judge, base, "/desk/do/penalty/issue", pen)
        assert r.status_code == 200 and "Done" in r.text, _main(r.text)
        # a second offence of the group: checked first, the upgrade shown, nothing signed
        wait_until(lambda: ledger_bytes(ev.cli.ledger) != before, 10)
        after_first = ledger_bytes(ev.cli.ledger)
        r = _post(judge, base, "/desk/do/penalty/issue",
                  {**pen, "infraction": "3.5.2", "check": "1"})
        words = _main(r.text)
        assert r.status_code == 200 and "Check only, nothing signed" in words
        assert "upgrade offered" in words, words
        assert ledger_bytes(ev.cli.ledger) == after_first
    ev.cli("audit", "verify", str(ev.cli.ledger))


def test_a_disqualification_is_signed_only_after_its_confirmation(tmp_path: Path) -> None:
    ev = desk_event(tmp_path, "bushiroad-swiss")
    n = ev.round1["tables"][2]["players"][0]
    form = {"number": str(n), "infraction": "4.1", "reason": "cheating at table 3"}
    with desk_server(ev) as (base, _hub):
        hj = signed_in(base, ev.cards["hj"])
        before = ledger_bytes(ev.cli.ledger)
        r = _post(hj, base, "/desk/do/disqualify", form)
        assert r.status_code == 200 and "This cannot be taken back" in r.text
        assert ledger_bytes(ev.cli.ledger) == before
        r = hj.post("/desk/do/disqualify", data={"csrf": form_token(r.text), **form,
                                                 "confirm": "yes"},
                    headers={"Origin": base})
        assert r.status_code == 200 and "Done" in r.text, _main(r.text)
    kinds = [leaf["event"]["kind"] for leaf in ev.cli("log", "--json").doc]
    assert "disqualified" in " ".join(kinds)


def test_a_slip_csv_uploaded_as_a_file_is_imported(tmp_path: Path) -> None:
    ev = desk_event(tmp_path, "bushiroad-swiss")
    t = ev.round1["tables"]
    csv = "round,table,winner\n" + "".join(f"1,{x['table']},{x['players'][1]}\n"
                                          for x in t[:2])
    with desk_server(ev) as (base, _hub):
        sk = signed_in(base, ev.cards["sk"])
        page = sk.get("/desk/do/result/import")
        assert 'type="file"' in page.text and 'enctype="multipart/form-data"' in page.text
        r = sk.post("/desk/do/result/import", data={"csrf": form_token(page.text)},
                    files={"file": ("slips.csv", csv.encode(), "text/csv")},
                    headers={"Origin": base})
        assert r.status_code == 200 and "Done" in r.text, _main(r.text)
    rec = [leaf["event"] for leaf in ev.cli("log", "--json").doc
           if leaf["event"]["kind"] == "result_recorded"]
    assert sorted(e["body"]["table"] for e in rec) == sorted(x["table"] for x in t[:2])


def test_a_server_without_the_officials_key_signs_nothing(tmp_path: Path) -> None:
    ev = desk_event(tmp_path, "bushiroad-swiss")
    with desk_server(ev, hold=("hj",)) as (base, _hub):
        sk = signed_in(base, ev.cards["sk"])
        page = sk.get("/desk")
        said = _main(page.text)    # none, or a browser key once those routes are there
        assert "Key: none here" in said or "holds no key of yours" in said
        before = ledger_bytes(ev.cli.ledger)
        r = _post(sk, base, "/desk/do/drop", {"number": "3", "reason": "left"})
        assert r.status_code == 403 and "does not hold your key" in _main(r.text)
        assert ledger_bytes(ev.cli.ledger) == before
        # a time-keeper's card opens the console too (what it may sign is the ledger's)
        tk = signed_in(base, ev.cards["tk"]).get("/desk")
        assert tk.status_code == 200 and "time keeper" in tk.text
    import httpx

    with desk_server(ev) as (base, _hub):     # no card: no console
        assert httpx.get(base + "/desk").status_code == 403


def test_the_glance_shows_reports_side_by_side_the_clock_per_table_and_prints_slips(
        tmp_path: Path) -> None:
    import csv

    import httpx

    ev = desk_event(tmp_path, "bushiroad-swiss")
    ev.cli("player", "cards", "--url", "http://venue.invalid/", "--out", "cards.html",
           "--csv", "cards.csv", "--key", "hj.pem")
    with open(tmp_path / "cards.csv", newline="") as f:
        tokens = {int(r["number"]): r["url"].rsplit("/c/", 1)[1] for r in csv.DictReader(f)}
    t1, t2 = ev.round1["tables"][:2]
    a, b = t1["players"]
    with desk_server(ev) as (base, _hub):
        # a player reports from their phone: the table is one-sided, the report shown
        phone = httpx.Client(base_url=base)
        assert phone.get(f"/c/{tokens[a]}").status_code == 303
        form = phone.get("/report").text
        win = re.search(r'name="choice" value="(\d+)"[^>]*>\s*(?:<[^>]+>\s*)*One of us won',
                        form)
        assert win is not None
        r = phone.post("/report", data={"csrf": form_token(form), "choice": win.group(1),
                                        f"c{win.group(1)}.winner": str(a)},
                       headers={"Origin": base})
        assert r.status_code == 303, r.text
        hj = signed_in(base, ev.cards["hj"])
        wait_until(lambda: "1 one-sided" in _main(hj.get("/desk").text), 10)
        row = re.search(rf'<tr class="st-one_sided" id="t{t1["table"]}">(.*?)</tr>',
                        hj.get("/desk").text, re.S)
        assert row is not None and "one-sided" in row.group(1)
        # the other player agrees: matching, accepted from the glance, back to it
        other = httpx.Client(base_url=base)
        assert other.get(f"/c/{tokens[b]}").status_code == 303
        form = other.get("/report").text
        r = other.post("/report", data={"csrf": form_token(form), "choice": win.group(1),
                                        f"c{win.group(1)}.winner": str(a)},
                       headers={"Origin": base})
        assert r.status_code == 303, r.text
        wait_until(lambda: "Accept<span" in hj.get("/desk").text, 10)
        r = hj.post("/desk/do/report/accept", data={
            "csrf": hj.cookies["tourney_csrf"], "back": "desk", "round": "1",
            "table": str(t1["table"])}, headers={"Origin": base})
        assert r.status_code == 303 and r.headers["location"].startswith("/desk?done=")
        page = hj.get(r.headers["location"]).text
        assert "Recorded (log size" in page and f'id="t{t1["table"]}"' not in page
        # the round clock, and a table's own extension
        r = _post(hj, base, "/desk/do/round/start", {"minutes": "50"})
        assert r.status_code == 200, _main(r.text)
        r = _post(hj, base, "/desk/do/round/extend",
                  {"round": "1", "table": str(t2["table"]), "minutes": "5",
                   "reason": "deck check"})
        assert r.status_code == 200, _main(r.text)
        page = _main(hj.get("/desk").text)
        assert "Clock: 50 minutes" in page
        row = re.search(rf'id="t{t2["table"]}">(.*?)</tr>', hj.get("/desk").text, re.S)
        assert row is not None and "(+5)" in row.group(1) and "min" in row.group(1)
        # print: every table's slip
        slips = hj.get("/desk/slips/1")
        assert slips.status_code == 200
        assert slips.text.count('class="slip"') == len(ev.round1["tables"])
        assert hj.get("/desk/slips/9").status_code == 404
    ev.cli("audit", "verify", str(ev.cli.ledger))


def test_a_form_as_the_commands_arguments_for_a_browser_key(tmp_path: Path) -> None:
    """``POST /desk/args/PATH`` (what a browser-held key prepares, signs and submits):
    the form's arguments by the spec, the result form's by the vocabulary, a bad value
    refused; nothing runs."""
    ev = desk_event(tmp_path, "bushiroad-swiss")
    t1 = ev.round1["tables"][0]
    a = t1["players"][0]
    with desk_server(ev, hold=("hj",)) as (base, _hub):
        sk = signed_in(base, ev.cards["sk"])
        before = ledger_bytes(ev.cli.ledger)
        r = _post(sk, base, "/desk/args/drop", {"number": "3", "reason": "left"})
        assert r.status_code == 200
        assert r.json() == {"ok": True, "path": "drop",
                            "args": {"number": 3, "reason": "left"}}
        form = sk.get(f"/desk/result?round=1&table={t1['table']}").text
        c = re.search(r'name="choice" value="(\d+)"[^>]*> One of us won', form).group(1)  # type: ignore[union-attr]
        r = _post(sk, base, "/desk/args/result", {"round": "1", "table": str(t1["table"]),
                                                  "choice": c, f"c{c}.winner": str(a)})
        doc = r.json()
        assert doc["ok"] and doc["path"] == "result/record", doc
        assert doc["args"]["round"] == 1 and doc["args"]["table"] == t1["table"]
        assert str(doc["args"]["winner"]) == str(a)
        r = _post(sk, base, "/desk/args/drop", {"number": "x"})
        assert r.status_code == 400 and "is not a whole number" in r.json()["error"]["message"]
        r = sk.post("/desk/args/drop", data={"number": "3"}, headers={"Origin": base})
        assert r.status_code == 403
        assert ledger_bytes(ev.cli.ledger) == before


def test_hostile_forms_from_a_staff_card_never_get_a_server_error(tmp_path: Path) -> None:
    """Hypothesis over the console's forms, posted with the head judge's card and form
    token to a server holding every key: any command, odd fields and values, files and
    pastes — every answer is below 500 and shows no trace (bounded: 120 examples)."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    ev = desk_event(tmp_path, "bushiroad-swiss")
    with desk_server(ev) as (base, _hub):
        hj = signed_in(base, ev.cards["hj"])
        hj.get("/desk")
        token = hj.cookies["tourney_csrf"]
        paths = sorted(set(re.findall(r'href="/desk/do/([a-z/-]+)"', hj.get("/desk").text)))
        assert len(paths) > 20, paths
        names = ["number", "round", "table", "reason", "winner", "infraction", "penalty",
                 "minutes", "file.paste", "all_matching", "confirm", "check", "games",
                 "seed_material", "players", "name", "choice", "c0.winner", "back"]
        text = st.one_of(st.sampled_from(["", "0", "1", "2", "-1", "yes", "x" * 300, "²",
                                          "3.5.2", "warning", "1,2", "\u202e", "9" * 30]),
                         st.text(max_size=20))

        @settings(max_examples=120, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(path=st.sampled_from([*paths, "result", "args/drop", "args/result"]),
               form=st.dictionaries(st.sampled_from(names), text, max_size=6))
        def one(path: str, form: dict[str, str]) -> None:
            url = "/desk/result" if path == "result" else \
                f"/desk/{path}" if path.startswith("args/") else f"/desk/do/{path}"
            r = hj.post(url, data={"csrf": token, **form}, headers={"Origin": base})
            assert r.status_code < 500, (url, form, r.status_code, r.text[-400:])
            assert "Traceback" not in r.text

        one()
    ev.cli("audit", "verify", str(ev.cli.ledger))


@pytest.mark.parametrize("fmt", ["hotc-swiss-de", "wot-2001"])
def test_a_result_by_table_in_the_formats_own_words_is_the_clis_event(
        tmp_path: Path, fmt: str) -> None:
    """The first outcome of the table's form (Heroes: a win; Wheel of Time: decided in the
    Last Battle, with the Pattern) is recorded; the same result through the CLI, on a
    copy of the ledger as it was, writes the same body."""
    import shutil

    ev = desk_event(tmp_path / "desk", fmt)
    twin = tmp_path / "twin"
    shutil.copytree(ev.dir, twin)
    t = ev.round1["tables"][0]
    a, b = t["players"]
    data = {"round": "1", "table": str(t["table"]), "choice": "0", "c0.winner": str(a)}
    cli_args = ["--winner", str(a)]
    if fmt.startswith("wot"):
        data.update({f"c0.pattern.{a}": "5", f"c0.pattern.{b}": "2"})
    with desk_server(ev) as (base, _hub):
        sk = signed_in(base, ev.cards["sk"])
        r = _post(sk, base, "/desk/result", data)
        assert r.status_code == 200 and "Done" in r.text, _main(r.text)
    body = next(x["event"] for x in ev.cli("log", "--json").doc
                if x["event"]["kind"] == "result_recorded")["body"]
    if fmt.startswith("wot"):
        assert body["winner"] == a and body["outcome"] == "Q1", body
        cli_args = ["--outcome", "Q1", "--winner", str(a), "--pattern", f"{a}=5,{b}=2"]
    from tests.helpers.cli_runner import Cli

    copy = Cli(twin, twin / "t.db")
    copy("result", "record", "--round", "1", "--table", str(t["table"]), *cli_args,
         "--key", "sk.pem")
    same = next(x["event"] for x in copy("log", "--json").doc
                if x["event"]["kind"] == "result_recorded")["body"]
    assert same == body
