"""A deck check's extra preparation time (BR-EXT-3, issue 30 item 2; ``clock`` ADR) and
extra turns where the format counts turns (BR-XTURN-1), with a fixed clock, through the
aggregate, the real SQLite ledger and real ``tourney`` runs: the check's recorded start
→ end is proposed as the call's ruling is (one function, ``call_extension``), capped by
001's 5 minutes in all per match (EOM-EXT-1, AMB-E6), confirmed or changed by the judge
with ``round extend --deck-check``; the audit recomputes it; the time facet of the format
plug-in, not the core function, names the Wheel of Time's rule."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from ledger.core.time_facet import TimeUnit
from ledger.errors import RuleError
from ledger.formats.officiating.call_extension import propose, propose_check
from ledger.formats.officiating.deck_commands import end_deck_check, start_deck_check
from ledger.formats.officiating.deck_floor import DeckCheckOutcome
from ledger.formats.officiating.floor import TimeExtended
from ledger.formats.registry import FORMATS
from ledger.storage.store import Ledger
from tests.conftest import JUDGE
from tests.helpers.cli_runner import Cli, raw_bytes, remember_secret, snapshot
from tests.helpers.officiating import LOG, _append_forged, _codes, at_time, pair, setup, write_at
from usecases.calls import (
    claim_call,
    close_call,
    confirm_check_extension,
    confirm_extension,
    open_call,
)

_t, at = at_time, write_at


def _check(led: Ledger, table: int, start: str, end: str) -> int:
    ev = at(led, start, lambda t, now: start_deck_check(t, JUDGE, now, round_no=1,
                                                        table=table))
    at(led, end, lambda t, now: end_deck_check(t, JUDGE, now, start_seq=ev.seq,
                                               outcome=DeckCheckOutcome.MATCHES))
    return int(ev.seq)


def _rec(led: Ledger, seq: int) -> Any:
    st = led.load(LOG).state
    return st, seq, st.fmt.officiating.deck_checks[seq]


def test_a_check_of_6m20s_proposes_7_minutes_and_001_caps_the_match_at_5(
        tmp_path: Path) -> None:
    """Start 10:00:00, end 10:06:20: 380 s, rounded up to 7 minutes, capped at the 5 of
    001; a later call at that table is proposed nothing (the cap is spent, AMB-E6)."""
    loc, led = setup(tmp_path, fmt="hotc-swiss-de", players=8, end_of_match="eom_001")
    pair(led)
    seq = _check(led, 1, _t("10:00:00"), _t("10:06:20"))
    p = propose_check(*_rec(led, seq))
    assert (p.deck_check, p.ruling_s, p.minutes, p.cap, p.already, p.rule) == \
        (seq, 380, 5, 5, 0, "EOM-EXT-1")
    ev, _p = at(led, _t("10:07:00"),
                lambda t, now: confirm_check_extension(t, JUDGE, now, seq))
    assert (ev.body.minutes, ev.body.deck_check, ev.body.proposed) == (5, seq, 5)
    assert ev.body.call is msgspec.UNSET and "deck check" in ev.body.reason
    st = led.load(LOG).state
    assert st.fmt.officiating.extensions["1/1"] == 5
    assert st.fmt.officiating.deck_extended[seq] == [ev.seq, 5, 5]
    with pytest.raises(RuleError, match="already extended"):
        at(led, _t("10:07:10"), lambda t, now: confirm_check_extension(t, JUDGE, now, seq))
    c = at(led, _t("10:10:00"), lambda t, now: open_call(t, JUDGE, now, table=1))
    at(led, _t("10:10:30"), lambda t, now: claim_call(t, JUDGE, now, c.seq))
    _e, later = at(led, _t("10:14:00"), lambda t, now: close_call(t, JUDGE, now, c.seq, "x"))
    assert (later.minutes, later.already, later.rule) == (0, 5, "EOM-EXT-1")
    led.close()
    assert not {"extension_proposal_mismatch", "call_invalid",
                "extension_above_cap"} & set(_codes(loc))


def test_a_check_without_a_cap_gives_its_whole_time_and_an_open_check_nothing(
        tmp_path: Path) -> None:
    """002 (no cap): 2 min 01 s of checking proposes 3 minutes; a check not yet ended is
    proposed nothing and cannot be cited; another table's check is refused."""
    loc, led = setup(tmp_path, fmt="bushiroad-swiss", players=8)
    pair(led)
    seq = _check(led, 2, _t("11:00:00"), _t("11:02:01"))
    p = propose_check(*_rec(led, seq))
    assert (p.minutes, p.cap, p.rule, p.turns) == (3, None, "BR-EXT-3", 0)
    running = at(led, _t("11:03:00"), lambda t, now: start_deck_check(
        t, JUDGE, now, round_no=1, table=3))
    assert propose_check(*_rec(led, int(running.seq))).minutes == 0
    size = Path(loc.text).stat().st_size
    with pytest.raises(RuleError, match="not an ended deck check"):
        at(led, _t("11:03:10"), lambda t, now: confirm_check_extension(
            t, JUDGE, now, running.seq, minutes=1))
    with pytest.raises(RuleError, match="not an ended deck check"):
        at(led, _t("11:03:10"), lambda t, now: t.record(TimeExtended(
            round=1, table=1, minutes=3, reason="r", deck_check=seq, proposed=3),
            JUDGE, now))
    assert Path(loc.text).stat().st_size == size
    ev, _p = at(led, _t("11:04:00"), lambda t, now: confirm_check_extension(
        t, JUDGE, now, seq, minutes=2, reason="judge gave 2"))
    assert (ev.body.minutes, ev.body.proposed) == (2, 3)      # changed; proposal kept
    led.close()
    assert "extension_proposal_mismatch" not in _codes(loc)


def test_the_audit_recomputes_a_deck_check_proposal(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, fmt="hotc-swiss-de", players=8, end_of_match="eom_001")
    pair(led)
    seq = _check(led, 1, _t("10:00:00"), _t("10:02:30"))
    led.close()
    lied = _append_forged(loc, TimeExtended(round=1, table=1, minutes=1, reason="r",
                                            deck_check=seq, proposed=1), JUDGE)
    assert lied in _codes(loc)["extension_proposal_mismatch"]


def test_extra_turns_are_proposed_where_the_end_of_match_counts_turns(
        tmp_path: Path) -> None:
    """002 with ``extra_turns=3`` (BR-XTURN-1): a ruling over one minute proposes one extra
    turn, not minutes; the judge confirms it and the audit recomputes it.  A deck check is
    still preparation time, in minutes (BR-EXT-3)."""
    loc, led = setup(tmp_path, fmt="bushiroad-swiss", players=8, extra_turns=3)
    pair(led)
    assert FORMATS["bushiroad-swiss"].time.unit(led.load(LOG).state) is TimeUnit.TURNS
    c = at(led, _t("10:00:00"), lambda t, now: open_call(t, JUDGE, now, table=1))
    at(led, _t("10:00:40"), lambda t, now: claim_call(t, JUDGE, now, c.seq))
    _e, p = at(led, _t("10:03:50"), lambda t, now: close_call(t, JUDGE, now, c.seq, "x"))
    assert (p.minutes, p.turns, p.rule, p.amount) == (0, 1, "BR-XTURN-1", "1 turn(s)")
    ev, _p = at(led, _t("10:04:00"), lambda t, now: confirm_extension(t, JUDGE, now, c.seq))
    assert (ev.body.minutes, ev.body.turns, ev.body.proposed_turns) == (0, 1, 1)
    seq = _check(led, 2, _t("10:05:00"), _t("10:06:10"))
    assert propose_check(*_rec(led, seq)).minutes == 2
    c2 = at(led, _t("10:07:00"), lambda t, now: open_call(t, JUDGE, now, table=3))
    at(led, _t("10:07:10"), lambda t, now: claim_call(t, JUDGE, now, c2.seq))
    at(led, _t("10:09:00"), lambda t, now: close_call(t, JUDGE, now, c2.seq, "y"))
    led.close()
    assert "extension_proposal_mismatch" not in _codes(loc)
    lied = _append_forged(loc, TimeExtended(round=1, table=3, minutes=2, reason="r",
                                            call=c2.seq, proposed=2), JUDGE)
    assert lied in _codes(loc)["extension_proposal_mismatch"]


def test_the_time_facet_names_the_format_s_rule_not_the_core(tmp_path: Path) -> None:
    """The core function names no format: the Wheel of Time's rule ids come from its
    plug-in's time facet; every format declares one."""
    src = Path("ledger/formats/officiating/call_extension.py").read_text()
    assert "WOT" not in src and "wot-" not in src
    assert {k: p.time.fixed_rule for k, p in FORMATS.items()
            if p.time is not None and k.startswith("wot")} == \
        {"wot-2001": "WOT01-TIME-1", "wot-classic": "WOTOLD-TIME-1"}
    assert all(p.time is not None for p in FORMATS.values())
    _loc, led = setup(tmp_path, fmt="bushiroad-swiss", players=8)
    pair(led)
    c = at(led, _t("10:00:00"), lambda t, now: open_call(t, JUDGE, now, table=1))
    at(led, _t("10:00:10"), lambda t, now: claim_call(t, JUDGE, now, c.seq))
    at(led, _t("10:00:50"), lambda t, now: close_call(t, JUDGE, now, c.seq, "quick"))
    p = propose(led.load(LOG).state, led.load(LOG).state.calls.calls[c.seq])
    assert (p.minutes, p.rule, p.unit) == (0, "BR-EXT-1", TimeUnit.MINUTES)


def _at(t: str) -> dict[str, str]:
    return {"TOURNEY_FIXED_CLOCK": f"2026-03-01T{t}.000000Z"}


def test_round_extend_deck_check_through_tourney(tmp_path: Path) -> None:
    """``deck end`` offers the extension; ``round extend --deck-check`` confirms it (the
    event cites the check and the proposal); refusals write nothing; the audit is clean."""
    cli = Cli(tmp_path, tmp_path / "t.db")
    for name in ("hj", "judge", "sk"):
        cli("keys", "new", "--name", f"{name} person", "--out", f"{name}.pem")
        remember_secret(tmp_path / f"{name}.pem")
    cli("init", "--name", "Checks", "--format", "hotc-swiss-de", "--param",
        "end_of_match=eom_001", "--key", "hj.pem")
    for role, name in (("judge", "judge"), ("scorekeeper", "sk")):
        cli("official", "add", "--role", role, "--name", name, "--public-key",
            f"{name}.pem.pub", "--key", "hj.pem")
    (tmp_path / "players.csv").write_text("number,name\n" + "".join(
        f"{i},P{i}\n" for i in range(1, 9)))
    cli("player", "import", "players.csv", "--key", "sk.pem")
    cli("registration", "close", "--key", "hj.pem")
    cli("round", "pair", "--seed-material", "c 1 2", "--seed-source", "dice", "--key",
        "hj.pem")
    j = ("--key", "judge.pem")
    start = cli("deck", "start", "--round", "1", "--table", "3", *j, "--json",
                env=_at("10:00:00")).doc
    seq = str(start["seq"])
    before = snapshot(cli.ledger)
    early = cli("round", "extend", "--deck-check", seq, *j, code=3, env=_at("10:01:00"))
    assert "BR-EXT-3" in early.err and raw_bytes(cli.ledger) == before
    ended = cli("deck", "end", seq, "--outcome", "matches", *j, env=_at("10:04:05"))
    assert "proposed extension: 5 minute(s)" in ended.out
    assert f"round extend --deck-check {seq}" in ended.out
    before = snapshot(cli.ledger)
    both = cli("round", "extend", "--deck-check", seq, "--call", "1", *j, code=2)
    assert "--call and --deck-check" in both.err and raw_bytes(cli.ledger) == before
    elsewhere = cli("round", "extend", "--deck-check", seq, "--table", "1", *j, code=2)
    assert "round 1 table 3" in elsewhere.err and raw_bytes(cli.ledger) == before
    ext = cli("round", "extend", "--deck-check", seq, *j, "--json",
              env=_at("10:05:00")).doc
    assert (ext["total_minutes"], ext["proposed"]) == (5, 5)
    assert f"\"deck_check\":{seq}" in json.dumps(ext["event"], separators=(",", ":"))
    assert cli("audit", "verify", "--json", code=None).code == 0


def test_the_staff_page_offers_confirm_extension_after_a_check_ends(tmp_path: Path) -> None:
    """A live server over a ledger the CLI writes: once a check ends, the staff page lists
    its proposal beside the calls' ("Extensions to confirm"); a judge confirms it there,
    changing the minutes; a form naming no call nor check writes nothing."""
    import httpx

    from tests.helpers.calls import calls_event
    from tests.helpers.live import ledger_bytes, running, wait_until
    from tests.helpers.staff import _csrf

    cli, doc, _tokens, staff = calls_event(tmp_path)
    t2 = doc["tables"][1]  # type: ignore[index]
    j = ("--key", "judge.pem")
    start = cli("deck", "start", "--round", "1", "--table", str(t2["table"]), *j, "--json",
                env=_at("09:20:00")).doc["seq"]
    cli("deck", "end", str(start), "--outcome", "matches", *j, env=_at("09:22:30"))
    with running(cli.ledger, station_key=tmp_path / "station.pem",
                 staff_keys=(tmp_path / "judge.pem",)) as (base, hub):
        desk = httpx.Client(base_url=base)
        assert desk.get(f"/c/{staff}").status_code == 303
        sp = desk.get("/staff").text
        assert "Extensions to confirm" in sp and f'id="extdc{start}"' in sp, sp
        assert f"deck check {start}: <b>+3 min</b>" in sp and "BR-EXT-3" in sp
        before = ledger_bytes(cli.ledger)
        bad = desk.post("/staff/calls/extend", data={"csrf": _csrf(sp)},
                        headers={"Origin": base})
        assert bad.status_code == 422 and ledger_bytes(cli.ledger) == before
        r = desk.post("/staff/calls/extend", data={"csrf": _csrf(sp), "deck_check":
                                                   str(start), "minutes": "2"},
                      headers={"Origin": base})
        assert r.status_code == 303, r.text
        wait_until(lambda: start in hub.follower.state.fmt.officiating.deck_extended, 5)
        assert hub.follower.state.fmt.officiating.deck_extended[start][1:] == [2, 3]
        assert f'id="extdc{start}"' not in desk.get("/staff").text
    assert cli("audit", "verify", "--json", code=None).code == 0
