"""Commands signed in the official's browser (issue 29 item 2; usecases/prepared.py).

On a real SQLite ledger, with a key from ``cryptography`` playing the browser (its private
half never given to the server's code): the bytes a prepare returns are exactly the event
that is stored once signed; a command writing several events asks for each signature in
turn and writes nothing until the last; a forged signature is a verification error and a
replayed submission writes nothing; a write by another writer between prepare and submit
is decided again; the pinned time is bounded; a station's batch sets aside only the
browser's command, and the station's writer thread decides at the pinned time; a head
judge's automatic checkpoint is deferred, then signed in the browser as its own command.
The binding is ``official_added`` (``usecases.official_keys``).
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from audit.verify import verify_ledger
from ledger.core.aggregate import Tournament
from ledger.errors import RuleError, UsageError, VerificationError, WriteAborted
from ledger.formats.match.model import Outcome
from ledger.formats.registry import make_format
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.clock import FixedClock, format_time, parse_time
from ledger.wire.events import SIG_DOMAIN, Role, open_leaf
from ledger.wire.keys import Signer
from tests.conftest import HJ
from tests.helpers.cli_runner import snapshot
from usecases.official_keys import bind_official
from usecases.prepared import Answer, Ask, Signed, bound_key, step
from usecases.results import Unchanged, enter_result

LOG = "bk"
START = "2026-05-01T09:00:00.000000Z"


class Browser:
    """What the console does with its non-extractable key: sign the bytes it is shown."""

    def __init__(self) -> None:
        self._key = Ed25519PrivateKey.generate()
        self.public_b64 = base64.b64encode(self._key.public_key().public_bytes_raw()).decode()

    def sign(self, message: bytes) -> bytes:
        return self._key.sign(message)


def _event(db: Path, *, paired: bool = True, browsers: dict[str, tuple[Browser, Role]]
           ) -> Location:
    loc = Location(str(db))
    with Ledger(loc, create=True, clock=FixedClock(START)) as led:
        led.create(LOG, lambda now: Tournament.create(
            log=LOG, name="Browser keys", fmt=make_format("hotc-swiss-de", 4), signer=HJ,
            time=now))
        for name, (b, role) in browsers.items():
            def bind(t: Tournament, now: str, b: Browser = b, role: Role = role,
                     name: str = name) -> Any:
                return bind_official(t, b.public_b64, role, name, HJ, now)
            led.write(LOG, bind)
        if paired:
            led.write(LOG, lambda t, now: [t.register_player(f"P{i}", HJ, now)
                                           for i in range(1, 9)])
            led.write(LOG, lambda t, now: t.close_registration(HJ, now))
            led.write(LOG, lambda t, now: t.pair_round(HJ, now, material="keys 3 1 4",
                                                       source="test"))
    return loc


def _kid(b: Browser) -> str:
    from ledger.wire.keys import key_id

    return key_id(base64.b64decode(b.public_b64))


def _step(led: Ledger, b: Browser, run: Callable[[Signer], Any], *, time: str | None = None,
          signed: list[Signed] | None = None) -> Answer[Any]:
    st = led.load(LOG).state
    return step(run, bound_key(st, _kid(b)), time=time, signed=signed or [],
                now=led.clock.now(), last_time=st.last_time)


def _drive(led: Ledger, b: Browser, run: Callable[[Signer], Any]
           ) -> tuple[Answer[Any], list[Answer[Any]], list[Signed]]:
    """prepare → sign → submit until done, as the console does; every step before the
    last wrote nothing."""
    asked: list[Answer[Any]] = []
    signed: list[Signed] = []
    time: str | None = None
    for _ in range(10):
        size = led.load(LOG).state.size
        ans = _step(led, b, run, time=time, signed=signed)
        if ans.done:
            return ans, asked, signed
        assert led.load(LOG).state.size == size
        asked.append(ans)
        time = ans.time
        signed = [*signed[:ans.index], Signed(ans.to_sign, b.sign(ans.to_sign))]
    raise AssertionError("never done")


def _result(led: Ledger, table: int, winner: int) -> Callable[[Signer], Any]:
    return lambda s: led.write(LOG, lambda t, now: enter_result(
        t, s, now, lambda q: led.actor_of(LOG, q), round_no=1, table=table,
        outcome=Outcome.WIN, winner=winner))


def _table(led: Ledger, k: int = 0) -> tuple[int, list[int]]:
    tab = led.load(LOG).state.fmt.rounds[-1].tables[k]
    return tab.table, tab.players


@pytest.fixture()
def sk() -> Browser:
    return Browser()


def test_a_result_signed_in_the_browser_is_the_prepared_bytes(tmp_path: Path,
                                                             sk: Browser) -> None:
    loc = _event(tmp_path / "t.db", browsers={"Sam": (sk, Role.SCOREKEEPER)})
    with Ledger(loc, clock=FixedClock("2026-05-01T09:01:00.000000Z")) as led:
        table, players = _table(led)
        size = led.load(LOG).state.size
        before = snapshot(tmp_path / "t.db")
        first = _step(led, sk, _result(led, table, players[0]))
        assert snapshot(tmp_path / "t.db") == before            # prepare wrote nothing
        assert (first.done, first.status, first.ask, first.index) == (False, 200, Ask.SIGN, 0)
        assert first.to_sign.startswith(SIG_DOMAIN)
        assert first.summary["kind"] == "result_recorded"
        assert first.summary["seq"] == size + 1 and first.summary["actor"] == _kid(sk)
        doc = first.json()
        assert doc["to_sign"] == base64.b64encode(first.to_sign).decode()
        sig = sk.sign(first.to_sign)
        done = _step(led, sk, _result(led, table, players[0]), time=first.time,
                     signed=[Signed(first.to_sign, sig)])
        assert done.done and done.signatures_used == 1
        leaf = open_leaf(led.raw_leaf(LOG, size + 1) or b"")
        assert SIG_DOMAIN + leaf.leaf[len(b'{"event":'):leaf.leaf.index(b',"sig":')] == \
            first.to_sign
        assert leaf.sig == sig and leaf.actor == _kid(sk) and leaf.time == first.time
    assert verify_ledger(loc, LOG, None).ok


def test_several_events_are_signed_in_turn_and_written_together(tmp_path: Path,
                                                                 sk: Browser) -> None:
    loc = _event(tmp_path / "t.db", paired=False, browsers={"Sam": (sk, Role.SCOREKEEPER)})
    with Ledger(loc, clock=FixedClock("2026-05-01T09:01:00.000000Z")) as led:
        size = led.load(LOG).state.size

        def three(s: Signer) -> Any:
            return led.write(LOG, lambda t, now: [t.register_player(n, s, now)
                                                  for n in ("Ana", "Bo", "Cy")])
        done, asked, signed = _drive(led, sk, three)
        assert [a.ask for a in asked] == [Ask.SIGN, Ask.NEXT, Ask.NEXT]
        assert [a.index for a in asked] == [0, 1, 2]
        assert [a.summary["body"]["name"] for a in asked] == ["Ana", "Bo", "Cy"]
        assert done.signatures_used == 3
        st = led.load(LOG).state
        assert st.size == size + 3
        assert [open_leaf(led.raw_leaf(LOG, size + i) or b"").sig for i in (1, 2, 3)] == \
            [s.sig for s in signed]
    assert verify_ledger(loc, LOG, None).ok


def test_a_forged_signature_is_refused_and_writes_nothing(tmp_path: Path,
                                                          sk: Browser) -> None:
    loc = _event(tmp_path / "t.db", browsers={"Sam": (sk, Role.SCOREKEEPER)})
    with Ledger(loc, clock=FixedClock("2026-05-01T09:01:00.000000Z")) as led:
        table, players = _table(led)
        run = _result(led, table, players[0])
        first = _step(led, sk, run)
        before = snapshot(tmp_path / "t.db")
        other = Browser()                        # not the bound key
        good = sk.sign(first.to_sign)
        flipped = bytes([good[0] ^ 1]) + good[1:]
        for sig in (other.sign(first.to_sign), flipped):
            with pytest.raises(VerificationError, match="does not verify"):
                _step(led, sk, run, time=first.time, signed=[Signed(first.to_sign, sig)])
            assert snapshot(tmp_path / "t.db") == before


def test_bytes_the_server_did_not_decide_are_decided_again(tmp_path: Path,
                                                           sk: Browser) -> None:
    """A browser (or a man in the middle) that signs other bytes — another winner — gets
    the server's own decision back to sign; nothing of its own is written."""
    loc = _event(tmp_path / "t.db", browsers={"Sam": (sk, Role.SCOREKEEPER)})
    with Ledger(loc, clock=FixedClock("2026-05-01T09:01:00.000000Z")) as led:
        table, players = _table(led)
        first = _step(led, sk, _result(led, table, players[0]))
        forged = first.to_sign.replace(f'"winner":{players[0]}'.encode(),
                                       f'"winner":{players[1]}'.encode())
        assert forged != first.to_sign
        before = snapshot(tmp_path / "t.db")
        again = _step(led, sk, _result(led, table, players[0]), time=first.time,
                      signed=[Signed(forged, sk.sign(forged))])
        assert (again.done, again.status, again.ask) == (False, 409, Ask.DECIDED_AGAIN)
        assert again.to_sign == first.to_sign
        assert again.json()["error"]["kind"] == "rule"
        assert snapshot(tmp_path / "t.db") == before


def test_a_replayed_submission_never_appends_twice(tmp_path: Path, sk: Browser) -> None:
    loc = _event(tmp_path / "t.db", browsers={"Sam": (sk, Role.SCOREKEEPER)})
    with Ledger(loc, clock=FixedClock("2026-05-01T09:01:00.000000Z")) as led:
        table, players = _table(led)
        run = _result(led, table, players[0])
        done, asked, signed = _drive(led, sk, run)
        size = led.load(LOG).state.size
        before = snapshot(tmp_path / "t.db")
        # the same result again: the table holds it, nothing is signed or written
        again = _step(led, sk, run, time=asked[-1].time, signed=signed)
        assert again.done and isinstance(again.result, Unchanged)
        assert again.signatures_used == 0
        assert led.load(LOG).state.size == size and snapshot(tmp_path / "t.db") == before
    assert verify_ledger(loc, LOG, None).ok


def test_a_replay_of_a_command_that_is_not_idempotent_writes_nothing(
        tmp_path: Path, sk: Browser) -> None:
    """Registering a player again would be a new player: the replayed bytes name a seq
    that is taken, so the server decides again and writes nothing."""
    loc = _event(tmp_path / "t.db", paired=False, browsers={"Sam": (sk, Role.SCOREKEEPER)})
    with Ledger(loc, clock=FixedClock("2026-05-01T09:01:00.000000Z")) as led:
        late: Callable[[Signer], Any] = lambda s: led.write(   # noqa: E731
            LOG, lambda t, now: t.register_player("Ana", s, now))
        done, asked, signed = _drive(led, sk, late)
        size = led.load(LOG).state.size
        before = snapshot(tmp_path / "t.db")
        replay = _step(led, sk, late, time=asked[-1].time, signed=signed)
        assert (replay.done, replay.status, replay.ask) == (False, 409, Ask.DECIDED_AGAIN)
        assert replay.summary["seq"] == size + 1 and replay.summary["actor"] == _kid(sk)
        assert snapshot(tmp_path / "t.db") == before
    assert verify_ledger(loc, LOG, None).ok


def test_a_write_between_prepare_and_submit_is_decided_again(tmp_path: Path,
                                                             sk: Browser) -> None:
    loc = _event(tmp_path / "t.db", browsers={"Sam": (sk, Role.SCOREKEEPER)})
    with Ledger(loc, clock=FixedClock("2026-05-01T09:01:00.000000Z")) as led:
        (t1, p1), (t2, p2) = _table(led, 0), _table(led, 1)
        run = _result(led, t1, p1[0])
        first = _step(led, sk, run)
        signed = [Signed(first.to_sign, sk.sign(first.to_sign))]
        # the desk (another writer, another process's ledger) records another table
        with Ledger(loc, clock=FixedClock("2026-05-01T09:01:30.000000Z")) as desk:
            desk.write(LOG, lambda t, now: enter_result(
                t, HJ, now, lambda q: desk.actor_of(LOG, q), round_no=1, table=t2,
                outcome=Outcome.WIN, winner=p2[0]))
        size = led.load(LOG).state.size
        again = _step(led, sk, run, time=first.time, signed=signed)
        assert (again.ask, again.status, again.index) == (Ask.DECIDED_AGAIN, 409, 0)
        assert again.summary["seq"] == size + 1 and again.to_sign != first.to_sign
        assert led.load(LOG).state.size == size
        done = _step(led, sk, run, time=again.time,
                     signed=[Signed(again.to_sign, sk.sign(again.to_sign))])
        assert done.done and led.load(LOG).state.size == size + 1
    assert verify_ledger(loc, LOG, None).ok


@pytest.mark.parametrize("shift,why", [(-301, "older than the bound"),
                                       (+5, "in the server's future"),
                                       (None, "not a time")])
def test_a_pinned_time_out_of_bounds_is_decided_anew(tmp_path: Path, sk: Browser,
                                                     shift: int | None, why: str) -> None:
    loc = _event(tmp_path / "t.db", browsers={"Sam": (sk, Role.SCOREKEEPER)})
    now = "2026-05-01T09:10:00.000000Z"
    with Ledger(loc, clock=FixedClock(now, step=timedelta(0))) as led:
        table, players = _table(led)
        run = _result(led, table, players[0])
        first = _step(led, sk, run)
        assert first.time == now
        bad = "yesterday" if shift is None else \
            format_time(parse_time(now) + timedelta(seconds=shift))
        ans = _step(led, sk, run, time=bad,
                    signed=[Signed(first.to_sign, sk.sign(first.to_sign))])
        assert (ans.ask, ans.status, ans.time) == (Ask.TIME, 409, now), why
        assert ans.to_sign == first.to_sign
        # within the bound, the pinned time is the event's
        ok = format_time(parse_time(now) - timedelta(seconds=299))
        pinned = _step(led, sk, run, time=ok)
        assert pinned.time == ok and pinned.summary["time"] == ok


def test_a_time_before_the_last_event_is_refused(tmp_path: Path, sk: Browser) -> None:
    loc = _event(tmp_path / "t.db", browsers={"Sam": (sk, Role.SCOREKEEPER)})
    with Ledger(loc, clock=FixedClock("2026-05-01T09:01:00.000000Z")) as led:
        last = led.load(LOG).state.last_time
        table, players = _table(led)
        early = format_time(parse_time(last) - timedelta(seconds=1))
        ans = _step(led, sk, _result(led, table, players[0]), time=early)
        assert ans.ask is Ask.SIGN and ans.time > last


def test_a_refusal_is_the_commands_own_and_asks_for_nothing(tmp_path: Path,
                                                            sk: Browser) -> None:
    judge = Browser()
    loc = _event(tmp_path / "t.db", browsers={"Sam": (sk, Role.SCOREKEEPER),
                                             "Jo": (judge, Role.JUDGE)})
    with Ledger(loc, clock=FixedClock("2026-05-01T09:01:00.000000Z")) as led:
        before = snapshot(tmp_path / "t.db")
        with pytest.raises(RuleError):    # a scorekeeper may not pair (the ledger's rule)
            _step(led, sk, lambda s: led.write(LOG, lambda t, now: t.pair_round(
                s, now, material="more 1 2", source="test")))
        assert snapshot(tmp_path / "t.db") == before
        with pytest.raises(UsageError, match="not a current official"):
            bound_key(led.load(LOG).state, "00" * 8)


def test_a_station_batch_sets_aside_only_the_browsers_command(tmp_path: Path,
                                                              sk: Browser) -> None:
    loc = _event(tmp_path / "t.db", browsers={"Sam": (sk, Role.SCOREKEEPER)})
    with Ledger(loc, clock=FixedClock("2026-05-01T09:01:00.000000Z")) as led:
        session = led.session(LOG)
        (t1, p1), (t2, p2), (t3, p3) = (_table(led, k) for k in range(3))
        st = led.load(LOG).state
        key = bound_key(st, _kid(sk))
        size = st.size

        def slip(signer: Signer, table: int, winner: int) -> Any:
            return lambda t, now: enter_result(t, signer, now, lambda q: led.actor_of(LOG, q),
                                               round_no=1, table=table, outcome=Outcome.WIN,
                                               winner=winner)
        from usecases.prepared import BrowserSigner

        browser = BrowserSigner(key.public_key_raw, key.name, [])
        out = session.write_batch([slip(HJ, t1, p1[0]), slip(browser, t2, p2[0]),
                                   slip(HJ, t3, p3[0])])
        assert isinstance(out[1], WriteAborted)
        assert isinstance(out[0], list) and isinstance(out[2], list)
        assert led.load(LOG).state.size == size + 2
        assert browser.record.message.startswith(SIG_DOMAIN)
    assert verify_ledger(loc, LOG, None).ok


def test_a_head_judges_checkpoint_is_deferred_then_signed_in_the_browser(
        tmp_path: Path, sk: Browser) -> None:
    from ledger.proofs.checkpoint import verify_checkpoint_note
    from ledger.proofs.checkpoint_store import checkpoint_if_head_judge, write_checkpoint
    from usecases.prepared import BrowserSigner

    hana = Browser()
    loc = _event(tmp_path / "t.db", browsers={"Sam": (sk, Role.SCOREKEEPER),
                                             "Hana": (hana, Role.HEAD_JUDGE)})
    with Ledger(loc, clock=FixedClock("2026-05-01T09:01:00.000000Z")) as led:
        st = led.load(LOG).state
        notes = led.checkpoints.notes(LOG)
        # the automatic checkpoint after a command: deferred for a head judge's browser
        # key (said to the signer), nothing for a scorekeeper's; nothing stored
        for b, deferred in ((hana, True), (sk, False)):
            key = bound_key(st, _kid(b))
            signer = BrowserSigner(key.public_key_raw, key.name, [])
            assert checkpoint_if_head_judge(led, LOG, signer, None) is None
            assert signer.record.checkpoint_deferred is deferred
            assert signer.record.count == 0
        assert led.checkpoints.notes(LOG) == notes
        # signed as its own command: the note's text is what the browser signs
        done, asked, signed = _drive(led, hana, lambda s: write_checkpoint(led, LOG, s))
        assert [a.summary["kind"] for a in asked] == ["checkpoint"]
        assert asked[0].summary["size"] == st.size
        size, note = led.checkpoints.latest(LOG) or (0, b"")
        assert size == st.size and note.startswith(asked[0].to_sign)
        origin = asked[0].summary["origin"]
        cp = verify_checkpoint_note(note, origin, base64.b64decode(hana.public_b64),
                                    expected_origin=origin)
        assert cp.size == st.size
    assert verify_ledger(loc, LOG, None).ok


def test_a_browser_command_through_the_stations_writer_thread(tmp_path: Path,
                                                              sk: Browser) -> None:
    """The station decides in its own thread, in batches: the pinned time reaches it
    (``Station.submit``), and a stopped decision answers only its own request."""
    from server.station import Station
    from tests.helpers.reporting_phones import reporting_event

    cli, doc, _tokens = reporting_event(tmp_path)
    cli("official", "bind", "--role", "scorekeeper", "--name", "Sam", "--public-key",
        sk.public_b64, "--key", "hj.pem")
    log = cli("log", "--json").doc[0]["event"]["log"]
    t1 = doc["tables"][0]  # type: ignore[index]
    loc = Location(str(cli.ledger))
    station = Station(loc, tmp_path / "station.pem", log)
    try:
        with Ledger(loc) as led:
            def run(s: Signer) -> Any:
                return station.run(lambda t, now: enter_result(
                    t, s, now, lambda q: led.actor_of(log, q), round_no=1,
                    table=t1["table"], outcome=Outcome.WIN, winner=t1["players"][0]))
            st = led.load(log).state
            now = format_time(parse_time(st.last_time) + timedelta(seconds=90))
            first = step(run, bound_key(st, _kid(sk)), time=None, signed=[], now=now,
                         last_time=st.last_time)
            assert first.ask is Ask.SIGN and first.time == now
            assert led.load(log).state.size == st.size
            done = step(run, bound_key(st, _kid(sk)), time=first.time,
                        signed=[Signed(first.to_sign, sk.sign(first.to_sign))],
                        now=now, last_time=st.last_time)
            assert done.done
            leaf = open_leaf(led.raw_leaf(log, st.size + 1) or b"")
            assert leaf.time == now and leaf.actor == _kid(sk)   # the pinned time
    finally:
        station.close()
    cli("audit", "verify")


def test_a_command_of_several_writes_is_written_write_by_write(tmp_path: Path,
                                                               sk: Browser) -> None:
    """``result import`` saves row by row: each row is written once signed, the answer
    says so, and deciding again finds the written rows unchanged (no signature asked
    twice, nothing written twice)."""
    loc = _event(tmp_path / "t.db", browsers={"Sam": (sk, Role.SCOREKEEPER)})
    with Ledger(loc, clock=FixedClock("2026-05-01T09:01:00.000000Z")) as led:
        (t1, p1), (t2, p2) = _table(led, 0), _table(led, 1)
        size = led.load(LOG).state.size

        def two_rows(s: Signer) -> Any:
            return [_result(led, t1, p1[0])(s), _result(led, t2, p2[0])(s)]
        asked: list[Answer[Any]] = []
        signed: list[Signed] = []
        time: str | None = None
        for _ in range(6):
            ans = _step(led, sk, two_rows, time=time, signed=signed)
            if ans.done:
                break
            asked.append(ans)
            time = ans.time
            signed = [*signed[:ans.index], Signed(ans.to_sign, sk.sign(ans.to_sign))]
        assert ans.done and not isinstance(ans.result[0], list)    # row 1: unchanged
        assert [(a.ask, a.index, a.written) for a in asked] == [(Ask.SIGN, 0, 0),
                                                                (Ask.NEXT, 0, 1)]
        assert "part of this command is written" in asked[1].json()["message"]
        assert led.load(LOG).state.size == size + 2
    assert verify_ledger(loc, LOG, None).ok


def test_a_session_keeps_its_tournament_when_a_browser_signature_is_asked(
        tmp_path: Path, sk: Browser, monkeypatch: pytest.MonkeyPatch) -> None:
    """The server's runner writes through a kept ``WriteSession``: a prepare (stopped
    before any event) does not make the next command load the tournament again."""
    from usecases.prepared import BrowserSigner

    loc = _event(tmp_path / "t.db", browsers={"Sam": (sk, Role.SCOREKEEPER)})
    with Ledger(loc, clock=FixedClock("2026-05-01T09:01:00.000000Z")) as led:
        session = led.session(LOG)
        (t1, p1), (t2, p2) = _table(led, 0), _table(led, 1)
        key = bound_key(session.state, _kid(sk))
        loads: list[str] = []
        real = led.load
        monkeypatch.setattr(led, "load", lambda log: loads.append(log) or real(log))

        def slip(s: Signer, table: int, winner: int) -> Any:
            return lambda t, now: enter_result(t, s, now, lambda q: led.actor_of(LOG, q),
                                               round_no=1, table=table, outcome=Outcome.WIN,
                                               winner=winner)
        with pytest.raises(WriteAborted):
            session.write(slip(BrowserSigner(key.public_key_raw, key.name, []), t1, p1[0]))
        session.write(slip(HJ, t2, p2[0]))
        assert loads == []                    # caught up, never loaded afresh
        assert led.load(LOG).state == session.state
    assert verify_ledger(loc, LOG, None).ok
