"""The words the pages' scripts show, in the page's language (issue 31 item 1; ADR
0065): ``report.js`` (binding a phone's key, the signing step), ``desk.js``
(minutes left, a browser key's outcome) and ``desk-keys.js`` (the key page: the key's
mode and state, a command signed in the browser) read their sentences from a JSON island
the template renders through gettext (``_words_report.html``, ``_words_desk.html``,
``_words_desk_keys.html``), keyed by the script's own English text, which shows where the
island gives none.

Proofs: the island's keys are exactly the texts the script asks for (found in the
script's source), and in English each value is its key (so the catalogue's message id is
the script's text); in Japanese and Arabic every value is translated with its fields
kept; every page loading a script carries its island; no script writes an English
sentence outside ``w(…)``; real pages (the report form, the signing step, the desk) in
Japanese carry the translated words and the page scan finds no English in them.  The
browser proof of the signing step in Japanese is in ``tests/test_i18n_browser.py``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from server.i18n import Language
from server.pages import TEMPLATES, environment
from tests.helpers.page_text import PageText

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "server" / "static"
#: each script of the pages with words a user sees → the island its pages carry
SCRIPTS = {"report.js": "_words_report.html", "desk.js": "_words_desk.html",
           "desk-keys.js": "_words_desk_keys.html"}
#: where each script is (the templates' folder, or ``server/static``)
SOURCE = {"report.js": TEMPLATES / "report.js", "desk.js": TEMPLATES / "desk.js",
          "desk-keys.js": STATIC / "desk-keys.js"}
#: the errors a script throws that it (or another) shows through ``w(err.message)``
THROWN = {"desk.js": STATIC / "desk-keys.js", "desk-keys.js": STATIC / "desk-keys.js"}
#: a template loading a script without its island, and why: the console loads
#: desk-keys.js for its signing only (no key page there: what the script throws is
#: looked up in desk.js's island, which holds its errors, ``THROWN``)
WITHOUT_ISLAND = {("desk_base.html", "desk-keys.js")}
#: Latin a translated script sentence keeps: what the reader types or reads as it is
TYPED = re.compile(r"https?://\S+|\bHTTPS\b")
#: English a script may hold outside ``w(…)``: live.js's clock fallbacks (the clock's
#: own ``data-left``/``data-time`` carry the page's words, ``clock.html``)
FALLBACKS = {"live.js": {"(N min left)", "(time)"}}
ISLAND = re.compile(r'<script type="application/json" id="(words-[a-z-]+)">(.*?)</script>',
                    re.S)


def _asked(script: str) -> set[str]:
    """The English texts ``script`` passes to ``w(…)`` (and the errors it shows so)."""
    src = SOURCE[script].read_text(encoding="utf-8")
    out = {json.loads(f'"{m}"') for m in re.findall(r'\bw\("((?:[^"\\]|\\.)*)"', src)}
    if script in THROWN:
        out |= set(re.findall(r'new Error\((?:w\()?"([^"]+)"',
                              THROWN[script].read_text(encoding="utf-8")))
    return out


def _island(lang: Language, template: str) -> dict[str, str]:
    html = environment(lang).get_template(template).render()
    m = ISLAND.search(html)
    assert m is not None and m.group(1) == "words-" + template[7:-5].replace("_", "-"), html
    words: dict[str, str] = json.loads(m.group(2))
    return words


@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_the_island_holds_exactly_what_the_script_asks_for(script: str) -> None:
    """English: every key the script asks for, each value its own key (the template's
    message id is the script's text, placeholders aside), nothing more."""
    asked = _asked(script)
    words = _island(Language.EN, SCRIPTS[script])
    assert len(asked) >= 5 and set(words) == asked
    assert {k: v for k, v in words.items() if k != v} == {}


@pytest.mark.parametrize("lang", [Language.JA, Language.AR])
@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_the_island_is_translated(script: str, lang: Language) -> None:
    """Every value in the page's language: not the English, no Latin word left, the
    script's ``{field}`` kept."""
    for en, text in _island(lang, SCRIPTS[script]).items():
        assert text != en, en
        assert re.findall(r"\{\w+\}", text) == re.findall(r"\{\w+\}", en), en
        assert re.findall(r"[A-Za-z]{2,}", TYPED.sub("", re.sub(r"\{\w+\}", "", text))) \
            == [], text


def test_every_page_loading_a_script_carries_its_words() -> None:
    """A template that loads a script includes that script's island; no template holds
    an inline script (only ``src`` and the JSON islands)."""
    for f in sorted(TEMPLATES.glob("*.html")):
        src = f.read_text(encoding="utf-8")
        for script, island in SCRIPTS.items():
            if f'src="/{script}"' in src and (f.name, script) not in WITHOUT_ISLAND:
                assert f'{{% include "{island}" %}}' in src, (f.name, script)
        inline = re.findall(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", src)
        assert inline == [], f.name


def _sentence(text: str) -> bool:
    """Two English words in a row, not a CSS selector ("ul.cmds li") nor a directive."""
    return bool(re.search(r"[A-Za-z]{2,} [A-Za-z]{2,}", text)) and text != "use strict" \
        and not re.search(r"[#\[\]=]|\w\.\w", text)


def test_no_script_writes_english_outside_its_words() -> None:
    """A string of two English words in a page's script (the templates' and
    ``server/static``'s; comments aside) is an argument of ``w(…)``, an error thrown
    (``new Error("…")``: shown through ``w(err.message)``, its island holds it), or a
    fallback named in ``FALLBACKS``."""
    scripts = sorted([*TEMPLATES.glob("*.js"), *STATIC.glob("*.js")])
    assert STATIC / "desk-keys.js" in scripts
    for f in scripts:
        src = re.sub(r"/\*.*?\*/", "", f.read_text(encoding="utf-8"), flags=re.S)
        src = re.sub(r"(?m)(^|\s)//.*$", r"\1", src)
        loose = {m.group(2) for m in
                 re.finditer(r'(\bw\(|new Error\()?"((?:[^"\\\n]|\\.)*)"', src)
                 if m.group(1) is None and _sentence(m.group(2))}
        assert loose <= FALLBACKS.get(f.name, set()), (f.name, loose)


class _Shown(PageText):
    """A page's visible words with the signed statement (``<pre>``, the protocol's own
    lines) left out."""

    SKIP_TAGS = PageText.SKIP_TAGS | {"pre"}


def _english(html: str) -> list[str]:
    p = _Shown()
    p.feed(html)
    return sorted(set(re.findall(r"[A-Za-z]{2,}", " ".join(p.words))) - {"UTC", "JavaScript"})


def _words_on(html: str) -> dict[str, str]:
    m = ISLAND.search(html)
    assert m is not None, html
    words: dict[str, str] = json.loads(m.group(2))
    return words


def test_the_report_form_and_signing_step_carry_their_words_in_japanese(
        tmp_path: Path) -> None:
    """A real server over a ledger the CLI wrote: the report form of a card without a
    phone key carries report.js's words in Japanese; once the card's phone key is bound,
    a report from a phone answers the signing step, whose words are Japanese too and
    whose visible text (the island's words included) has no English; English unchanged."""
    from tests.helpers.live import wait_until
    from tests.helpers.phone_keys import _key
    from tests.helpers.report_event import BASE, app_over, csrf_of, phone, prepared

    root, doc, tokens = prepared(tmp_path / "ev", "hotc-swiss-de")
    a, _b = doc["tables"][0]["players"]
    _k, pub = _key(9)
    with app_over(root / "t.db", root / "station.pem") as (_c, hub, app):
        player = phone(app, tokens[a])
        assert _words_on(player.get("/report?lang=en").text) == \
            _island(Language.EN, "_words_report.html")
        player.cookies.set("lang", "ja")    # the switch's cookie (set by the public pages)
        form = player.get("/report").text
        assert _words_on(form) == _island(Language.JA, "_words_report.html")
        bound = player.post("/bind", data={"csrf": csrf_of(form), "public_key": pub},
                            headers={"Origin": BASE}, follow_redirects=False)
        assert bound.status_code == 303, bound.text
        wait_until(lambda: bool(hub.follower.state.reports.devices), 15)
        page = player.get("/report").text
        choice = re.search(r'name="choice" value="(\d+)"', page)
        winner = re.search(r'<select name="(c\d+\.winner)">', page)
        assert choice is not None and winner is not None, page
        signing = player.post("/report", data={"csrf": csrf_of(page),
                                               "choice": choice.group(1),
                                               winner.group(1): str(a)},
                              headers={"Origin": BASE})
    assert signing.status_code == 200 and 'id="sign"' in signing.text, signing.text
    assert '<html lang="ja"' in signing.text
    assert _words_on(signing.text) == _island(Language.JA, "_words_report.html")
    assert _english(signing.text) == []


def test_the_desk_carries_its_words_in_japanese(tmp_path: Path) -> None:
    """The staff console (every page of ``desk_base.html``) in Japanese carries desk.js's
    words in Japanese, and its key page desk-keys.js's (no ``data-*`` words left); in
    English, the English."""
    from tests.helpers.desk_event import desk_event, desk_server, signed_in

    ev = desk_event(tmp_path, "hotc-swiss-de")
    with desk_server(ev) as (base, _hub):
        hj = signed_in(base, ev.cards["hj"])
        ja, en = hj.get("/desk?lang=ja"), hj.get("/desk?lang=en")
        keys_ja, keys_en = hj.get("/desk/keys?lang=ja"), hj.get("/desk/keys?lang=en")
    assert ja.status_code == en.status_code == keys_ja.status_code == keys_en.status_code \
        == 200
    assert _words_on(ja.text) == _island(Language.JA, "_words_desk.html")
    assert _words_on(en.text) == _island(Language.EN, "_words_desk.html")
    assert _words_on(keys_ja.text) == _island(Language.JA, "_words_desk_keys.html")
    assert _words_on(keys_ja.text)["Key mode:"] == "鍵のモード："
    assert _words_on(keys_en.text) == _island(Language.EN, "_words_desk_keys.html")
    assert 'id="key-words"' not in keys_ja.text and "data-no-key" not in keys_ja.text
