"""The console's command forms in Japanese and Arabic (issue 31; ADR "cmdwords"): the
command words are translated when a page is rendered, from ``commands.po``, keyed by
the specs' English text.

- Completeness: every string the console shows for the desk specs of every format (a
  command's name, summary, help paragraphs, a field's words, help and choices, the
  panels, the console's own refusals) has a Japanese and an Arabic text with the same
  ``%(name)s`` fields and no English word left outside what is typed (option spellings,
  rule ids, CSV columns, quoted commands): a new CLI option without a translation fails
  here.  ``python -m cli.command_words --pot`` lists exactly those strings.
- A missing word shows its English text, never a message id; English is the identity.
- Rendered: ``/desk``, every command's form, a refused form and ``/desk/keys`` in
  Japanese and Arabic carry ``lang``/``dir`` and no English UI word (the scan of
  ``tests/test_i18n_pages.py``, with what is typed left out); the English console keeps
  its words; the HTTP API's OpenAPI document is the same English whatever the
  request's language; the CLI's help is unchanged; nothing is written by any of it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cli.command_words import every_message, every_spec, main
from server.command_words import (
    CommandWords,
    command_words,
    commands_path,
    help_blocks,
    messages,
)
from server.i18n import Language
from tests.helpers.console_words import _english_left
from tests.helpers.desk_event import desk_event, desk_server, form_token, signed_in
from tests.helpers.live import ledger_bytes
from tests.helpers.page_text import PageText
from usecases.command_specs import CommandSpec, Param, ParamKind

#: every language with a command catalogue (docs/TRANSLATING.md: a new language here)
CATALOGUES = ("ja", "ar")
class _Text(PageText):
    """A console page's words: the scan of the player pages, also leaving out the
    datalists (values typed as the ledger names them), the CLI's own output and a
    pasted file, and the Penalty Guide's infraction names (the format's words)."""

    SKIP_TAGS = PageText.SKIP_TAGS | {"datalist", "pre", "textarea"}
    SKIP_CLASSES = PageText.SKIP_CLASSES | {"guide"}


def _page_left(html: str) -> list[str]:
    p = _Text()
    p.feed(html)
    return _english_left(" ".join(p.words))


def _catalogue(lang: str) -> dict[str, str]:
    from babel.messages.pofile import read_po

    with commands_path(Language(lang)).open("rb") as f:
        cat = read_po(f, locale=lang)
    return {m.id: m.string for m in cat
            if m.id and isinstance(m.id, str) and isinstance(m.string, str)
            and m.string and not m.fuzzy}


def _gaps(wanted: dict[str, str], lang: str) -> list[str]:
    have = _catalogue(lang)
    return sorted(m for m in wanted if m not in have)


@pytest.fixture(scope="module")
def wanted() -> dict[str, str]:
    return every_message()


@pytest.mark.parametrize("lang", CATALOGUES)
def test_every_console_string_of_every_format_has_a_translation(
        wanted: dict[str, str], lang: str) -> None:
    assert len(wanted) > 400        # every format's desk specs, not a sample
    assert _gaps(wanted, lang) == []
    have = _catalogue(lang)
    for msgid in wanted:
        text = have[msgid]
        assert set(re.findall(r"%\((\w+)\)s", msgid)) == \
            set(re.findall(r"%\((\w+)\)s", text)), msgid
        assert _english_left(text) == [], (msgid, text)


def test_a_new_option_without_a_translation_is_a_gap(wanted: dict[str, str]) -> None:
    """What the completeness test compares: a spec with an option nobody translated yet
    adds its words, and the catalogues lack them."""
    spec = CommandSpec(path="result/record", words=("result", "record"),
                       summary="Record the result of one table of the open round.",
                       help="Record the result of one table of the open round.",
                       params=(Param(name="brand_new", kind=ParamKind.TEXT,
                                     help="A brand-new option nobody translated."),))
    more = messages([spec])
    assert {"brand new", "A brand-new option nobody translated."} <= set(more)
    for lang in CATALOGUES:
        assert _gaps({**wanted, **more}, lang) == ["A brand-new option nobody translated.",
                                                   "brand new"]


def test_the_pot_lists_every_console_string(tmp_path: Path, wanted: dict[str, str]) -> None:
    from babel.messages.pofile import read_po

    out = tmp_path / "commands.pot"
    assert main(["--pot", str(out)]) == 0
    with out.open("rb") as f:
        pot = read_po(f)
    assert {m.id for m in pot if m.id} == set(wanted)
    assert main(["--check", "ja"]) == 0 and main(["--check", "ar"]) == 0


def test_a_missing_word_shows_english_and_english_is_the_identity() -> None:
    ja = CommandWords(Language.JA)
    assert ja("Not in any catalogue, --round 3") == "Not in any catalogue, --round 3"
    assert ja.label("brand_new") == "brand new"
    assert ja("round pair") == "対戦の組み合わせ"
    # a refusal of the form by pattern: the option's spelling copied
    assert ja("missing --seed-material") == "--seed-material が入力されていません"
    assert command_words(Language.AR)("missing NUMBER") == "NUMBER غير مُدخل"
    # the officials' roles come from the site's catalogue, joined in the language's words
    assert ja.roles(("head_judge", "judge")) == "ヘッドジャッジまたはジャッジ"
    # what is typed inside a translated text is code (left to right in Arabic)
    assert str(command_words(Language.AR).mark("مع --same: 'void' <x>")) == \
        "مع <code>--same</code>: <code>&#39;void&#39;</code> &lt;x&gt;"
    en = command_words(Language.EN)
    assert str(en.mark("with --same: 'void' <x>")) == "with --same: &#39;void&#39; &lt;x&gt;"
    spec = next(s for s in every_spec() if s.path == "round/pair")
    assert en.name(spec) == "round pair" and en.summary(spec) == spec.summary
    assert en.label("seed_material") == "" and en.roles(("head_judge", "judge")) == \
        "head judge or judge"
    assert [t for k, t in help_blocks(spec.help) if k == "example"] == [
        line.split("Example: ", 1)[1] for line in spec.help.splitlines()
        if line.startswith("Example: ")]


@pytest.mark.parametrize("fmt", ["bushiroad-swiss", "wot-2001"])
def test_the_console_and_every_form_in_japanese_and_arabic(tmp_path: Path,
                                                            fmt: str) -> None:
    ev = desk_event(tmp_path, fmt)
    before = ledger_bytes(ev.cli.ledger)
    problems: list[str] = []
    with desk_server(ev) as (base, _hub):
        c = signed_in(base, ev.cards["hj"])
        english_api = c.get("/api/v1/openapi.json").json()
        for lang, dir_ in (("ja", "ltr"), ("ar", "rtl")):
            c.cookies.set("lang", lang)
            desk = c.get("/desk")
            assert desk.status_code == 200
            assert f'<html lang="{lang}" dir="{dir_}">' in desk.text
            problems += [f"{lang} /desk: {w}" for w in _page_left(desk.text)]
            paths = sorted(set(re.findall(r'href="/desk/do/([^"]+)"', desk.text)))
            assert len(paths) > 30      # every command of the format the console lists
            for path in paths:
                page = c.get(f"/desk/do/{path}")
                assert page.status_code == 200, path
                problems += [f"{lang} {path}: {w}" for w in _page_left(page.text)]
            keys = c.get("/desk/keys")
            assert f'<html lang="{lang}" dir="{dir_}">' in keys.text
            problems += [f"{lang} /desk/keys: {w}" for w in _page_left(keys.text)]
            # a form refused before anything runs: the console's own sentence, translated
            form = c.get("/desk/do/drop").text
            refused = c.post("/desk/do/drop", data={"csrf": form_token(form), "number": ""},
                             headers={"Origin": base})
            assert refused.status_code == 400
            problems += [f"{lang} refused drop: {w}" for w in _page_left(refused.text)]
            # the API is a contract: the same English document in any language
            assert c.get("/api/v1/openapi.json",
                         headers={"Accept-Language": lang}).json() == english_api
        c.cookies.set("lang", "ja")
        desk = c.get("/desk").text
        pair = c.get("/desk/do/round/pair").text
        refused = c.post("/desk/do/drop", data={"csrf": form_token(pair), "number": ""},
                         headers={"Origin": base}).text
        c.cookies.set("lang", "ar")
        arabic = c.get("/desk/do/round/pair").text
        c.cookies.set("lang", "en")
        english = c.get("/desk").text
        english_pair = c.get("/desk/do/round/pair").text
    assert problems == []
    assert "対戦の組み合わせ" in desk and "<h3>ラウンド</h3>" in desk
    assert "<code>--seed-material</code> シード素材" in pair
    assert "NUMBER が入力されていません" in refused
    assert "<code>--seed-material</code> مادة البذرة" in arabic
    # English: the CLI's words as they always were
    spec = next(s for s in every_spec() if s.path == "round/pair")
    assert (f'<a href="/desk/do/round/pair">round pair</a> <span class="muted">'
            f"{spec.summary}") in english.replace("&#39;", "'")
    assert "<code>--seed-material</code></label>" in english_pair
    assert '<pre class="help">' in english_pair
    summary = english_api["paths"]["/api/v1/round/pair"]["post"]["summary"]
    assert summary == spec.summary
    assert ledger_bytes(ev.cli.ledger) == before


def test_the_cli_keeps_its_english() -> None:
    """``tourney round pair --help`` in a Japanese locale: the CLI's own English."""
    from typer.testing import CliRunner

    from cli.main import build_app

    env = {"LANG": "ja_JP.UTF-8", "LC_ALL": "ja_JP.UTF-8", "LANGUAGE": "ja"}
    out = CliRunner().invoke(build_app(), ["round", "pair", "--help"], env=env)
    assert out.exit_code == 0
    assert "Pair the next round" in out.output and "--seed-material" in out.output
    assert not re.search(r"[\u3040-\u30ff\u4e00-\u9fff\u0600-\u06ff]", out.output)
