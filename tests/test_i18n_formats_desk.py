"""The format's words on the staff console, in every format (issue 31; branch
``cmdwords2``): the scan of ``tests/test_i18n_formats.py`` (no English word left outside
names, code and what is typed) extended to the console's forms of every format — the
Penalty Guide's infraction names (the penalty forms' ``<details class="guide">`` and
``<datalist>``s, the format's catalogue: HotC's and WoT's had none) and the
result-by-table page (``/desk/result``: the rule text beside each choice, a switch's
answers, a field's parts), which the command-words test and the first console test left
out.

What stays as it is: what is typed (an option's spelling, a datalist's value, a rule id,
``NUMBER``; the regex of ``tests/test_i18n_command_words.py``) and the players' names.
English keeps the CLI's rule texts; nothing is written by reading.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from pathlib import Path

import pytest

from ledger.formats.registry import FORMAT_IDS
from server.desk_forms import guide
from server.format_words import Words
from server.i18n import Language
from tests.helpers.console_words import _english_left
from tests.helpers.desk_event import NAMES, desk_event, desk_server, signed_in
from tests.helpers.live import ledger_bytes
from tests.helpers.page_text import PageText

LANGS = (("ja", "ltr"), ("ar", "rtl"))
#: the players' names of ``desk_event`` (shown as they are: in the choosers' options)
NAME_WORDS = {w for n in NAMES for w in n.split()}


class _Shown(PageText):
    """Everything a console page shows but names (``<bdi>``), code, the CLI's output and
    a pasted file: the datalists and the guide included (unlike the command-words test)."""

    SKIP_TAGS = PageText.SKIP_TAGS | {"pre", "textarea"}


def _left(html: str, allowed: Collection[str] = ()) -> list[str]:
    """The English words ``html`` shows; a datalist option's leading value is typed (the
    ledger's own name for it: ``caution``, ``3.19.1``), the words after it are read."""
    html = re.sub(r'(<option value="([^"]*)">)\2', r"\1", html)
    p = _Shown()
    p.feed(html)
    return [w for w in _english_left(" ".join(p.words)) if w not in allowed]


@pytest.mark.parametrize("fmt", FORMAT_IDS)
def test_every_console_form_of_every_format_with_its_guide(tmp_path: Path, fmt: str) -> None:
    """Every command form the console lists, in Japanese and Arabic, the Penalty Guide
    and the datalists read too: no English word; the guide's names are the format's
    (HotC says 対戦 where Bushiroad says ファイト); English shows the guide's English."""
    ev = desk_event(tmp_path, fmt)
    before = ledger_bytes(ev.cli.ledger)
    problems: list[str] = []
    guides: dict[str, str] = {}
    with desk_server(ev) as (base, _hub):
        c = signed_in(base, ev.cards["hj"])
        for lang, dir_ in LANGS:
            c.cookies.set("lang", lang)
            desk = c.get("/desk").text
            paths = sorted(set(re.findall(r'href="/desk/do/([^"]+)"', desk)))
            assert len(paths) > 30, fmt
            for path in paths:
                page = c.get(f"/desk/do/{path}")
                assert page.status_code == 200, path
                assert f'<html lang="{lang}" dir="{dir_}">' in page.text
                problems += [f"{fmt} {lang} {path}: {w}" for w in _left(page.text)]
                if '<details class="guide">' in page.text:
                    guides[lang] = page.text
        c.cookies.set("lang", "en")
        english = next(c.get(f"/desk/do/{p}").text for p in ("penalty/issue", "penalty/offer")
                       if f'href="/desk/do/{p}"' in desk)
    assert problems == []
    assert set(guides) == {"ja", "ar"}, fmt        # the format's console has a guide
    for lang, _dir in LANGS:
        words = Words(fmt, Language(lang))
        for sec, name in guide():
            shown = words(name)
            assert shown != name, (fmt, lang, name)
            assert f"<li><code>{sec}</code> {shown}</li>" in guides[lang].replace("&#39;", "'")
    ja = guides["ja"]
    if fmt.startswith("hotc"):
        assert "誤った対戦のプレイ（結果報告前に発覚）" in ja and "ファイト" not in ja
    elif fmt.startswith("wot"):
        assert "ゲーム中の不要な電子機器" in ja and "ファイト" not in ja
    else:
        assert "ファイト中の不要な電子機器" in ja
    assert "<li><code>3.19.1</code> Slow play, minor</li>" in english
    assert ledger_bytes(ev.cli.ledger) == before


def _rule_texts(html: str) -> dict[int, str]:
    """Each choice's rule text on a result page, by the vocabulary's index."""
    return {int(i): t for i, t in re.findall(
        r'name="choice" value="(\d+)"[^>]*>.*?</label><span class="help rule-words">(.*?)</span>',
        html)}


@pytest.mark.parametrize("fmt", FORMAT_IDS)
def test_the_result_by_table_page_in_the_format_s_words(tmp_path: Path, fmt: str) -> None:
    """``/desk/result`` of a paired table in Japanese and Arabic: each choice's rule text
    (the format's catalogue), the choosers' answers and the fields' parts translated —
    nothing English but names and what is typed (``--games``, rule ids in ``<code>`` or
    as they are); in English, the CLI's rule texts exactly as before."""
    from server.desk_result import details

    ev = desk_event(tmp_path, fmt)
    before = ledger_bytes(ev.cli.ledger)
    pages: dict[str, str] = {}
    with desk_server(ev) as (base, hub):
        rules = details(hub.follower.state)
        c = signed_in(base, ev.cards["hj"])
        for lang in ("ja", "ar", "en"):
            c.cookies.set("lang", lang)
            r = c.get("/desk/result?round=1&table=1")
            assert r.status_code == 200, (fmt, lang, r.text)
            pages[lang] = r.text
    assert len(rules) >= 5
    for lang, dir_ in LANGS:
        html = pages[lang]
        assert f'<html lang="{lang}" dir="{dir_}">' in html
        assert _left(html, NAME_WORDS) == [], (fmt, lang)
        shown = _rule_texts(html)
        assert len(shown) >= 4, (fmt, lang)       # the choices open in this phase
        for i, text in shown.items():
            plain = re.sub(r"</?code>", "", text).replace("&#39;", "'")
            assert plain == Words(fmt, Language(lang))(rules[i]) != rules[i], (fmt, lang, i)
    english = _rule_texts(pages["en"])
    assert {i: t.replace("&#39;", "'") for i, t in english.items()} == \
        {i: rules[i] for i in english} and english.keys() == _rule_texts(pages["ja"]).keys()
    assert ledger_bytes(ev.cli.ledger) == before
