"""The event's time zone (issue 31 item 1: "dates and times in the locale's form and the
event's time zone"; ADR 0064): ``tourney pages set --time-zone Asia/Tokyo`` is
recorded in ``public_pages_set`` (``time_zone`` on the wire only when it is not UTC, so
every options event recorded before keeps its bytes); PAGES-8 holds the name's form in
the ledger (and the audit, through the same rule), the command refuses a zone the tz
database lacks with nothing written; pages show the log's times in the event's zone in
the page language's form (``server.when.clock_text``), the ``<time datetime>`` staying
the ISO UTC value; English pages of an event in UTC keep their exact text.  A real server
on loopback over a ledger the real CLI writes (fixed clocks)."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import msgspec
import pytest

from ledger.errors import RuleError
from ledger.wire.canonical import canonical
from ledger.wire.pages import NameStyle, PublicPagesSet
from server.when import Form, clock_text, zone_of
from tests.helpers.calls import calls_event
from tests.helpers.cli_runner import raw_bytes, snapshot
from tests.helpers.live import get, running, wait_until

HJ = ("--key", "hj.pem")
ENDS = 'datetime="2026-03-01T09:40:00Z"'


def _at(hms: str) -> dict[str, str]:
    return {"TOURNEY_FIXED_CLOCK": f"2026-03-01T{hms}.000000Z"}


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_existing_options_events_keep_their_bytes() -> None:
    """An options event without a zone encodes exactly as before the field existed (the
    bytes ``public_pages_set`` always had, with and without a language), decodes as UTC;
    a zone is one more key."""
    old = b'{"hold_pairings":false,"language":"ja","names":"full","penalties":true}'
    body = PublicPagesSet(names=NameStyle.FULL, penalties=True, hold_pairings=False,
                          language="ja")
    assert canonical(body) == old
    decoded = msgspec.json.decode(old, type=PublicPagesSet)
    assert decoded.time_zone == "UTC" and decoded == body
    oldest = b'{"hold_pairings":true,"names":"initial","penalties":false}'
    assert msgspec.json.decode(oldest, type=PublicPagesSet).time_zone == "UTC"
    tokyo = PublicPagesSet(names=NameStyle.FULL, penalties=True, hold_pairings=False,
                           time_zone="Asia/Tokyo")
    assert canonical(tokyo) == (b'{"hold_pairings":false,"names":"full","penalties":true,'
                                b'"time_zone":"Asia/Tokyo"}')


@pytest.mark.parametrize("name", ["", "Asia/", "/etc/passwd", "Asia/../../etc",
                                  "Asia Tokyo", "東京", "9/Tokyo", "A" * 65])
def test_pages_8_refuses_what_is_not_a_zone_name(name: str) -> None:
    """The ledger's rule (shared by the command side, the fold and the audit) holds the
    form of the name; which zones exist is the software's tz database."""
    from ledger.core.pages_rules import check_pages_set as _pages_set
    from ledger.core.state_model import TournamentState

    body = PublicPagesSet(names=NameStyle.FULL, penalties=False, hold_pairings=False,
                          time_zone=name)
    with pytest.raises(RuleError) as e:
        _pages_set(TournamentState(), body, "hj")
    assert e.value.rule == "PAGES-8"


@pytest.mark.parametrize("name", ["Asia/Tokyo", "America/Argentina/Buenos_Aires",
                                  "Etc/GMT-9", "America/Port-au-Prince", "EST5EDT"])
def test_pages_8_takes_iana_names(name: str) -> None:
    from ledger.core.pages_rules import check_pages_set as _pages_set
    from ledger.core.state_model import TournamentState

    _pages_set(TournamentState(), PublicPagesSet(
        names=NameStyle.FULL, penalties=False, hold_pairings=False, time_zone=name), "hj")


def test_clock_text_forms() -> None:
    t = "2026-05-02T09:44:10.123456Z"
    # English in UTC: the text pages always showed
    assert [clock_text(t, form=f) for f in Form] == \
        ["09:44 UTC", "09:44:10 UTC", "2026-05-02 09:44 UTC", "09:44"]
    assert clock_text(t, "Asia/Tokyo", "ja") == "18:44 JST"
    assert clock_text(t, "Asia/Tokyo", "ja", Form.DAY_HM) == "2026/05/02 18:44 JST"
    assert clock_text(t, "Asia/Tokyo", "ja", Form.HMS) == "18:44:10 JST"
    assert re.fullmatch(r"6:44\sPM JST", clock_text(t, "Asia/Tokyo", "en"))
    assert clock_text(t, "UTC", "ja") == "9:44 UTC"           # Japanese form, in UTC
    assert clock_text(t, "Europe/Paris", "en", Form.BARE_HM).endswith("AM")
    assert zone_of(t, "Europe/Paris") == "CEST" and zone_of(t) == "UTC"
    # a zone this machine's database lacks (a newer ledger): UTC, never an error
    assert clock_text(t, "Mars/Olympus_Mons") == "09:44 UTC"


def test_pages_set_time_zone_and_the_pages_in_it(tmp_path: Path) -> None:
    cli, doc, tokens, staff = calls_event(tmp_path)
    db = Path(cli.ledger)
    a = doc["tables"][0]["players"][0]  # type: ignore[index]
    table = doc["tables"][0]["table"]  # type: ignore[index]
    cli("round", "start", "--minutes", "40", *HJ, env=_at("09:00:00"))
    with running(cli.ledger) as (base, hub):                  # no zone: UTC, as before
        wait_until(lambda: hub.pages.data.clock is not None, 5)
        assert "ends at 09:40 UTC" in _text(get(base + "/").text)
    for bad, why in (("Mars/Olympus_Mons", "no such time zone"),
                     ("../../etc/passwd", "not a time zone name"),
                     ("Tokyo", "no such time zone")):
        before = snapshot(db)
        run = cli("pages", "set", "--time-zone", bad, *HJ, code=2)
        assert raw_bytes(db) == before, f"--time-zone {bad} wrote"
        err = run.err.strip()
        assert why in err and "Asia/Tokyo" in err, err
    out = cli("pages", "set", "--language", "ja", "--time-zone", "Asia/Tokyo", *HJ).out
    assert "times in Asia/Tokyo" in out and "time zone:    Asia/Tokyo" in out
    assert cli("pages", "show", "--json").doc["time_zone"] == "Asia/Tokyo"
    refused = cli("pages", "set", "--time-zone", "Asia/Tokyo", *HJ, code=3).err
    assert "[PAGES-1]" in refused
    cli("pages", "set", "--names", "initial", *HJ)           # other options keep it
    cli("call", "open", "--table", str(table), "--key", "judge.pem", env=_at("09:10:00"))
    assert cli("pages", "show", "--json").doc["time_zone"] == "Asia/Tokyo"
    from tests.helpers.reporting_phones import _phone

    with running(cli.ledger, station_key=tmp_path / "station.pem",
                 staff_keys=(tmp_path / "judge.pem",)) as (base, hub):
        wait_until(lambda: hub.pages.data.clock is not None, 5)
        home = get(base + "/").text                            # the event's language
        assert '<html lang="ja"' in home and ENDS in home
        assert "18:00 JST" in _text(home) and "18:40 JST" in _text(home)
        assert "UTC" not in _text(home)
        en = _text(get(base + "/?lang=en").text)               # English form, JST
        assert re.search(r"ends at 6:40\sPM JST", en), en
        screen = get(base + "/screen").text
        assert ">18:40</time>" in screen and "40分のラウンド（JST）" in screen
        called = _text(_phone(base, tokens[a]).get("/call").text)
        assert f"あなたの卓（{table}番卓）の終了時刻 18:40 JST" in called
        assert "呼び出し時刻 18:10:00 JST。" in called and "UTC" not in called
        desk = httpx.Client(base_url=base)
        assert desk.get(f"/c/{staff}").status_code == 303
        assert "18:00 JST" in _text(desk.get("/desk").text)
    assert cli("audit", "verify", "--json").doc["ok"] is True


def test_counts_in_the_language_s_form() -> None:
    """Item 3's numbers: the header's player count through Babel's ``format_decimal``
    (the plural still chosen by the count itself); below 1,000 it is as it was."""
    from server.i18n import Language
    from server.pages import environment
    from server.when import number_text

    assert (number_text(4096), number_text(4096, "ja"), number_text(999)) == \
        ("4,096", "4,096", "999")
    src = '{{ ngettext("%(num)s player", "%(num)s players", n, num=n|number) }}'
    en = environment(Language.EN).from_string(src)
    assert en.render(n=4096, lang="en") == "4,096 players"
    assert en.render(n=1, lang="en") == "1 player"
    assert en.render(n=12, lang="en") == "12 players"
    ja = environment(Language.JA).from_string(src).render(n=4096, lang="ja")
    assert "4,096" in ja and "player" not in ja
