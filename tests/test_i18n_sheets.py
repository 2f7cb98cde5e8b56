"""Printed sheets take ``--language`` (issue 31 item 3; ADR 0057): the wall sheet
(``round show --html``), the desk's standings (``standings --html``), the published
pairings and site (``publish``: slips, pairings by name) and the player cards
(``player cards``) in Japanese or Arabic from the live pages' catalogues; English by
default; a language without a catalogue refused (exit 2, nothing written); the ledger's
bytes never depend on a sheet's language."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.cli_runner import raw_bytes, snapshot
from tests.helpers.standings_play import HJ, pair, record, start

NAMES = ["山田 花子", "Ann Lee", "محمد علي", "Bo Chan", "Cy Diaz", "Di Eng"]
FMT = "hotc-swiss-de"


def test_wall_sheet_and_standings_in_each_language(tmp_path: Path) -> None:
    cli, _log = start(tmp_path, FMT, NAMES)
    doc = pair(cli, FMT, 1)
    record(cli, FMT, 1, doc["tables"][0])
    before = snapshot(cli.ledger)
    english = cli("round", "show", "1", "--html").out
    assert '<html lang="en">' in english and "pairings by table" in english
    assert cli("round", "show", "1", "--html", "--language", "en").out == english
    ja = cli("round", "show", "1", "--html", "--language", "ja").out
    assert '<html lang="ja">' in ja and "卓順の対戦表" in ja and "自分の卓を探す" in ja
    assert "pairings by table" not in ja and ">Player<" not in ja and "ラウンド 1" in ja
    ar = cli("round", "show", "1", "--html", "--language", "ar").out
    assert '<html lang="ar" dir="rtl">' in ar and "المواجهات حسب الطاولة" in ar
    st = cli("standings", "--html", "--language", "ja").out
    assert '<html lang="ja">' in st and "<h2>順位表</h2>" in st
    assert "<h2>Standings</h2>" in cli("standings", "--html").out
    assert raw_bytes(cli.ledger) == before        # sheets never write, in any language


def test_a_sheet_in_japanese_gives_the_format_its_own_words(tmp_path: Path) -> None:
    """The sheet's ``--language`` reaches the format's catalogue too (``fw``, ADR 0058):
    the recorded result, the phase and the standings' statuses in Japanese; English
    without it."""
    import re

    cli, _log = start(tmp_path, FMT, NAMES)
    doc = pair(cli, FMT, 1)
    record(cli, FMT, 1, doc["tables"][0])
    english = cli("round", "show", "1", "--html").out
    assert re.search(r"<td>#\d wins</td>", english) and " · Swiss · " in english
    ja = cli("round", "show", "1", "--html", "--language", "ja").out
    assert re.search(r"<td>#\dの勝ち</td>", ja) and " · スイスドロー · " in ja
    assert " wins" not in ja and "Swiss" not in ja
    st = cli("standings", "--html", "--language", "ja").out
    assert "参加中" in st and "スイスドロー" in st and "in progress" not in st
    assert "in progress" in cli("standings", "--html").out


def test_a_language_without_a_catalogue_is_refused(tmp_path: Path) -> None:
    cli, _log = start(tmp_path, FMT, NAMES)
    pair(cli, FMT, 1)
    before = snapshot(cli.ledger)
    for args in (("round", "show", "--html", "--language", "fr"),
                 ("standings", "--html", "--language", "JA"),
                 ("round", "show", "--language", "ja"),          # the sheet's, not the CLI's
                 ("standings", "--language", "ja"),
                 ("publish", str(tmp_path / "site"), "--language", "xx", *HJ),
                 ("player", "cards", "--url", "http://192.0.2.1:8000", "--out",
                  str(tmp_path / "cards.html"), "--language", "fr", *HJ)):
        err = cli(*args, code=2).err
        assert "--language" in err, args
    assert raw_bytes(cli.ledger) == before
    assert not (tmp_path / "site").exists() and not (tmp_path / "cards.html").exists()


def test_player_cards_and_published_pairings_in_japanese_and_arabic(tmp_path: Path) -> None:
    cli, _log = start(tmp_path, FMT, NAMES)
    pair(cli, FMT, 1)
    out = tmp_path / "cards.html"
    cli("player", "cards", "--url", "http://192.0.2.1:8000", "--out", str(out),
        "--language", "ja", *HJ)
    page = out.read_text(encoding="utf-8")
    assert '<html lang="ja">' in page and "プレイヤーカード" in page
    assert "読み取って結果を報告してください" in page and "Scan to report" not in page
    assert "山田 花子" in page and "カード6枚" in page
    one = tmp_path / "card-3.html"
    cli("player", "card", "3", "--reissue", "--reason", "lost", "--url",
        "http://192.0.2.1:8000", "--out", str(one), "--language", "ar", *HJ)
    card = one.read_text(encoding="utf-8")
    assert '<html lang="ar" dir="rtl">' in card and "امسح الرمز للإبلاغ عن نتائجك" in card
    site = tmp_path / "site"
    cli("publish", str(site), "--pairings-only", "--language", "ar")
    sheet = (site / "round-1.html").read_text(encoding="utf-8")
    assert '<html lang="ar" dir="rtl">' in sheet and "محمد علي" in sheet
    assert "المواجهات حسب الطاولة" in sheet and "ابحث عن طاولتك" in sheet


def test_published_site_slips_in_japanese(tmp_path: Path) -> None:
    cli, _log = start(tmp_path, FMT, NAMES)
    pair(cli, FMT, 1)
    site = tmp_path / "site"
    cli("publish", str(site), "--language", "ja", *HJ)
    slips = (site / "round-1-slips.html").read_text(encoding="utf-8")
    assert '<html lang="ja">' in slips and "結果記入票" in slips and "1番卓" in slips
    assert "両プレイヤーの署名" in slips and "Tick the winner" not in slips
    names = (site / "round-1-names.html").read_text(encoding="utf-8")
    assert "名前順" in names and "自分の卓を探す" in names
    english = tmp_path / "en"
    cli("publish", str(english), *HJ)
    assert "Signatures of both players" in (english / "round-1-slips.html").read_text(
        encoding="utf-8")
