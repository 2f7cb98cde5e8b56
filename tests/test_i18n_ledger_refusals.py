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

import ast
import re
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from ledger.core.player_words import REFUSALS, REFUSED, refusal
from ledger.errors import RuleError
from server.i18n import Language
from server.sentences import sentence
from tests.test_i18n_python_sentences import ENGLISH, _text

ROOT = Path(__file__).resolve().parent.parent
FMT = "hotc-swiss-de"
#: every write: who may sign it, the station's clock (``ledger.core.rules``)
EVERY_WRITE = ("authorize", "authorize_roles", "check_claimed_time")
#: module → the functions whose refusals a player's own act meets (``None``: all of it)
PLAYER: dict[str, tuple[str, ...] | None] = {
    "ledger/core/rules.py": EVERY_WRITE,
    "ledger/core/report_rules.py": ("parse_report", "check_reported", "check_own_act"),
    "ledger/core/device_rules.py": None,
    "ledger/core/seat_reports.py": ("check_seat_report",),
    "ledger/core/call_rules.py": ("check_opened",),
    "ledger/formats/officiating/deck_submit_rules.py": ("_submitted",),
    "ledger/formats/hotc/checks.py": ("_dropped",),
    "ledger/formats/bushiroad/checks.py": ("_dropped",),
    "usecases/calls.py": ("own_call",),
    "usecases/decklists.py": ("submit_own_deck",),
    "usecases/reports.py": ("own_drop",),
}
#: module → the functions whose refusals a staff decision of /staff meets
STAFF: dict[str, tuple[str, ...] | None] = {
    "ledger/core/rules.py": EVERY_WRITE,
    "ledger/core/report_rules.py": ("check_rejected", "check_citation",
                                    "check_station_result"),
    "ledger/core/call_rules.py": ("check_claimed", "check_closed"),
    "usecases/reports.py": ("accept_matching", "record_report", "reject_report"),
    "usecases/calls.py": ("claim_call", "close_call"),
    # the format's checks of the result an accepted report records (branch jswords2)
    "ledger/formats/match/plan.py": ("open_table",),
    "ledger/formats/hotc/checks.py": ("_decided",),
    "ledger/formats/bushiroad/checks.py": ("_decided",),
}


def _functions(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    return {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}


def _reached(tree: ast.Module, names: tuple[str, ...] | None) -> list[ast.AST]:
    """The functions ``names`` of ``tree`` and the module's functions they call, at any
    depth (the whole module for ``None``)."""
    if names is None:
        return [tree]
    defs = _functions(tree)
    missing = [n for n in names if n not in defs]
    assert missing == [], missing          # a function renamed: say where the rules went
    seen: list[str] = []
    todo = list(names)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.append(name)
        todo += [c.func.id for c in ast.walk(defs[name]) if isinstance(c, ast.Call)
                 and isinstance(c.func, ast.Name) and c.func.id in defs]
    return [defs[n] for n in seen]


def _refusals(where: dict[str, tuple[str, ...] | None]) -> list[RuleError]:
    """Each ``RuleError(...)`` of ``where`` with a literal (or f-string) sentence, its
    values set to 7."""
    out: list[RuleError] = []
    for rel, names in where.items():
        tree = ast.parse((ROOT / rel).read_text(encoding="utf-8"))
        for fn in _reached(tree, names):
            for c in ast.walk(fn):
                if not (isinstance(c, ast.Call) and getattr(c.func, "id", "") == "RuleError"
                        and len(c.args) >= 2 and isinstance(c.args[0], ast.Constant)):
                    continue
                msg = _text(c.args[1])
                if msg is None:         # a sentence made elsewhere (the scans of ADR 0063)
                    continue
                kw = {k.arg: k.value for k in c.keywords}
                hint = _text(kw["hint"]) if "hint" in kw else None
                finding = kw.get("finding")
                out.append(RuleError(str(c.args[0].value), msg, hint=hint,
                                     finding=str(finding.value)
                                     if isinstance(finding, ast.Constant)
                                     else "rule_violation"))
    return out


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


#: what stays as it is in every language: a CLI command ("tourney call close 7") and an
#: option ("--outcome TEXT")
COMMAND = re.compile(r"tourney(?: [a-z-]+)+|--\w+ [A-Z]+")


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
