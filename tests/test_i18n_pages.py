"""The player pages in Japanese and Arabic (issue 31 items 1 and 3): the language chosen
by ``?lang=`` > cookie > ``Accept-Language`` > the event's default > English;
``lang``/``dir`` per page (``dir`` from CLDR); every catalogue complete for every string
the templates mark (plural forms included); a missing string shows its English text;
rendered pages scanned for English UI words in each language; the ledger's bytes
unchanged by a whole tour of the pages in Japanese.

The scan leaves out what the catalogue cannot translate yet (say so, issue 31's later
slices): players' names (``<bdi>``), the format's own words (the standings table's
columns and cells, round names such as "Round 1", the status line, result texts, the
format's title), the log's checkable footer and code samples."""

from __future__ import annotations

import base64
import io
import re
from pathlib import Path
from typing import Any

import pytest

from projections.site import STANDINGS_NOTE
from projections.site import TEMPLATES as SITE_TEMPLATES
from server.i18n import LOCALE, Language, choose, from_accept, translations
from server.pages import TEMPLATES, environment
from server.search import find_words
from tests.helpers.live import get, ledger_bytes, running
from tests.helpers.page_text import PageText as _Text
from tests.helpers.standings_play import pair, record, start

NAMES = ["Nguyễn Văn An", "やまだ はなこ", "Søren Ørsted", "カタカナ タロウ", "Ana Alves",
         "Zoë Ångström"]


def test_choice_order() -> None:
    """``?lang=`` beats the cookie, the cookie beats ``Accept-Language``, which beats
    English; unknown codes fall through."""
    assert choose("ja", "en", "en") is Language.JA
    assert choose("en", "ja", "ja") is Language.EN
    assert choose(None, "ja", "en-GB,en;q=0.9") is Language.JA
    assert choose("xx", None, "fr-FR, ja;q=0.8, en;q=0.5") is Language.JA
    assert choose(None, "xx", "de") is Language.EN and choose(None, None, None) is Language.EN
    assert from_accept("en;q=0.2, ja-JP;q=0.9") is Language.JA
    assert from_accept("ja;q=0, en") is Language.EN and from_accept("q=;;,") is None
    assert choose(None, None, "ar-SA,en;q=0.5") is Language.AR
    assert choose(None, None, None, Language.JA) is Language.JA      # the event's default
    assert choose(None, None, "fr", Language.JA) is Language.JA
    assert choose(None, None, "en", Language.JA) is Language.EN


def test_direction_comes_from_the_locale() -> None:
    """``dir`` per page from CLDR's character order (Babel), not a list kept by hand."""
    from server.i18n import direction

    assert [direction(x) for x in (Language.EN, Language.JA, Language.AR)] == \
        ["ltr", "ltr", "rtl"]


def _template_messages() -> set[str]:
    from babel.messages.extract import extract_from_dir

    method_map = [("**.html", "jinja2.ext:babel_extract")]
    options = {"**.html": {"extensions": "jinja2.ext.i18n", "trim_blocks": "True",
                           "lstrip_blocks": "True"}}
    out: set[str] = set()
    for folder in (TEMPLATES, SITE_TEMPLATES):
        for _file, _line, msg, _comments, _ctx in extract_from_dir(
                str(folder), method_map=method_map, options_map=options):
            out.add(msg if isinstance(msg, str) else msg[0])
    return out


#: every language with a catalogue (docs/TRANSLATING.md: a new language is added here)
CATALOGUES = ("ja", "ar")


def test_every_catalogue_is_a_language() -> None:
    assert {lang.value for lang in Language} == {"en", *CATALOGUES}
    assert sorted(d.name for d in LOCALE.iterdir() if d.is_dir()) == sorted(CATALOGUES)


@pytest.mark.parametrize("lang", CATALOGUES)
def test_catalogue_is_complete(lang: str) -> None:
    """Every string the templates mark, the search box's words and the round nouns
    have a text in ``lang`` (not empty, not fuzzy; every plural form), with the same
    %(name)s fields."""
    from babel.messages.pofile import read_po

    with (LOCALE / lang / "LC_MESSAGES" / "tourney.po").open("rb") as f:
        cat = read_po(f, locale=lang)
    wanted = _template_messages() | {w for s in ("number", "initial", "full")
                                     for w in _find_words(s)} | {"Round", "Game", "round",
                                                                   STANDINGS_NOTE} | PYTHON_IDS
    assert len(wanted) > 50
    missing = sorted(m for m in wanted if m not in cat or not cat[m].string
                     or cat[m].fuzzy or (isinstance(cat[m].string, tuple)
                                         and (len(cat[m].string) != cat.num_plurals
                                              or not all(cat[m].string))))
    assert missing == []
    for m in wanted:
        text = cat[m].string
        fields = set(re.findall(r"%\((\w+)\)s", m if isinstance(m, str) else m[0]))
        texts = text if isinstance(text, tuple) else (text,)
        assert all(set(re.findall(r"%\((\w+)\)s", t)) == fields for t in texts), m
        assert not any(c in t for t in texts for c in "<>&"), m   # text, never markup


#: words that come from Python, not templates: the closed sets the desk passes to
#: ``_()`` (roles, a table's report status), and fixed texts looked up through ``fw``
PYTHON_IDS = {"organizer", "head judge", "judge", "scorekeeper", "witness", "time keeper",
              "station", "none", "one-sided", "matching", "conflicting", "settled",
              "drawn games",     # the report form's score boxes (``server.report``)
              # receipts' headings (``server.receipts``)
              "Your report is in the log", "This rejection is in the log",
              "Your phone's key is in the log"}


def test_arabic_plurals_follow_cldr() -> None:
    """Arabic's six plural forms (CLDR, through the catalogue's Plural-Forms): 2 is the
    dual, 3-10 the small plural, 11-99 the singular again."""
    tr = translations(Language.AR)
    forms = {n: tr.ngettext("%(num)s extra minute", "%(num)s extra minutes", n)
             for n in (1, 2, 5, 11, 100)}
    assert forms[2] == "%(num)s دقيقتان إضافيتان" and forms[5] == "%(num)s دقائق إضافية"
    assert forms[11] == forms[100] == forms[1] == "%(num)s دقيقة إضافية"


def _find_words(style: str) -> tuple[str, str]:
    from ledger.wire.pages import NameStyle

    return find_words(NameStyle(style))


def test_a_missing_string_shows_english(tmp_path: Path) -> None:
    """A string the catalogue lacks, or leaves empty or fuzzy, renders as its English
    text (never a message id); a catalogue compiled from .po at first use."""
    env = environment(Language.JA)
    assert env.from_string('{{ _("Pairings") }}').render() == "対戦表"
    assert env.from_string('{{ _("Not in any catalogue, %(n)s", n=3) }}').render() == \
        "Not in any catalogue, 3"
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo

    cat = Catalog(locale="ja")
    cat.add("Pairings", "")
    cat.add("Standings", "順位表", flags=("fuzzy",))
    buf = io.BytesIO()
    write_mo(buf, cat)
    buf.seek(0)
    import gettext

    tr = gettext.GNUTranslations(buf)
    assert tr.gettext("Pairings") == "Pairings" and tr.gettext("Standings") == "Standings"
    assert translations(Language.EN).gettext("Pairings") == "Pairings"


def _format_words(data: Any) -> list[str]:
    """The format's and the projections' own sentences on these pages (not translatable
    yet): the status line, the standings' heading, as-of line and tiebreaker notes, the
    rounds' names, phase labels, notes and result texts."""
    out = [data.status, data.format_title]
    s = data.standings or {}
    out += [s.get("heading") or "", s.get("as_of") or "", s.get("hidden_columns") or "",
            *s.get("notes", []), *s.get("revoked", [])]
    for r in data.rounds:
        out += [r["name"], r.get("phase_label") or "", r.get("pairing_note") or ""]
        out += [t.get("result") or "" for t in r["tables"]]
    for n in data.labels:
        out += [a.result for a in data.appearances(n)]
    return sorted((w for w in out if w), key=len, reverse=True)


def _english_left(html: str, allowed: set[str], format_words: list[str]) -> list[str]:
    p = _Text()
    p.feed(html)
    text = " ".join(p.words)
    for w in format_words:
        text = text.replace(w, " ")
    return sorted({w for w in re.findall(r"[A-Za-z]{2,}", text) if w not in allowed})


#: each catalogue's language: its page direction (from CLDR) and two words it must show
SCANNED = [("ja", "ltr", "ja-JP,ja;q=0.9,en;q=0.5", "対戦表", "対戦相手"),
           ("ar", "rtl", "ar-EG,ar;q=0.9,en;q=0.5", "المواجهات", "الخصم")]


@pytest.mark.parametrize(("lang", "dir_", "accept", "pairings", "opponent"), SCANNED)
def test_player_pages_have_no_english_ui_words(tmp_path: Path, lang: str, dir_: str,
                                               accept: str, pairings: str,
                                               opponent: str) -> None:
    """Home, pairings, standings and a player's own page in each catalogue's language:
    ``lang``, ``dir`` (right to left in Arabic), the switch's cookie kept, no English UI
    word left (outside the format's own words, names and the log's footer), and the
    ledger untouched by it."""
    fmt = "hotc-swiss-de"
    cli, _log = start(tmp_path, fmt, NAMES)
    doc = pair(cli, fmt, 1)
    record(cli, fmt, 1, doc["tables"][0])
    before = ledger_bytes(cli.ledger)
    # the format's round names ("Round 1"), the UTC of a time; nothing else may be Latin
    allowed = {"UTC"}
    with running(cli.ledger) as (base, hub):
        format_words = _format_words(hub.pages.data)
        r = get(base + f"/?lang={lang}")
        assert r.status_code == 200 and r.cookies.get("lang") == lang
        cookie = {"Cookie": f"lang={lang}"}
        pages = {"/": r.text}
        for path in ("/pairings", "/round/1", "/standings", "/p/1", "/p/2", "/find"):
            page = get(base + path, **cookie)
            assert page.status_code == 200, path
            pages[path] = page.text
        by_accept = get(base + "/p/1", **{"Accept-Language": accept})
        assert by_accept.text == pages["/p/1"]
        english = get(base + "/p/1", **{"Accept-Language": lang, "Cookie": "lang=en"})
        assert '<html lang="en" dir="ltr">' in english.text and "Opponent" in english.text
        assert english.headers["etag"] != by_accept.headers["etag"]
        assert "Accept-Language" in english.headers["vary"]
    for path, html in pages.items():
        assert f'<html lang="{lang}" dir="{dir_}">' in html, path
    for path, html in pages.items():
        assert _english_left(html, allowed, format_words) == [], path
    assert pairings in pages["/pairings"] and opponent in pages["/p/1"]
    assert ledger_bytes(cli.ledger) == before


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_pages_never_write_in_either_language(tmp_path: Path, lang: str) -> None:
    """The same event, its pages read in English or in Japanese: the ledger's bytes are
    the same digest before and after, and the same across the two languages (same seeds,
    same commands)."""
    fmt = "hotc-swiss-de"
    cli, _log = start(tmp_path, fmt, NAMES)
    pair(cli, fmt, 1)
    before = ledger_bytes(cli.ledger)
    with running(cli.ledger) as (base, _hub):
        for path in ("/", "/pairings", "/standings", "/p/1", "/find?q=%E3%82%84%E3%81%BE"):
            assert get(f"{base}{path}{'&' if '?' in path else '?'}lang={lang}").status_code \
                in (200, 303)
    assert ledger_bytes(cli.ledger) == before


def test_report_form_in_japanese(tmp_path: Path) -> None:
    """The report form of a player's card in Japanese (``?lang=ja``, then the cookie):
    its own words translated; the format's result choices and field labels (inside the
    ``<fieldset>``s) are the format's words, not translatable yet."""
    from tests.helpers.report_event import app_over, phone, prepared

    root, doc, tokens = prepared(tmp_path / "ev", "hotc-swiss-de")
    a, _b = doc["tables"][0]["players"]
    with app_over(root / "t.db", root / "station.pem") as (_c, hub, app):
        player = phone(app, tokens[a])
        page = player.get("/report?lang=ja")
        assert page.status_code == 200, page.text
        assert '<html lang="ja" dir="ltr">' in page.text and "報告する" in page.text
        english = player.get("/report?lang=en").text
        assert '<html lang="en" dir="ltr">' in english and "Report your result" in english
        again = player.get("/report", headers={"Cookie": "lang=ja"}).text
        assert "結果を報告する" in again
        own = player.get(f"/p/{a}?lang=ja").text          # with "Recorded with this card"
        assert "このカードで記録されたもの" in own
        format_words = _format_words(hub.pages.data)
    assert _english_left(own, {"UTC"}, format_words) == []

    class _NoFieldsets(_Text):
        SKIP_TAGS = _Text.SKIP_TAGS | {"fieldset"}

    p = _NoFieldsets()
    p.feed(page.text)
    text = " ".join(p.words)
    for w in format_words:
        text = text.replace(w, " ")
    assert sorted(set(re.findall(r"[A-Za-z]{2,}", text)) - {"UTC"}) == []


#: the only non-literal message ids templates may pass to ``_()``: constants of the
#: formats and projections, never a name or an event's text (``_()`` marks what it
#: returns as safe HTML: Jinja2's new-style gettext trusts its catalogue)
CONSTANT_IDS = {"d.noun", "r.noun", "s.note", "a.outcome", "noun", "nav.noun", "g.noun",
                # the desk's closed sets: a role (``Role``), a table's report status
                # (``TableStatus``)
                'r|replace("_"', 'r.status.value.replace("_"'}


def test_only_constants_are_message_ids() -> None:
    used: set[str] = set()
    for folder in (TEMPLATES, SITE_TEMPLATES):
        for f in folder.glob("*.html"):
            for m in re.finditer(r"\b_\(\s*([^\"'\s)][^,)]*)", f.read_text(encoding="utf-8")):
                used.add(m.group(1).strip())
    assert used <= CONSTANT_IDS, used - CONSTANT_IDS


def test_pages_not_translated_yet_say_their_main_is_english(tmp_path: Path) -> None:
    """A template not translated yet (none is left since the desk's key page was
    translated: a new page, named here) in Japanese: its ``<main>`` says it is English
    (screen readers read the English with English rules) under the Japanese header; a
    translated page (``/verify``, the 404 page since issue 31's second slice, the desk's
    key page since its command words) has none."""
    cli, _log = start(tmp_path, "hotc-swiss-de", NAMES)
    pair(cli, "hotc-swiss-de", 1)
    with running(cli.ledger) as (base, hub):
        verify = get(base + "/verify?lang=ja").text
        missing = get(base + "/p/99?lang=ja").text
        home = get(base + "/?lang=ja").text
        english = get(base + "/verify").text
        console = hub.pages.common("", Language.JA, "a_new_page.html")
        keys = hub.pages.common("", Language.JA, "desk_keys.html")
    assert console["main_lang"] == "en" and console["lang"] == "ja"
    assert keys["main_lang"] == "" and keys["lang"] == "ja"
    assert '<html lang="ja"' in missing and '<main>' in missing and "見つかりません" in missing
    assert '<main>' in verify and "自分で確認する" in verify
    assert '<main>' in home and '<main>' in english and "Check it yourself" in english


@pytest.mark.parametrize("lang", ["ja", "ar"])
def test_a_card_holders_acts_are_worded_in_the_pages_language(tmp_path: Path,
                                                               lang: str) -> None:
    """Issue 31 (actwords): "Recorded with this card" on a card holder's page lists a
    report (its kind, outcome and fields) and a phone key bound in the page's language;
    the names stay as typed, inside ``<bdi>``; the English page still reads "report"."""
    from tests.helpers import report_event as ev
    from tests.helpers.live import wait_until

    fmt = "hotc-swiss-de"
    root, doc, tokens = ev.prepared(tmp_path / "ev", fmt)
    a, _b = doc["tables"][0]["players"]
    c = ev.choice_of(fmt, "win")
    with ev.app_over(root / "t.db", root / "station.pem") as (_c, hub, app):
        player = ev.phone(app, tokens[a])
        assert ev.post_report(player, {"choice": str(c), f"c{c}.winner": str(a)}
                           ).status_code == 303
        key = base64.b64encode(bytes(range(32))).decode()     # a phone key bound: act 2
        bound = player.post("/bind", data={"csrf": ev.csrf_of(player.get("/report").text),
                                           "public_key": key},
                            headers={"Origin": "http://venue.test"}, follow_redirects=False)
        assert bound.status_code == 303, bound.text

        def acts(lang: str) -> str:
            html = player.get(f"/p/{a}?lang={lang}").text
            m = re.search(r'<section class="acts".*?</section>', html, re.S)
            return m.group(0) if m else ""

        def both_shown() -> bool:
            return len(re.findall(r"R\d+-[0-9a-f]{16}", acts("en"))) == 2

        wait_until(both_shown, 15)
        english, own = acts("en"), acts(lang)
        name = hub.pages.data.labels[a]
    assert "report (Winner:" in english and "phone key bound" in english, english
    assert f"<bdi>{name}</bdi>" in own, own
    p = _Text()
    p.feed(own.replace(name, " "))
    left = re.findall(r"[A-Za-z]{2,}", re.sub(r"R\d+-[0-9a-f]{16}", " ", " ".join(p.words)))
    assert left == [], (left, own)
