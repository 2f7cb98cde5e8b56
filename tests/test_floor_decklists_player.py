"""A player hands in their own decklist from their card before the organizer's deadline
(issue 30 item 4, DECK-LIST-1, BR-DECK-1), and the organizer publishes the top K's lists in
one step (``tourney deck publish --top K``).

- Ledger level: the deadline is compared with the submission's own event time (the log's
  clock); no deadline, a passed deadline, a second list (the desk's or the player's) are
  refused with nothing written; forged ones (re-signed with the fixture keys) are flagged
  by the audit (``deck_after_deadline``, ``deck_immutable``).
- Live server over HTTP as a phone with JavaScript off sends it: the player's page links
  ``/deck``; the text area or a chosen file is handed in; only the hash is on the log (the
  text is in the station's store, not in the ledger's bytes); a second list and a list after
  the deadline are refused with a sentence, the ledger's bytes unchanged.
- CLI: ``deck publish --top K`` publishes every list of the final top K, found on the log,
  in the station's store or in ``--dir``; a missing text refuses them all (exit 2, nothing
  written).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import httpx
import pytest

from ledger.errors import RuleError
from ledger.formats.officiating.deck_floor import DeckSubmitted
from ledger.formats.officiating.decklist_rules import list_hash
from ledger.formats.officiating.floor import DeckRegistered
from ledger.formats.officiating.floor_commands import register_deck
from ledger.wire.events import Role
from ledger.wire.keys import Signer
from tests.conftest import HJ, SCOREKEEPER, public
from tests.helpers.calls import calls_event, slow_station_clock
from tests.helpers.cli_runner import Cli, remember_secret
from tests.helpers.live import ledger_bytes, running, wait_until
from tests.helpers.officiating import LOG, _append_forged, _codes, _rows, setup
from tests.helpers.phone_keys import signed_form
from tests.helpers.reporting_phones import _phone
from tests.helpers.staff import _csrf
from usecases.decklists import set_deadline, submit_own_deck

STATION = Signer.from_seed(bytes([7]) * 32, "Station")
LIST1 = "4 Alpha Strike\n4 Beta Guard\n2 Gamma\n"
LIST2 = "3 Delta Wing\n3 Epsilon\n"


def _with_cards(tmp_path: Path) -> tuple[object, object, dict[int, str]]:
    """A bushiroad event of 6 (fixed clock, 1 s a reading) with a station and a card for
    players 1..3: (location, ledger, credential by player)."""
    loc, led = setup(tmp_path, players=6)
    led.write(LOG, lambda t, now: t.add_official(public(STATION), Role.STATION, "St", HJ, now))
    creds: dict[int, str] = {}
    for n in (1, 2, 3):
        ev = led.write(LOG, lambda t, now, n=n: t.issue_credential(
            hashlib.sha256(f"token{n}".encode()).hexdigest(), HJ, now, number=n))
        creds[n] = ev.body.credential
    return loc, led, creds


def test_the_deadline_is_the_log_s_time_and_a_list_registers_once(tmp_path: Path) -> None:
    loc, led, creds = _with_cards(tmp_path)
    before = _rows(loc)
    with pytest.raises(RuleError, match="takes no decklists") as err:   # no deadline yet
        led.write(LOG, lambda t, now: submit_own_deck(t, STATION, now, 1, creds[1], LIST1))
    assert err.value.rule == "DECK-LIST-1" and _rows(loc) == before
    with pytest.raises(RuleError):                 # a scorekeeper sets no deadline
        led.write(LOG, lambda t, now: set_deadline(t, SCOREKEEPER, now, "2013-06-01T10:00Z"))
    dl = led.write(LOG, lambda t, now: set_deadline(t, HJ, now, "2013-06-01T12:00:00+02:00"))
    assert dl.body.at == "2013-06-01T10:00:00.000000Z"          # stored in UTC
    ev = led.write(LOG, lambda t, now: submit_own_deck(t, STATION, now, 1, creds[1], LIST1))
    assert isinstance(ev.body, DeckSubmitted)
    assert (ev.body.number, ev.body.sha256, ev.body.credential) == (1, list_hash(LIST1),
                                                                   creds[1])
    assert LIST1.encode() not in ev.leaf                        # the hash only
    o = led.load(LOG).state.fmt.officiating
    assert (o.decks[1], o.deck_seqs[1]) == (list_hash(LIST1), ev.seq)
    before = _rows(loc)
    for act in (lambda t, now: submit_own_deck(t, STATION, now, 1, creds[1], LIST2),
                lambda t, now: register_deck(t, SCOREKEEPER, now, number=1, text=LIST2)):
        with pytest.raises(RuleError, match="already registered|registered .seq") as err:
            led.write(LOG, act)
        assert err.value.rule == "BR-DECK-1"
    with pytest.raises(RuleError, match="REPORT-15|not player 2"):  # another's card
        led.write(LOG, lambda t, now: submit_own_deck(t, STATION, now, 2, creds[1], LIST2))
    assert _rows(loc) == before
    # the organizer moves the deadline to a time the log has passed: refused after it
    led.write(LOG, lambda t, now: set_deadline(t, HJ, now, "2013-06-01T09:00:00Z"))
    before = _rows(loc)
    with pytest.raises(RuleError, match="deadline .* has passed") as err:
        led.write(LOG, lambda t, now: submit_own_deck(t, STATION, now, 2, creds[2], LIST2))
    assert (err.value.rule, err.value.finding) == ("DECK-LIST-1", "deck_after_deadline")
    assert _rows(loc) == before
    led.close()
    assert not {"deck_after_deadline", "deck_immutable"} & set(_codes(loc))


def test_the_audit_flags_a_late_list_and_a_second_one(tmp_path: Path) -> None:
    loc, led, creds = _with_cards(tmp_path)
    led.write(LOG, lambda t, now: set_deadline(t, HJ, now, "2013-06-01T10:00:00Z"))
    led.write(LOG, lambda t, now: submit_own_deck(t, STATION, now, 1, creds[1], LIST1))
    led.write(LOG, lambda t, now: set_deadline(t, HJ, now, "2013-06-01T09:00:00Z"))
    led.close()
    late = _append_forged(loc, DeckSubmitted(number=2, sha256=list_hash(LIST2),
                                             credential=creds[2]), STATION)
    again = _append_forged(loc, DeckSubmitted(number=1, sha256=list_hash(LIST2),
                                              credential=creds[1]), STATION)
    desk = _append_forged(loc, DeckRegistered(number=1, sha256=list_hash(LIST2)),
                          SCOREKEEPER)
    codes = _codes(loc)
    assert codes.get("deck_after_deadline") == [late]
    assert codes.get("deck_immutable") == [again, desk]


def _multipart(phone: httpx.Client, base: str, text: str = "",
               file: bytes | None = None, csrf: str | None = None) -> httpx.Response:
    """The form as a browser sends it (multipart: the text area and the file input)."""
    files = {"file": ("deck.txt", file or b"", "text/plain")}
    return phone.post("/deck", data={"csrf": csrf or _csrf(phone.get("/deck").text),
                                     "list": text}, files=files, headers={"Origin": base})


def test_a_player_hands_in_their_list_from_their_card_with_javascript_off(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cli, doc, tokens, staff = calls_event(tmp_path)      # a judge with a staff card too
    slow_station_clock(monkeypatch)              # the station's clock: 09:00, 100 s a reading
    from datetime import timedelta

    import ledger.wire.clock as clock
    from tests.helpers.cli_runner import CLOCK
    monkeypatch.setattr(clock, "default_clock",  # and the page's, which offers the form
                        lambda: clock.FixedClock(CLOCK, step=timedelta(seconds=100)))
    cli("deck", "deadline", "--at", "2026-03-01T12:00:00Z", "--key", "hj.pem")
    text_b = "2 Zeta Unique Card\n2 Eta\n".encode()
    with running(cli.ledger, station_key=tmp_path / "station.pem",
                 staff_keys=(tmp_path / "judge.pem",)) as (base, hub):
        stranger = httpx.get(f"{base}/deck")                  # no card on this phone
        assert stranger.status_code == 403 and "Scan the QR code" in stranger.text
        phone = _phone(base, tokens[1])
        wait_until(lambda: "Hand in your decklist" in phone.get("/p/1").text, 10)
        form = phone.get("/deck")
        assert form.status_code == 200 and 'enctype="multipart/form-data"' in form.text, \
            form.text[form.text.find("<main"):][:1500]
        assert "2026-03-01 12:00 UTC" in form.text
        ja = phone.get("/deck?lang=ja").text      # the page speaks the player's language
        assert '<html lang="ja"' in ja and "リストを提出する" in ja and "Hand in my list" not in ja
        assert '<html lang="en"' in phone.get("/deck?lang=en").text   # kept: back to English
        r = _multipart(phone, base, "4 Omega Unique Card\n")
        assert r.status_code == 303, r.text
        done = phone.get(r.headers["location"]).text
        want = list_hash("4 Omega Unique Card\n")
        assert "Your list is registered" in done and want in done
        before = ledger_bytes(cli.ledger)
        again = _multipart(phone, base, "4 Other\n", csrf=_csrf(form.text))
        assert again.status_code == 422 and "does not change" in again.text
        assert ledger_bytes(cli.ledger) == before
        # a judge checking player 1's table sees the list handed in (the station's store)
        table1 = next(t["table"] for t in doc["tables"] if 1 in t["players"])  # type: ignore[attr-defined]
        cli("deck", "start", "--round", "1", "--table", str(table1), "--key", "judge.pem")
        judge = httpx.Client(base_url=base)
        assert judge.get(f"/c/{staff}").status_code == 303
        wait_until(lambda: "4 Omega Unique Card" in judge.get("/staff").text, 10)
        assert "4 Omega Unique Card" not in phone.get("/p/1").text   # never public
        empty = _multipart(_phone(base, tokens[3]), base, "  \n")
        assert empty.status_code == 422 and "the decklist is empty" in empty.text.lower()
        other = _phone(base, tokens[2])                      # a chosen file wins
        r = _multipart(other, base, "", text_b)
        assert r.status_code == 303, r.text
        wait_until(lambda: 2 in hub.follower.state.fmt.officiating.decks, 10)
        assert hub.follower.state.fmt.officiating.decks[2] == hashlib.sha256(text_b).hexdigest()
        wait_until(lambda: "Hand in your decklist" not in other.get("/p/2").text, 10)
        # player 3 opens the form; the organizer closes the window before they send it:
        # refused with a sentence, nothing written
        late = _phone(base, tokens[3])
        late_csrf = _csrf(late.get("/deck").text)
        cli("deck", "deadline", "--at", "2026-03-01T08:00:00Z", "--key", "hj.pem")
        wait_until(lambda: hub.follower.state.fmt.officiating.deck_deadline
                   == "2026-03-01T08:00:00.000000Z", 10)
        assert "has passed" in late.get("/deck").text
        before = ledger_bytes(cli.ledger)
        r = late.post("/deck", data={"csrf": late_csrf, "list": "1 Late\n"},
                      headers={"Origin": base})
        assert r.status_code == 422 and "has passed" in r.text
        assert ledger_bytes(cli.ledger) == before
    raw = Path(cli.ledger).read_bytes()
    assert b"Omega Unique Card" not in raw and b"Zeta Unique Card" not in raw
    store = Path(f"{cli.ledger}.decklists")
    assert (store / f"{want}.txt").read_text() == "4 Omega Unique Card\n"
    # the desk still registers, and respects BR-DECK-1 too
    (tmp_path / "d.txt").write_text("1 Desk\n")
    before = ledger_bytes(cli.ledger)
    out = cli("deck", "register", "2", "--file", "d.txt", "--key", "hj.pem", code=3)
    assert "already registered" in out.err and ledger_bytes(cli.ledger) == before
    cli("deck", "register", "4", "--file", "d.txt", "--key", "hj.pem")
    events = [leaf["event"] for leaf in cli("log", "--json").doc]
    sub = [e["body"] for e in events if e["kind"] == "deck_submitted"]
    assert [b["number"] for b in sub] == [1, 2] and all("list" not in b for b in sub)
    assert sub[0]["sha256"] == want and sub[0]["credential"]
    cli("audit", "verify", str(cli.ledger))


@pytest.fixture
def finished(tmp_path: Path) -> Cli:
    """A bushiroad Swiss of 4, one round played (the final standings), player 1's list
    kept on the log, player 2's by hash only, the others' none."""
    cli = Cli(tmp_path, tmp_path / "t.db")
    for name in ("hj", "sk"):
        cli("keys", "new", "--name", f"{name} person", "--out", f"{name}.pem")
        remember_secret(tmp_path / f"{name}.pem")
    cli("init", "--name", "Top", "--format", "bushiroad-swiss", "--param", "swiss_rounds=1",
        "--key", "hj.pem")
    cli("official", "add", "--role", "scorekeeper", "--name", "sk", "--public-key",
        "sk.pem.pub", "--key", "hj.pem")
    (tmp_path / "players.csv").write_text("number,name\n1,A\n2,B\n3,C\n4,D\n")
    cli("player", "import", "players.csv", "--key", "sk.pem")
    for n in (1, 2, 3, 4):
        (tmp_path / f"{n}.txt").write_text(f"4 Card of player {n}\n")
    cli("deck", "register", "1", "--file", "1.txt", "--key", "sk.pem")
    cli("deck", "register", "2", "--file", "2.txt", "--hash-only", "--key", "sk.pem")
    cli("deck", "register", "3", "--file", "3.txt", "--hash-only", "--key", "sk.pem")
    cli("deck", "register", "4", "--file", "4.txt", "--hash-only", "--key", "sk.pem")
    cli("registration", "close", "--key", "hj.pem")
    r1 = cli("round", "pair", "--seed-material", "R1", "--seed-source", "dice",
             "--key", "hj.pem", "--json").doc
    for t in r1["tables"]:
        cli("result", "record", "--round", "1", "--table", str(t["table"]), "--winner",
            str(t["players"][0]), "--key", "sk.pem")
    return cli


def test_publish_top_k_is_all_or_nothing(finished: Cli, tmp_path: Path) -> None:
    cli = finished
    top = [r["number"] for r in cli("standings", "--json").doc["players"]][:2]
    before = ledger_bytes(cli.ledger)
    bad = cli("deck", "deadline", "--at", "2026-03-01T09:30:00", "--key", "hj.pem", code=2)
    assert "no time zone" in bad.err and ledger_bytes(cli.ledger) == before
    out = cli("deck", "publish", "--top", "2", "--key", "hj.pem", code=2)
    missing = [n for n in top if n != 1]
    assert "nothing published" in out.err and all(f"#{n}" in out.err for n in missing)
    assert ledger_bytes(cli.ledger) == before
    cli("deck", "publish", "7", "--top", "2", "--key", "hj.pem", code=2)   # one or the other
    (tmp_path / "lists").mkdir()
    for n in top:                        # the copies handed in, under any names
        (tmp_path / "lists" / f"copy-{n}.txt").write_text(f"4 Card of player {n}\n")
    (tmp_path / "lists" / "wrong.txt").write_text("4 Not a registered list\n")
    done = cli("deck", "publish", "--top", "2", "--dir", "lists", "--key", "hj.pem",
               "--json").doc
    assert done["numbers"] == top and len(done["events"]) == 2
    events = [leaf["event"] for leaf in cli("log", "--json").doc
              if leaf["event"]["kind"] == "deck_published"]
    assert [e["body"]["number"] for e in events] == top
    assert all(e["body"]["list"] == f"4 Card of player {e['body']['number']}\n"
               for e in events)
    cli("deck", "publish", "--top", "2", "--key", "hj.pem", code=2)   # all published
    cli("audit", "verify", str(cli.ledger))


def test_the_deadline_over_the_desk_api(tmp_path: Path) -> None:
    """``deck/deadline`` is a desk command (the head judge's, not the scorekeeper's); the
    API's ``deck/publish`` takes ``top`` but offers no folder of the terminal's disk."""
    from cli.api_book import TERMINAL_ONLY
    from tests.helpers.api_event import HttpDesk, opening
    from tests.helpers.live import serve_process

    assert ("deck/publish", "folder") in TERMINAL_ONLY
    op = opening(tmp_path / "api", name="Deck Deadline Api")
    with serve_process(op.d, op.cli.env, serve_args=(
            "--station-key", "st.pem", "--staff-key", "hj.pem", "--staff-key", "sk.pem")
            ) as (url, _proc):
        spec = httpx.get(f"{url}/api/v1/openapi.json").json()
        text = str(spec)
        assert "deck/deadline" in text and "'top'" in text and "'folder'" not in text
        desk = HttpDesk(url, op.tokens)
        size = len(op.cli("log", "--json").doc)
        refused = desk.do("sk", "deck/deadline", at="2026-06-01T09:30:00Z")
        assert not refused["ok"] and refused["status"] in (403, 409), refused
        assert len(op.cli("log", "--json").doc) == size
        bad = desk.do("hj", "deck/deadline", at="tomorrow")
        assert not bad["ok"] and "not an ISO 8601 time" in str(bad), bad
        done = desk.do("hj", "deck/deadline", at="2026-06-01T11:30:00+02:00")
        assert done["ok"], done
        assert done["events"][0]["event"]["body"]["at"] == "2026-06-01T09:30:00.000000Z"
    assert op.cli("audit", "verify", "--json").doc["ok"] is True


def test_a_card_with_a_phone_key_hands_in_only_with_that_phone_s_signature(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """REPORT-20 holds for a decklist as for a drop or a judge call: the station alone
    cannot hand in a list in the name of a card whose phone holds a key; the phone's
    signature of the statement the rule names records it, with the list as typed."""
    import base64
    from datetime import timedelta

    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    import ledger.wire.clock as clock
    from ledger.wire.keys import public_raw
    from tests.helpers.cli_runner import CLOCK

    cli, _doc, tokens, _staff = calls_event(tmp_path)
    cli("deck", "deadline", "--at", "2026-03-01T12:00:00Z", "--key", "hj.pem")
    slow_station_clock(monkeypatch)
    monkeypatch.setattr(clock, "default_clock",
                        lambda: clock.FixedClock(CLOCK, step=timedelta(seconds=100)))
    key = Ed25519PrivateKey.from_private_bytes(bytes([9]) * 32)
    pub = base64.b64encode(public_raw(key.public_key())).decode()
    with running(cli.ledger, station_key=tmp_path / "station.pem") as (base, hub):
        phone = _phone(base, tokens[1])
        bound = phone.post("/bind", data={"csrf": _csrf(phone.get("/report").text),
                                          "public_key": pub}, headers={"Origin": base})
        assert bound.status_code == 303
        wait_until(lambda: bool(hub.follower.state.reports.devices), 10)
        before = ledger_bytes(cli.ledger)
        step = _multipart(phone, base, LIST1)
        assert step.status_code == 200 and 'id="sign"' in step.text, step.text
        assert "decklist is signed" in step.text
        assert ledger_bytes(cli.ledger) == before            # nothing without the phone
        form = signed_form(step, key)
        done = phone.post("/deck", data=form, headers={"Origin": base})
        assert done.status_code == 303, done.text
        wait_until(lambda: 1 in hub.follower.state.fmt.officiating.decks, 10)
        assert hub.follower.state.fmt.officiating.decks[1] == list_hash(LIST1)
    sub = [leaf["event"]["body"] for leaf in cli("log", "--json").doc
           if leaf["event"]["kind"] == "deck_submitted"]
    assert sub[0]["device_sig"] == form["device_sig"]
    cli("audit", "verify", str(cli.ledger))
