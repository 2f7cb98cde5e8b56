"""The ledger's refusals a player or an official reads on a page, in the page's language
(issue 31 item 2; ADR 0063's patterns, extended by branch jswords).

A refused act of a player's page (/report, /drop, /deck, /call, binding a phone's key)
shows "Not recorded: " and the player's sentence of the ``RuleError``
(``ledger.core.player_words.refusal``: its plain text, or the ``REFUSALS`` line of its
rule, already translated); a refused staff decision (/staff: accept, record, set aside;
its judge-call panel: claim, close) shows "Not recorded: " and the CLI's sentence, rule
id kept (``refusal(err).why``).  Both go through ``server.sentences`` when the page is
rendered.

The sentences are not listed by hand: the ``RuleError(...)`` calls of the rule functions
each page's act meets (``PLAYER``, ``STAFF``: a module and the functions whose refusals
count, with the functions of that module they call) are read from the source, their
f-string values set to 7, and each one's shown text must have a Japanese and an Arabic
translation with no English words left in a row.
"""

from __future__ import annotations

import re
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from ledger.core.player_words import REFUSALS, REFUSED, refusal
from server.i18n import Language
from server.sentences import sentence
from tests.helpers.refusal_scan import COMMAND, ENGLISH, FMT, PLAYER, STAFF, _refusals


def _player_texts() -> list[str]:
    shown = {refusal(e).text for e in _refusals(PLAYER)}
    return sorted("Not recorded: " + t for t in shown
                  if t not in REFUSALS.values() and t != REFUSED)


def _staff_texts() -> list[str]:
    return sorted({"Not recorded: " + refusal(e).why for e in _refusals(STAFF)})


def test_the_scan_finds_the_refusals() -> None:
    player, staff = _player_texts(), _staff_texts()
    assert "Not recorded: the note is longer than 7 characters (say it to the judge)" \
        in player
    assert "Not recorded: the cited reports disagree [REPORT-11] (a scorekeeper decides)" \
        in staff
    assert len(player) >= 8 and len(staff) >= 12


def _untranslated(texts: list[str], lang: Language) -> list[str]:
    return [t for t in texts if (out := sentence(FMT, lang, t)) == t
            or ENGLISH.search(COMMAND.sub("", out))]


@pytest.mark.parametrize("lang", [Language.JA, Language.AR])
def test_every_refusal_a_player_reads_is_translated(lang: Language) -> None:
    assert _untranslated(_player_texts(), lang) == []


@pytest.mark.parametrize("lang", [Language.JA, Language.AR])
def test_every_refusal_an_official_reads_on_the_staff_page_is_translated(
        lang: Language) -> None:
    assert _untranslated(_staff_texts(), lang) == []


def _one_sided(desk: Any) -> bool:
    """The staff queue shows the table with its one report (read in English by a client
    of its own: ``?lang=en`` keeps English in that client's cookie, not in ``desk``'s)."""
    import httpx

    with httpx.Client(base_url=desk.base_url, cookies=desk.cookies) as look:
        return "1 one-sided" in look.get("/staff?lang=en").text


@pytest.fixture()
def _same_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.helpers.cli_runner import CLOCK

    monkeypatch.setenv("TOURNEY_FIXED_CLOCK", CLOCK)


@pytest.mark.usefixtures("_same_clock")
def test_a_refused_staff_decision_in_japanese(tmp_path: Path) -> None:
    """A real server over a ledger the CLI wrote: a scorekeeper's decision citing a
    report that is not the table's (a stale staff page) is refused on /staff in Japanese
    for a Japanese staff page, rule id kept, in the same English as before for an English
    one; nothing written."""
    import httpx

    from tests.helpers.cli_runner import snapshot
    from tests.helpers.live import running, wait_until
    from tests.helpers.reporting_phones import _phone, _post, reporting_event
    from tests.helpers.staff import _csrf, _staff_token

    cli, doc, tokens = reporting_event(tmp_path)
    staff = _staff_token(cli, tmp_path, "sk", "sk")
    t1 = doc["tables"][0]  # type: ignore[index]
    a = t1["players"][0]
    with running(cli.ledger, station_key=tmp_path / "station.pem",
                 staff_keys=(tmp_path / "sk.pem",)) as (base, _hub):
        assert _post(_phone(base, tokens[a]), base, a).status_code == 303
        said: dict[str, str] = {}
        for lang in ("en", "ja"):
            desk = httpx.Client(base_url=base, cookies={"lang": lang})
            assert desk.get(f"/c/{staff}").status_code == 303
            wait_until(partial(_one_sided, desk), 5)
            page = desk.get("/staff").text
            before = snapshot(cli.ledger)
            r = desk.post("/staff/record", data={"csrf": _csrf(page), "round": "1",
                                                  "table": str(t1["table"]), "report": "2"},
                          headers={"Origin": base})
            assert r.status_code == 422 and snapshot(cli.ledger) == before
            m = re.search(r'role="alert" data-hold>([^<]*)</p>', r.text)
            assert m is not None, r.text
            said[lang] = m.group(1).replace("&#39;", "'")
    table = t1["table"]
    assert said["en"] == f"Not recorded: seq 2 is not a current report of round 1 table " \
        f"{table} [REPORT-10] (reload the staff page)"
    assert said["ja"] == f"記録されませんでした：記録2はラウンド1・{table}番卓の現在の報告では" \
        "ありません [REPORT-10]（スタッフページを読み込み直してください）"
