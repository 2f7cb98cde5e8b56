"""Every face in Japanese, with each format's own words (issue 31 items 1-2, branch
``words``): the formats' catalogues (``ledger/formats/<folder>/locale/ja/LC_MESSAGES/
<folder>.po``) complete and well formed; their words looked up in the format's domain
first, then the site's, then shown in English (never an id); and the rendered Japanese
pages of every format — home, pairings, a round, standings, a player's page, the
bracket, verify and the hall screen — scanned for English words *including* the format's
own (result texts, round names, status lines, standings columns and statuses), which the
first slice's scan had to leave out.  English pages keep their words."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from ledger.formats.registry import FORMAT_IDS, folder
from server.format_words import FORMATS, Words, catalogue_path, format_translations
from server.i18n import Language
from tests.helpers.live import get, ledger_bytes, running
from tests.helpers.page_text import PageText as _Text
from tests.helpers.standings_play import pair, play, start

NAMES = ["Nguyễn Văn An", "やまだ はなこ", "Søren Ørsted", "カタカナ タロウ", "Ana Alves",
         "Zoë Ångström", "Bo Chen", "Di Eve"]
FIELD = re.compile(r"%\((\w+)\)s")


def _catalogue(fold: str) -> Any:
    from babel.messages.pofile import read_po

    with catalogue_path(fold, Language.JA).open("rb") as f:
        return read_po(f, locale="ja")


def test_every_format_folder_has_a_complete_japanese_catalogue() -> None:
    """Each format folder of the registry has its Japanese catalogue; every entry has a
    text (not empty, not fuzzy) with the same fields, and no markup."""
    folders = {folder(f) for f in FORMAT_IDS}
    assert folders == {"hotc", "bushiroad", "wot"}
    for fold in sorted(f for f in folders if f):
        assert catalogue_path(fold, Language.JA).is_relative_to(FORMATS / fold)
        cat = _catalogue(fold)
        entries = [m for m in cat if m.id]
        assert len(entries) > 50, fold
        for m in entries:
            texts = m.string if isinstance(m.string, tuple) else (m.string,)
            mid = m.id if isinstance(m.id, str) else m.id[0]
            assert all(texts) and not m.fuzzy, (fold, mid)
            assert all(set(FIELD.findall(t)) == set(FIELD.findall(mid)) for t in texts), mid
            assert not any(c in t for t in texts for c in "<>&"), (fold, mid)


def test_the_format_domain_first_then_the_site_then_english() -> None:
    """Bushiroad calls a player a fighter (ファイター), HotC a player; a word only the
    site has comes from the site's catalogue; a word nobody has stays English."""
    bush, hotc = Words("bushiroad-swiss", Language.JA), Words("hotc-swiss-de", Language.JA)
    assert bush("Player name.") == "ファイター名。" and hotc("Player name.") == "プレイヤー名。"
    assert bush("Pairings") == "対戦表"                  # the site's word, through the fallback
    assert bush("Not a word of any catalogue") == "Not a word of any catalogue"
    assert format_translations("bushiroad-swiss", Language.EN).gettext("Final") == "Final"
    assert Words("bushiroad-swiss", Language.EN)("Final") == "Final"
    assert Words("no-such-format", Language.JA)("Pairings") == "対戦表"


def test_patterns_fill_their_fields() -> None:
    """Composed texts match their pattern; numbers and names are copied; a ``t_`` field
    is looked up again; a literal "%" survives; the longest pattern wins."""
    bush, wot = Words("single-elim", Language.JA), Words("wot-2001", Language.JA)
    assert bush("#3 wins 1-0") == "#3の勝ち 1-0"
    assert bush("Round 12 is being played: 3 of 40 results in.") == \
        "ラウンド12 進行中：結果 3／40 件"
    assert bush("standings after 2 of 9 rounds (provisional: MW% over the rounds played)") \
        == "2／9ラウンド終了時点の順位（暫定：MW%は終了したラウンドで計算）"
    assert bush("round 2: warning (Slow play, minor) — own penalty") == \
        "ラウンド2：警告（遅延行為（軽度）） — 本人のペナルティ"
    assert wot("Q5 #2 wins (pattern #2=11, #9=10; neutral 0; #9 conceded; LB)") == \
        "Q5 #2の勝ち（パターン #2=11, #9=10、ニュートラル 0、#9が投了、最終決戦）"
    # a field's value that is no phrase of the catalogue stays as it was
    assert bush("round 2: warning (A new infraction)") == "ラウンド2：警告（A new infraction）"
    assert bush("12") == "12" and bush("") == ""


def _scan(html: str, allowed: set[str], skip: frozenset[str] = frozenset()) -> list[str]:
    """The page's Latin words outside names (``<bdi>``), code, the log's footer and the
    switch — the format's words included; ``skip``: more classes or tags left out."""

    class _All(_Text):
        SKIP_TAGS = {"bdi", "code", "pre", "script", "style", "title", "footer",
                     "time"} | skip
        SKIP_CLASSES = {"checkable", "langs", "mono", "url"} | skip

    p = _All()
    p.feed(html)
    return sorted({w for w in re.findall(r"[A-Za-z]{2,}", " ".join(p.words))
                   if w not in allowed})


#: Latin that belongs in a Japanese page: abbreviations the Japanese rules use as they
#: are, the formats' names, the time zone, hashes' names
ALLOWED = {"UTC", "MW", "OMW", "OOMW", "GP", "TBP", "HotC", "Wheel", "of", "Time",
           "CCG", "SHA", "QR", "seq"}


@pytest.mark.parametrize("fmt", ["hotc-swiss-de", "bushiroad-swiss", "single-elim",
                                 "wot-2001"])
def test_every_page_of_every_format_in_japanese(tmp_path: Path, fmt: str) -> None:
    """Two rounds played, the third paired: every player-facing page in Japanese has no
    English word left, the format's own words included; the English pages keep theirs;
    the ledger is untouched by reading."""
    cli, _log = start(tmp_path, fmt, NAMES)
    for n in (1, 2):
        play(cli, fmt, n, pair(cli, fmt, n))
    if fmt == "hotc-swiss-de":          # the Swiss phase is over: the top cut's bracket
        seed = ("--seed-material", "words cut 2 7 1", "--seed-source", "dice")
        cli("cut", *seed, "--key", "hj.pem")
        cli("bracket", *seed, "--key", "hj.pem")
    else:
        pair(cli, fmt, 3)
    before = ledger_bytes(cli.ledger)
    paths = ["/", "/pairings", "/round/1", "/round/2", "/standings", "/p/1", "/p/2",
             "/p/5", "/verify", "/screen", "/bracket", "/find"]
    with running(cli.ledger) as (base, hub):
        has_bracket = bool(hub.pages.data.bracket["rounds"] or hub.pages.data.bracket["seeds"])
        pages = {p: get(f"{base}{p}?lang=ja") for p in paths
                 if p != "/bracket" or has_bracket}
        english = {p: get(base + p, Cookie="lang=en").text for p in ("/standings", "/p/1")}
    for path, r in pages.items():
        assert r.status_code == 200, path
        assert '<html lang="ja" dir="ltr">' in r.text and '<main lang="en">' not in r.text, path
        assert _scan(r.text, ALLOWED) == [], (fmt, path)
        assert "%(" not in r.text, path
    assert "RANK" in english["/standings"] and "Opponent" in english["/p/1"]
    assert {"RANK", "Standings"} <= set(_scan(english["/standings"], ALLOWED))  # it can fail
    assert "順位" in pages["/standings"].text
    assert ledger_bytes(cli.ledger) == before


def test_bushiroad_pages_use_the_floor_rules_words(tmp_path: Path) -> None:
    """A Bushiroad event's standings in Japanese name the column tips with ファイト /
    ファイター (the floor rules' words), and its Swiss phase is スイスドロー."""
    fmt = "bushiroad-swiss"
    cli, _log = start(tmp_path, fmt, NAMES)
    play(cli, fmt, 1, pair(cli, fmt, 1))
    with running(cli.ledger) as (base, _hub):
        standings = get(base + "/standings?lang=ja").text
        round1 = get(base + "/round/1?lang=ja").text
    assert "ファイト" in standings and "ファイター" in standings
    assert "スイスドロー" in round1 and "ラウンド1" in round1


def test_call_and_receipt_pages_in_japanese(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A player whose phone reads Japanese calls a judge: the call page, the answer and
    the receipt of the call are Japanese (no English word left outside names, code and
    the signed event's JSON); the same phone in English reads English."""
    from tests.helpers.calls import calls_event, slow_station_clock
    from tests.helpers.reporting_phones import _phone
    from tests.helpers.staff import _csrf

    cli, doc, tokens, staff = calls_event(tmp_path)
    slow_station_clock(monkeypatch)
    t1 = doc["tables"][0]  # type: ignore[index]
    a, _b = t1["players"]
    with running(cli.ledger, station_key=tmp_path / "station.pem",
                 staff_keys=(tmp_path / "judge.pem",)) as (base, _hub):
        phone = _phone(base, tokens[a])
        phone.cookies.set("lang", "ja")
        form = phone.get("/call")
        assert form.status_code == 200 and "ジャッジを呼ぶ" in form.text
        assert _scan(form.text, ALLOWED) == []
        r = phone.post("/call", data={"csrf": _csrf(form.text), "note": "rules question"},
                       headers={"Origin": base})
        assert r.status_code == 303
        answer = phone.get(r.headers["location"]).text
        assert "ジャッジが向かっています" in answer and f"{t1['table']}番卓へ" in answer
        assert _scan(answer, ALLOWED) == []
        seq = int(r.headers["location"].split("done=")[1])
        receipt = phone.get(f"/receipt/{seq}").text
        assert '<html lang="ja"' in receipt and "この受領証を保存してください" in receipt
        assert "<h2>ログに記録：ジャッジ呼び出し</h2>" in receipt
        assert _scan(receipt, ALLOWED) == []
        phone.cookies.set("lang", "en")
        assert "Keep this receipt" in phone.get(f"/receipt/{seq}").text
        # the judge's phone: the reports queue and the call queue in Japanese (the
        # player's note is their own words)
        desk = httpx.Client(base_url=base)
        assert desk.get(f"/c/{staff}").status_code == 303
        queue = desk.get("/staff?lang=ja").text
        assert "ジャッジ呼び出し" in queue and "対応する：向かいます" in queue
        assert _scan(queue, ALLOWED | {"rules", "question"}) == []
        assert "Judge calls" in desk.get("/staff?lang=en").text


def test_the_desk_console_in_japanese(tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The desk's console and its result-by-table page in Japanese: its own words (the
    glance, the calls, the quick entry, the print list, the key line) Japanese, and the
    result form's rule texts too (the format's catalogue, branch cmdwords2); the command
    list is scanned by ``tests/test_i18n_command_words.py``."""
    from tests.helpers.calls import calls_event, slow_station_clock

    cli, doc, _tokens, staff = calls_event(tmp_path)
    slow_station_clock(monkeypatch)
    table = doc["tables"][0]["table"]  # type: ignore[index]
    with running(cli.ledger, station_key=tmp_path / "station.pem",
                 staff_keys=(tmp_path / "judge.pem",)) as (base, _hub):
        desk = httpx.Client(base_url=base)
        assert desk.get(f"/c/{staff}").status_code == 303
        desk.cookies.set("lang", "ja")
        console = desk.get("/desk").text
        result = desk.get(f"/desk/result?round=1&table={table}").text
        desk.cookies.set("lang", "en")
        english = desk.get("/desk").text
    assert '<html lang="ja" dir="ltr">' in console and "卓番号で結果を入力" in console
    assert "Enter a result by table" in english
    own = console.split('<section class="commands"', 1)[0]
    assert _scan(own, ALLOWED) == []
    # the desk's result form: the players' names in the choosers stay as they are; the
    # rule texts' typed words (NUMBER, rule ids) are scanned in test_i18n_formats_desk.py
    assert "HOTC-TIME-2" in result and "時間切れ" in result.split("rule-words", 1)[1]
    assert _scan(result, ALLOWED | {"NUMBER", "HOTC", "TIME", "TOP", "AMB"},
                 frozenset({"option"})) == []


@pytest.mark.parametrize("fmt", ["hotc-swiss-de", "bushiroad-swiss", "wot-2001"])
def test_report_form_choices_in_the_format_s_words(tmp_path: Path, fmt: str) -> None:
    """The report form's choices and field labels are the format's words, in its
    catalogue: in Japanese nothing English is left inside the ``<fieldset>``s either
    (players' names in the choosers aside)."""
    from tests.helpers.report_event import NAMES as REPORT_NAMES
    from tests.helpers.report_event import app_over, phone, prepared

    root, doc, tokens = prepared(tmp_path / "ev", fmt)
    first = doc["tables"][0]
    a = first["players"][0] if "players" in first else first["hero"]
    with app_over(root / "t.db", root / "station.pem") as (_c, _hub, app):
        page = phone(app, tokens[a]).get("/report?lang=ja")
    assert page.status_code == 200 and "<fieldset>" in page.text
    # the choosers' options read too (a switch's answers: WoT's "in the Last Battle"),
    # the players' names aside
    names = {w for n in REPORT_NAMES for w in n.split()}
    assert _scan(page.text, ALLOWED | {"O1", "Q1"} | names) == []


def test_the_checkable_line_in_either_language(tmp_path: Path) -> None:
    """The foot of every live page: in English exactly ``Checkable.text()`` (the words
    the published site and the wall sheets print), in Japanese the same figures in
    Japanese words."""
    from html import unescape

    fmt = "hotc-swiss-de"
    cli, _log = start(tmp_path, fmt, NAMES)
    pair(cli, fmt, 1)
    with running(cli.ledger) as (base, hub):
        cp = hub.pages.data.checkable
        english = get(base + "/standings?lang=en").text
        japanese = get(base + "/standings?lang=ja").text
        verify = get(base + "/verify?lang=ja").text
    foot = english.split('<footer class="checkable"', 1)[1]
    assert f">{cp.text()}</a>" in unescape(foot)
    jfoot = unescape(japanese.split('<footer class="checkable"', 1)[1])
    assert f"ログのサイズ {cp.size} · ルート {cp.short}…" in jfoot and "log size" not in jfoot
    assert f"ログのサイズ {cp.size}" in verify and "log size" not in verify
