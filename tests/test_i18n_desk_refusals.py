"""The staff console's refusals in the console's language (issue 31; branch jswords2).

The console shows a refused command as the CLI writes it (its sentence, rule id, hint)
and its own problems (a form out of date, no such table, a key the server does not
hold): both are translated when the page is rendered, through the console's one pipeline
(``CommandWords.say``: its own words of ``commands.po`` first, then the server's sentence
patterns; ``server.sentences.refusal_words``, ``server.desk_say.refusal_text``), the rule
id and a ``tourney …`` command kept.  The HTTP API's JSON stays English (a contract);
``/desk/say`` gives ``desk.js`` the console's words for it.

Which sentences, from the code: the ledger's refusals the desk's commands meet (the staff
decisions of ``tests.helpers.refusal_scan.STAFF``, the format's result checks
included, and a result's correction), and the desk modules' own sentences (``problem=``,
an answer's ``message`` / ``hint``, ``UsageError``), read from the source.  A real server
on loopback over a ledger the real CLI wrote, with the officials' keys.
"""

from __future__ import annotations

import ast
import itertools
import re
from pathlib import Path

import httpx
import pytest

from ledger.errors import RuleError
from server.desk_say import refusal_text
from server.i18n import Language
from server.sentences import Sentences
from tests.helpers.cli_runner import CLOCK
from tests.helpers.desk_event import desk_event, desk_server, signed_in
from tests.helpers.live import ledger_bytes
from tests.helpers.refusal_scan import COMMAND, ENGLISH, FMT, ROOT, STAFF, _refusals

#: the ledger's refusals a desk command meets beyond the staff page's (a result entered
#: at the desk, a correction)
DESK: dict[str, tuple[str, ...] | None] = {
    **STAFF,
    "ledger/formats/match/plan.py": ("open_table", "correctable_table",
                                     "correction_table"),
    "usecases/results.py": ("enter_result", "correct_entry"),
}
#: the desk's modules whose own sentences the console shows
DESK_MODULES = ("server/desk_common.py", "server/desk_routes.py", "server/desk_result.py",
                "server/desk_forms.py")
#: a problem the console shows that is written in another module (the staff card's)
ELSEWHERE = ("Sign in with your staff card (its QR code) first.",)


def _variants(node: ast.expr | None) -> list[str]:
    """Every text ``node`` can read (an ``if`` either way), values set to 7 and a
    parameter's CLI spelling (``label_of(p)``) to ``--table``."""
    if isinstance(node, ast.Constant):
        return [node.value] if isinstance(node.value, str) else []
    if isinstance(node, ast.JoinedStr):
        return ["".join(str(v.value) if isinstance(v, ast.Constant) else
                        "--table" if isinstance(v, ast.FormattedValue)
                        and isinstance(v.value, ast.Call)
                        and getattr(v.value.func, "id", "") == "label_of" else "7"
                        for v in node.values)]
    if isinstance(node, ast.IfExp):
        return _variants(node.body) + _variants(node.orelse)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _variants(node.left) or ["7"], _variants(node.right) or ["7"]
        return [a + b for a, b in itertools.product(left, right)]
    return []


def _own() -> list[tuple[str, str]]:
    """(sentence, hint) of each of the desk's own refusals and problems."""
    out: set[tuple[str, str]] = {(t, "") for t in ELSEWHERE}
    for rel in DESK_MODULES:
        tree = ast.parse((ROOT / rel).read_text(encoding="utf-8"))
        for n in ast.walk(tree):
            if isinstance(n, ast.keyword) and n.arg == "problem":
                out |= {(t, "") for t in _variants(n.value)}
            elif isinstance(n, ast.Dict):
                keys = [k.value if isinstance(k, ast.Constant) else None for k in n.keys]
                if "message" in keys:
                    hints = _variants(n.values[keys.index("hint")]) if "hint" in keys \
                        else []
                    out |= {(t, h) for t in _variants(n.values[keys.index("message")])
                            for h in hints or [""]}
            elif isinstance(n, ast.Call) and getattr(n.func, "id", "") == "UsageError":
                kw = {k.arg: k.value for k in n.keywords}
                hints = _variants(kw.get("hint"))
                out |= {(t, h) for t in _variants(n.args[0]) for h in hints or [""]}
            elif isinstance(n, ast.Assign) and any(getattr(t, "id", "") == "hint"
                                                   for t in n.targets):
                out |= {("", h) for h in _variants(n.value)}
            elif isinstance(n, ast.Assign) and any(getattr(t, "id", "") == "problem"
                                                   for t in n.targets):
                out |= {(t, "") for t in _variants(n.value)}
    return sorted(x for x in out if x != ("", "") and not x[0].startswith("7"))


def _ledger() -> list[RuleError]:
    return _refusals(DESK)


def test_the_scans_find_the_desk_s_sentences() -> None:
    own = _own()
    assert ("The desk has no such command; pick one from the console.", "") in own
    assert ("Round 7 has no table 7 seat 7; check the number.", "") in own
    assert ("--table 7 is not a whole number", "type a number for --table") in own
    assert ("", "turn JavaScript on: a key made in your browser signs it (see the key "
                "page)") in own
    msgs = {e.message for e in _ledger()}
    assert "table 7 of round 7 already has a result (seq 7) [LEDGER-RES-1]" in msgs
    assert "round 7 is final: a later round or the cut was already made " \
        "[BR-PEN-3.10.2-AMEND-3]" in msgs
    assert len(own) >= 18 and len(msgs) >= 30


def _left(lang: Language, texts: list[tuple[str, str]]) -> list[tuple[str, str]]:
    ps = Sentences(FMT, lang)
    return [(m, h) for m, h in texts
            if ENGLISH.search(COMMAND.sub("", out := refusal_text(lang, m, h, ps)))
            or out == refusal_text(Language.EN, m, h, str)]


@pytest.mark.parametrize("lang", [Language.JA, Language.AR])
def test_every_refusal_of_a_desk_command_is_translated(lang: Language) -> None:
    assert _left(lang, [(e.message, e.hint or "") for e in _ledger()]) == []


@pytest.mark.parametrize("lang", [Language.JA, Language.AR])
def test_the_desk_s_own_sentences_are_translated(lang: Language) -> None:
    assert _left(lang, _own()) == []


def _main(text: str) -> str:
    m = re.search(r"<main>(.*)</main>", text, re.S)
    body = re.sub(r"<[^>]+>", " ", m.group(1) if m else text)
    return re.sub(r"\s+", " ", body.replace("&#39;", "'").replace("&quot;", '"')).strip()


def test_the_console_answers_in_its_language_and_the_api_in_english(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOURNEY_FIXED_CLOCK", CLOCK)
    ev = desk_event(tmp_path, "hotc-swiss-de")
    t1 = ev.round1["tables"][0]
    a, b = t1["players"]
    ev.cli("result", "record", "--round", "1", "--table", str(t1["table"]), "--winner",
           str(a), "--key", "sk.pem")
    with desk_server(ev) as (base, _hub):
        said: dict[str, str] = {}
        for lang in ("en", "ja", "ar"):
            sk = signed_in(base, ev.cards["sk"])
            assert f'<html lang="{lang}"' in sk.get(f"/desk?lang={lang}").text
            before = ledger_bytes(ev.cli.ledger)
            r = sk.post("/desk/do/result/record", data={
                "csrf": sk.cookies["tourney_csrf"], "round": "1",
                "table": str(t1["table"]), "winner": str(b)}, headers={"Origin": base})
            assert r.status_code == 409, (r.status_code, _main(r.text)[:3000])
            assert ledger_bytes(ev.cli.ledger) == before
            outcome = re.search(r'id="outcome".*?</div>', r.text, re.S)
            assert outcome is not None, _main(r.text)[:2000]
            said[lang] = _main("<div " + outcome.group(0))   # the answer, not the form
            missing = sk.get("/desk/result?round=1&table=99")
            assert missing.status_code == 404
            said[lang + "-problem"] = _main(missing.text)
        table = t1["table"]
        assert f"round 1 table {table} already has a different result: #{a} wins" \
            in said["en"], said["en"]
        assert "[LEDGER-RES-1] (if the slip says otherwise, a judge corrects it: tourney " \
            f"result correct --round 1 --table {table} … --reason TEXT)" in said["en"]
        assert f"ラウンド1の{table}番卓にはすでに別の結果があります" in said["ja"], said["ja"]
        assert "[LEDGER-RES-1]（結果票が違うなら、ジャッジが訂正します：tourney result " \
            f"correct --round 1 --table {table} … --reason TEXT）" in said["ja"], said["ja"]
        assert f"للجولة 1 الطاولة {table} نتيجة مختلفة بالفعل" in said["ar"], said["ar"]
        for lang in ("ja", "ar"):
            assert ENGLISH.search(COMMAND.sub("", said[lang])) is None, said[lang]
        assert "Round 1 has no table 99; check the number." in said["en-problem"]
        assert "ラウンド1に99番卓はありません。番号を確認してください。" in said["ja-problem"]
        # desk.js's words for an API refusal; the API's JSON itself stays English
        sk = signed_in(base, ev.cards["sk"])
        sk.get("/desk?lang=ja")
        api = sk.post("/api/v1/drop", json={"number": 99, "reason": "gone"},
                      headers={"Authorization": f"Bearer {ev.cards['sk']}",
                               "Accept-Language": "ja"})
        assert api.status_code == 409, api.text
        err = api.json()["error"]
        assert err["message"] == "player 99 is not registered [BR-DROP-1]"
        assert err["hint"] == "see 'tourney player list'"
        words = sk.get("/desk/say", params={"message": err["message"], "hint": err["hint"]})
        assert words.status_code == 200 and words.headers["cache-control"].startswith(
            "private")
        assert words.json()["text"] == \
            "プレイヤー99は登録されていません [BR-DROP-1]（「tourney player list」を見てください）"
        # the console's own sentence: /desk/say answers desk.js in the page's words
        own = sk.get("/desk/say", params={"message": "the desk has no command 'nope'",
                                          "hint": "pick one from the console"})
        assert own.json()["text"] == \
            "受付にコマンド'nope'はありません（コンソールから選んでください）"
        problem = sk.get("/desk/say", params={
            "message": "Round 1 has no table 99; check the number."}).json()["text"]
        assert problem == "ラウンド1に99番卓はありません。番号を確認してください。"
        assert problem in said["ja-problem"]
        stranger = httpx.get(base + "/desk/say", params={"message": err["message"]})
        assert stranger.status_code == 403
