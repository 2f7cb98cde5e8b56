"""Extra turns in the head judge's numbers (issue 30 item 6; BR-XTURN-1; task floor3): the
officiating state keeps the turns each cited extension gave and the record proposed
(``CallsState.extended_turns``, ``OfficiatingState.deck_extended_turns``) and each
match's turns in all (``OfficiatingState.extension_turns``), so ``floor stats`` no longer
shows a turns extension as "proposed 0".  The aggregate and the real SQLite ledger with a
fixed clock (numbers by hand in each docstring), then the real CLI (text and ``--json``)
and the console's floor panel over HTTP."""

from __future__ import annotations

import re
from pathlib import Path

from ledger.formats.officiating.deck_commands import end_deck_check, start_deck_check
from ledger.formats.officiating.deck_floor import DeckCheckOutcome
from ledger.formats.officiating.floor_commands import extend
from ledger.storage.store import Ledger
from tests.conftest import JUDGE
from tests.helpers.desk_event import desk_event, desk_server, signed_in
from tests.helpers.floor_proposals import at as cli_at
from tests.helpers.floor_proposals import floor_with_proposals
from tests.helpers.officiating import LOG, _codes, at_time, pair, setup, write_at
from usecases.calls import (
    claim_call,
    close_call,
    confirm_check_extension,
    confirm_extension,
    open_call,
)
from usecases.floor_stats import CiteKind, Given, MatchExtension, floor_stats

_t, at = at_time, write_at


def _call(led: Ledger, table: int, opened: str, claimed: str, closed: str) -> int:
    c = at(led, opened, lambda t, now: open_call(t, JUDGE, now, table=table))
    at(led, claimed, lambda t, now: claim_call(t, JUDGE, now, c.seq))
    at(led, closed, lambda t, now: close_call(t, JUDGE, now, c.seq, "ruled"))
    return int(c.seq)


def test_turns_proposed_and_given_are_counted(tmp_path: Path) -> None:
    """002 with ``extra_turns=3`` (BR-XTURN-1: a ruling over one minute proposes 1 extra
    turn; a deck check stays minutes, BR-EXT-3).  Table 1: a call claimed 10:00:40, closed
    10:03:50 (190 s) → proposed 1 turn, confirmed (1 turn); then 1 turn by hand → 2 turns
    in all, 1 by hand, 0 minutes.  Table 2: a call claimed 10:05:10, closed 10:07:00
    (110 s) → proposed 1 turn, the judge gives 2 → 2 turns in all.  Table 3: a deck check
    10:10:00 → 10:11:30 (90 s → 2 min) confirmed → 2 min, 0 turns."""
    loc, led = setup(tmp_path, fmt="bushiroad-swiss", players=8, extra_turns=3)
    pair(led)
    a = _call(led, 1, _t("10:00:00"), _t("10:00:40"), _t("10:03:50"))
    ea, pa = at(led, _t("10:04:00"), lambda t, now: confirm_extension(t, JUDGE, now, a))
    assert (pa.minutes, pa.turns) == (0, 1)
    at(led, _t("10:04:30"), lambda t, now: extend(
        t, JUDGE, now, round_no=1, table=1, minutes=0, turns=1, reason="shuffle slip"))
    b = _call(led, 2, _t("10:05:00"), _t("10:05:10"), _t("10:07:00"))
    eb, _p = at(led, _t("10:07:30"), lambda t, now: confirm_extension(
        t, JUDGE, now, b, turns=2, reason="judge gave 2 turns"))
    chk = at(led, _t("10:10:00"), lambda t, now: start_deck_check(
        t, JUDGE, now, round_no=1, table=3)).seq
    at(led, _t("10:11:30"), lambda t, now: end_deck_check(
        t, JUDGE, now, start_seq=chk, outcome=DeckCheckOutcome.MATCHES))
    ec, pc = at(led, _t("10:12:00"), lambda t, now: confirm_check_extension(
        t, JUDGE, now, chk))
    assert (pc.minutes, pc.turns) == (2, 0)

    st = led.load(LOG).state
    assert st.fmt.officiating.extension_turns == {"1/1": 2, "1/2": 2}
    assert st.calls.extended_turns == {a: [1, 1], b: [2, 1]}
    assert st.fmt.officiating.deck_extended_turns == {}
    fs = floor_stats(st)
    assert fs.extensions == [
        MatchExtension(round=1, table=1, minutes=0, calls=[a], by_hand=0, turns=2,
                       by_hand_turns=1, given=[Given(
                           seq=ea.seq, cites=CiteKind.CALL, cited=a, proposed=0, minutes=0,
                           proposed_turns=1, turns=1)]),
        MatchExtension(round=1, table=2, minutes=0, calls=[b], by_hand=0, turns=2,
                       by_hand_turns=0, given=[Given(
                           seq=eb.seq, cites=CiteKind.CALL, cited=b, proposed=0, minutes=0,
                           proposed_turns=1, turns=2)]),
        MatchExtension(round=1, table=3, minutes=2, calls=[], by_hand=0, turns=0,
                       by_hand_turns=0, given=[Given(
                           seq=ec.seq, cites=CiteKind.DECK_CHECK, cited=chk, proposed=2,
                           minutes=2)])]
    led.close()
    assert not {"extension_proposal_mismatch", "call_invalid"} & set(_codes(loc))


def _text(html: str) -> str:
    m = re.search(r"<main>(.*)</main>", html, re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", m.group(1) if m else html))


def test_floor_stats_and_the_console_show_turns(tmp_path: Path) -> None:
    """The real CLI, 002 with ``extra_turns=3``: the call ruled 10:00:40 → 10:03:50 is
    proposed 1 turn and the judge gives 2 (``round extend --call C --turns 2``); the deck
    check 10:00:00 → 10:02:01 (121 s → 3 min) is confirmed as proposed.  ``floor stats``
    says "+2 turn(s)" with "(proposed 1 turn(s))", the JSON carries the numbers, the
    console's floor panel says "+2 turns" and "proposed +1 turn, given +2 turns"; Japanese
    too; the audit is clean."""
    ev = desk_event(tmp_path, "bushiroad-swiss", params=("--param", "extra_turns=3"))
    check, t1, call, t2 = floor_with_proposals(ev)
    j = ("--key", str(ev.keys["judge"]))
    ext = ev.cli("round", "extend", "--call", str(call), "--turns", "2", "--reason",
                 "judge gave 2", *j, "--json", env=cli_at("10:04:00")).doc
    ev.cli("round", "extend", "--deck-check", str(check), *j, env=cli_at("10:04:10"))
    text = ev.cli("floor", "stats").out
    assert f"round 1 table {t2}: +2 turn(s)\n" in text, text
    assert f"  seq {ext['seq']}: +2 turn(s) for call {call} (proposed 1 turn(s))" in text
    assert f"round 1 table {t1}: +3 min\n" in text
    assert f"for deck check {check} (proposed 3)" in text
    doc = ev.cli("floor", "stats", "--json").doc
    by_table = {e["table"]: e for e in doc["extensions"]}
    assert (by_table[t2]["minutes"], by_table[t2]["turns"]) == (0, 2)
    assert "by_hand_turns" not in by_table[t2]     # 0: omitted, as for minutes-only rows
    g = by_table[t2]["given"][0]
    assert (g["cited"], g["proposed"], g["minutes"], g["proposed_turns"], g["turns"]) == (
        call, 0, 0, 1, 2)
    assert by_table[t1]["minutes"] == 3 and "turns" not in by_table[t1]
    assert "turns" not in by_table[t1]["given"][0]
    with desk_server(ev) as (base, _hub):
        hj = signed_in(base, ev.cards["hj"])
        panel = _text(hj.get("/desk").text)
        assert f"round 1 table {t2} +2 turns (call {call}: proposed +1 turn, given +2 " \
               "turns)" in panel, panel
        assert f"round 1 table {t1} +3 min (deck check {check}: proposed 3)" in panel
        ja = _text(hj.get("/desk?lang=ja").text)
        assert "+2ターン" in ja and "提案 +1ターン、付与 +2ターン" in ja, ja
    assert ev.cli("audit", "verify", "--json").doc["ok"] is True
