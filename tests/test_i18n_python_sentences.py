"""The sentences the server composes in Python for a player, in the page's language
(issue 31; ADR 0063): refusals on /report, /call, /deck and /drop, the report
summary and what a receipt records are translated when the page is rendered, through
``server.sentences`` (the format words' pattern matcher, one mechanism); the ledger's
bytes and the English pages stay as they were.

Two kinds of proof: every player sentence the routes and use cases write (found in their
source: the ``problem=``/``what=`` texts, the pages' positional problems, the refusal
functions' returns, ``REFUSALS``) has a Japanese and an Arabic text with no English left
in it (a new sentence without one fails here); and a real ``tourney serve`` over a ledger
the real CLI writes shows a Japanese player's refused report, refused judge call and
receipt in Japanese, the same requests in English unchanged, nothing written by a refusal.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from ledger.core.player_words import REFUSALS, REFUSED
from server.i18n import Language
from server.sentences import sentence, sentences_path
from tests.helpers.cli_runner import CLOCK, snapshot
from tests.helpers.live import running, wait_until
from tests.helpers.refusal_scan import ENGLISH, _text
from tests.helpers.reporting_phones import _phone, _post, reporting_event

ROOT = Path(__file__).resolve().parent.parent
FMT = "hotc-swiss-de"
#: where the player sentences are written, and the functions whose returns are a
#: player's "why not" (shown capitalised with a full stop, or inside another sentence)
SOURCES = ("server/report_routes.py", "server/call_routes.py", "server/deck_routes.py",
           "server/staff_routes.py", "server/receipts.py", "server/forms.py",
           "usecases/calls.py", "usecases/decklists.py", "usecases/reports.py",
           "ledger/formats/officiating/deck_submit_rules.py")
WHY = {"_my_table", "_my_seat", "own_call_refusal", "own_deck_refusal", "own_drop_refusal",
       "deadline_refusal", "_title", "_said"}
#: the page functions whose positional text is a problem shown to the player
PAGES = {"_call_page", "_deck_page", "drop_page"}
CONSTANTS = {"TOO_MANY", "TOO_MANY_TAPS"}
#: staff-only texts in these files (the staff console's own, not a player's)
STAFF_ONLY = re.compile(r"^(No proof yet|.*open the staff page again)")
#: where a player's form input is refused with a ``UsageError`` (its text and hint
#: shown): a module, or one function of it
ERRORS = ("server/report.py", "server/deck_routes.py", "usecases/decklists.py:check_text")
#: the hint each refusal function's reason gets when the use case raises it
HINTS = {"own_call_refusal": ("or raise your hand and call a judge",),
         "own_deck_refusal": ("ask a judge", "hand your list in at the desk"),
         "deadline_refusal": ("hand your list in at the desk",)}
#: how a "why" is shown: alone, capitalised with a full stop; or inside a sentence
SHOWN = {"own_call_refusal": "{}.", "own_deck_refusal": "{}.", "deadline_refusal": "{}.",
         "own_drop_refusal": "You cannot drop now: {}."}


def _player_sentences() -> set[tuple[str, str]]:
    """(kind, English text) of every player sentence written in ``SOURCES``: "whole" (shown
    as it is) or the name of the refusal function whose lowercase reason it is."""
    out: set[tuple[str, str]] = set()
    for rel in SOURCES:
        tree = ast.parse((ROOT / rel).read_text())
        for fn in ast.walk(tree):
            if isinstance(fn, ast.Assign) and any(isinstance(t, ast.Name) and t.id in
                                                  CONSTANTS for t in fn.targets):
                out.add(("whole", _text(fn.value) or ""))
            if isinstance(fn, ast.Call):
                name = getattr(fn.func, "id", getattr(fn.func, "attr", ""))
                args = [k.value for k in fn.keywords if k.arg in ("problem", "what")]
                if name in PAGES:
                    args += [a for a in fn.args if isinstance(a, (ast.Constant, ast.JoinedStr,
                                                                  ast.BinOp))]
                out |= {("whole", t) for a in args if (t := _text(a))}
            if isinstance(fn, ast.FunctionDef) and fn.name in WHY:
                for r in ast.walk(fn):
                    if isinstance(r, ast.Return) and r.value is not None:
                        t = _text(r.value)
                        if t and " " in t:
                            out.add((fn.name if t[0].islower() else "whole", t))
    return {(k, t) for k, t in out if " " in t and not STAFF_ONLY.match(t)
            and re.search("[A-Za-z]", t)}


def _shown(kind: str, text: str) -> list[str]:
    """How a player reads ``text``: as it is, or a refusal's reason on its page and in
    the "Not recorded: …" of the refused act (``ledger.core.player_words.refusal``)."""
    from ledger.core.player_words import refusal
    from ledger.errors import RuleError

    if kind not in SHOWN:
        return [text]
    shown = SHOWN[kind].format(text[0].upper() + text[1:].lower()
                               if SHOWN[kind] == "{}." else text)
    return [shown, *("Not recorded: " + refusal(RuleError("X-1", text, hint=h)).text
                     for h in HINTS.get(kind, ()))]


def _form_refusals() -> set[str]:
    """What a player reads when the form's input is refused: "Not recorded: " and the
    ``UsageError``'s text with its hint (``refusal``), values set to 7."""
    from ledger.core.player_words import refusal
    from ledger.errors import UsageError

    out: set[str] = set()
    for where in ERRORS:
        rel, _, only = where.partition(":")
        tree: ast.AST = ast.parse((ROOT / rel).read_text())
        if only:
            tree = next(f for f in ast.walk(tree)
                        if isinstance(f, ast.FunctionDef) and f.name == only)
        for c in ast.walk(tree):
            if isinstance(c, ast.Call) and getattr(c.func, "id", "") == "UsageError":
                msg = _text(c.args[0]) if c.args else None
                hint = next((_text(k.value) for k in c.keywords if k.arg == "hint"), None)
                if msg:
                    out.add("Not recorded: " + refusal(UsageError(msg, hint=hint)).text)
    return out




def test_the_source_scan_finds_the_player_sentences() -> None:
    found = {t for _k, t in _player_sentences()}
    assert "Tick the box to confirm that you leave the event." in found
    assert "you are not seated at a table of the round in progress" in found
    assert "Not recorded: 7" in found and "In the log: 7" in found
    assert "7 7 is complete: results are reported while a round is being played. If your " \
        "result is wrong, tell a judge at the desk." in found
    assert len(found) >= 25


@pytest.mark.parametrize("lang", [Language.JA, Language.AR])
def test_every_player_sentence_has_a_translation(lang: Language) -> None:
    """Each sentence the routes and use cases write, each refusal of ``REFUSALS`` (alone
    and after "Not recorded: "): translated whole, no English words left."""
    texts = [s for k, t in sorted(_player_sentences()) for s in _shown(k, t)]
    texts += [*REFUSALS.values(), REFUSED, *("Not recorded: " + r for r in REFUSALS.values())]
    texts += sorted(_form_refusals())
    untranslated = [t for t in texts if (out := sentence(FMT, lang, t)) == t
                    or ENGLISH.search(out)]
    assert untranslated == []


@pytest.mark.parametrize("lang", ["ja", "ar"])
def test_the_sentences_catalogue_is_complete_and_plain(lang: str) -> None:
    """Every id of ``sentences.po`` has a text in both languages, the same %(name)s
    fields, no markup; the two catalogues hold the same ids."""
    from babel.messages.pofile import read_po

    def ids(code: str) -> dict[str, str]:
        with sentences_path(Language(code)).open("rb") as f:
            return {m.id: m.string for m in read_po(f, locale=code) if m.id}

    cat, other = ids(lang), ids("ar" if lang == "ja" else "ja")
    assert set(cat) == set(other) and len(cat) > 50
    for mid, text in cat.items():
        assert text and set(re.findall(r"%\((\w+)\)s", mid)) == \
            set(re.findall(r"%\((\w+)\)s", text)), mid
        assert not any(c in text for c in "<>&"), mid


def test_english_is_the_text_itself_and_a_name_is_never_translated() -> None:
    s = "Not recorded: This could not be recorded: see a judge at the scorekeeper's desk."
    assert sentence(FMT, Language.EN, s) == s
    # a name in a copied field stays as typed, even one that reads like a sentence
    said = sentence(FMT, Language.JA, "yes reported for round 1, table 2: Winner: yes.")
    assert said.startswith("yesが") and said.endswith("：Winner: yes。")


@pytest.fixture(autouse=True)
def _same_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOURNEY_FIXED_CLOCK", CLOCK)


def _alert(page: str) -> str:
    m = re.search(r'role="alert"[^>]*>([^<]*)</p>', page)
    assert m is not None, page
    return m.group(1).replace("&#39;", "'")


def test_a_japanese_player_s_refused_report_and_receipt(tmp_path: Path) -> None:
    """/drop and /deck say why not in Japanese.  A report naming a player of another
    table as the winner: refused in Japanese for a
    Japanese phone (the field's name in the format's Japanese), in the same English as
    before for an English one, nothing written; the receipt of an accepted report and the
    report summary on the form in Japanese; a double tap refused in Japanese (REPORT-8)."""
    cli, doc, tokens = reporting_event(tmp_path)
    a = doc["tables"][0]["players"][0]  # type: ignore[index]
    table = doc["tables"][0]["table"]  # type: ignore[index]
    other = next(n for n in tokens if n not in doc["tables"][0]["players"])  # type: ignore[index]
    with running(cli.ledger, station_key=tmp_path / "station.pem") as (base, _hub):
        ja, en = _phone(base, tokens[a]), _phone(base, tokens[a])
        ja.cookies.set("lang", "ja")
        before = snapshot(cli.ledger)
        bad_ja, bad_en = _post(ja, base, other), _post(en, base, other)
        assert bad_ja.status_code == bad_en.status_code == 422
        assert snapshot(cli.ledger) == before
        assert _alert(bad_en.text) == "Not recorded: fill in: Winner"
        assert _alert(bad_ja.text) == "記録されませんでした：入力してください：勝者"
        # /drop and /deck say why not in Japanese (English as before)
        drop_en, drop_ja = _alert(en.get("/drop").text), _alert(ja.get("/drop").text)
        assert drop_en == f"You cannot drop now: your match of round 1 (table {table}) " \
            "has no result yet: report it first (a concession if you leave now), then drop."
        assert drop_ja == f"今はドロップできません：ラウンド1（{table}番卓）のあなたの対戦には" \
            "まだ結果がありません。先に結果を報告してから（今抜けるなら投了）ドロップしてください。"
        why = re.search(r'id="why">([^<]*)<', ja.get("/deck").text)
        assert why is not None and why.group(1) == "この大会では、主催者はプレイヤーカードからの" \
            "デッキリストを受け付けていません。"
        assert 'id="why">The organizer takes no decklists from players&#39; cards in this ' \
            'event.<' in en.get("/deck").text
        ok = _post(ja, base, a)
        assert ok.status_code == 303
        receipt = ja.get(ok.headers["location"]).text
        heading = re.search(r"<h2>([^<]*)</h2>", receipt)
        assert heading is not None and heading.group(1) == sentence(
            FMT, Language.JA, "Your report is in the log") != "Your report is in the log"
        said = re.search(r'<p class="big" role="status"><bdi>([^<]*)</bdi>', receipt)
        en_said = re.search(r'<p class="big" role="status"><bdi>([^<]*)</bdi>',
                            en.get(ok.headers["location"]).text)
        assert said is not None and en_said is not None
        m = re.fullmatch(r"(.+) reported for round 1, table (\d+): Winner: \1\.",
                         en_said.group(1))
        assert m is not None, en_said.group(1)          # the English as it was
        who = m.group(1)
        assert said.group(1) == f"{who}がラウンド1・{table}番卓について報告：勝者: {who}。"
        again = _post(ja, base, a)          # a double tap, in Japanese
        assert _alert(again.text) == "記録されませんでした：これとまったく同じ内容をすでに" \
            "報告しています。何も変わりませんでした。"
        mine = re.search(r'role="status">([^<]*)— <a href="/receipt/', ja.get("/report").text)
        assert mine is not None and not ENGLISH.search(mine.group(1)), mine
        mine_en = re.search(r'role="status">([^<]*)— <a href="/receipt/', en.get("/report").text)
        assert mine_en is not None and "Your report:" in mine_en.group(1)


def test_a_japanese_player_s_refused_judge_call(tmp_path: Path) -> None:
    """The match has its result: the call page says why in Japanese, and a call posted
    anyway is refused in Japanese (English unchanged), nothing written."""
    cli, doc, tokens = reporting_event(tmp_path)
    t = doc["tables"][0]  # type: ignore[index]
    a, b = t["players"]
    with running(cli.ledger, station_key=tmp_path / "station.pem") as (base, _hub):
        ja, en = _phone(base, tokens[a]), _phone(base, tokens[a])
        ja.cookies.set("lang", "ja")
        assert _post(ja, base, a).status_code == 303
        assert _post(_phone(base, tokens[b]), base, a).status_code == 303
        cli("report", "accept", "--table", str(t["table"]), "--key", "sk.pem")
        wait_until(lambda: "has its result" in en.get("/call").text, 5)
        page = ja.get("/call").text
        assert f"ラウンド1（{t['table']}番卓）のあなたの対戦は結果が出ています。" in page
        before = snapshot(cli.ledger)
        en.get("/call")     # the page sets the form's cookie (no form: nothing to call)
        r_ja = ja.post("/call", data={"csrf": ja.cookies["tourney_csrf"]},
                       headers={"Origin": base})
        r_en = en.post("/call", data={"csrf": en.cookies["tourney_csrf"]},
                       headers={"Origin": base})
        assert r_ja.status_code == r_en.status_code == 422
        assert snapshot(cli.ledger) == before
        assert _alert(r_en.text) == f"Not recorded: your match of round 1 (table " \
            f"{t['table']}) has its result (or raise your hand and call a judge)"
        assert _alert(r_ja.text) == f"記録されませんでした：ラウンド1（{t['table']}番卓）の" \
            "あなたの対戦は結果が出ています（手を挙げてジャッジを呼んでください）"
