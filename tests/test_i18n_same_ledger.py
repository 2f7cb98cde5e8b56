"""Issue 31's proof that the ledger never depends on a language: the ledger of an event
run in Japanese is byte-identical to the same event run in English (same keys, same seeds,
a pinned clock).

One event is opened once by the real CLI (``tests.helpers.desk_event``: the officials, a
station, round 1 paired, the officials' staff cards, then every player's card) and its
directory — ledger, key files, cards — copied twice, so both runs start from the very
same bytes (the CLI draws keys and card tokens at random; a copy is what the same
draws would give).  Each copy is then served by a real ``tourney serve`` (in this
process, over loopback, holding the officials' keys) and the same acts are done through
the live faces, every request in one language — ``?lang=`` on each client's first page
(kept in the language cookie) and ``Accept-Language`` on every request; never
``pages set --language``, which is itself an event:

* a player calls a judge from ``/call`` (with a note typed on the phone);
* both players of a table report the same result on ``/report`` and a scorekeeper
  accepts it on ``/staff``; the players of another table disagree and the head judge
  records one report on ``/staff``;
* a scorekeeper enters a table's result by table number on the console (``/desk``,
  signed with the key the server holds) and drops a player there, with a reason;
* a player who lost drops themselves from ``/drop``.

Run for Heart of the Cards and for Bushiroad (whose words differ most).  Every write's
time comes from the pinned clock (``TOURNEY_FIXED_CLOCK``: the station's ledger reads a
fixed clock stepping a second a write; each console command opens its own, from the same
start, inside the ledger's time tolerance), so no time differs: the two ledgers'
leaves — each event's canonical bytes and its signature (Ed25519 signs
deterministically) — must be equal byte for byte, and so must the checkpoints taken
after the round.  The Japanese run's answers must really be Japanese (``lang="ja"`` and
the catalogue's Japanese for each page's heading), so the proof cannot pass with both
runs in English, and ``tourney audit verify`` is clean on both ledgers.

It fails when a page writes a translated word: the player's drop reason taken from the
catalogue in the Japanese run made the two logs differ at that event (tried once, by
hand, on branch jabytes; not kept).
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from ledger.core.format_socket import plugin_for
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from server.i18n import Language, translations
from tests.helpers.cli_runner import CLOCK, Cli
from tests.helpers.desk_event import DeskEvent, desk_event, desk_server, form_token
from tests.helpers.live import wait_until
from usecases.reports import own_drop_refusal

#: a page's heading (the catalogue's msgid) each act's page must show in its language
HEADINGS = {"/report": "Report your result", "/drop": "Drop from the event"}


@pytest.fixture(autouse=True)
def _pinned_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server in this process signs on the CLI's fixed clock."""
    monkeypatch.setenv("TOURNEY_FIXED_CLOCK", CLOCK)


def _win(fmt: str) -> int:
    import ledger.formats.registry  # noqa: F401

    vocab = plugin_for(fmt).entry.result_vocabulary()  # type: ignore[union-attr]
    return next(i for i, e in enumerate(vocab.entries) if e.key == "win")


def _opened(tmp: Path, fmt: str) -> DeskEvent:
    ev = desk_event(tmp / "opening", fmt)
    ev.cli("player", "cards", "--url", "http://venue.invalid/", "--out", "cards.html",
           "--csv", "cards.csv", "--key", "hj.pem")
    return ev


def _copy(ev: DeskEvent, to: Path) -> DeskEvent:
    shutil.copytree(ev.dir, to)
    return DeskEvent(Cli(to, to / ev.cli.ledger.name), to, ev.fmt,
                     {n: to / p.name for n, p in ev.keys.items()}, ev.kids, ev.cards,
                     ev.round1)


def _player_tokens(d: Path) -> dict[int, str]:
    import csv

    with open(d / "cards.csv", newline="") as f:
        return {int(r["number"]): r["url"].rsplit("/c/", 1)[1] for r in csv.DictReader(f)}


@dataclass
class Run:
    """One run's server, its language and every page it answered (url, status, text)."""
    base: str
    lang: str
    pages: list[tuple[str, int, str]] = field(default_factory=list)

    @contextmanager
    def client(self, token: str) -> Iterator[httpx.Client]:
        c = httpx.Client(base_url=self.base, timeout=60,
                         headers={"Accept-Language": self.lang})
        try:
            assert c.get(f"/c/{token}?lang={self.lang}").status_code == 303
            assert c.cookies.get("lang") == self.lang     # the choice kept
            yield c
        finally:
            c.close()

    def get(self, c: httpx.Client, url: str) -> str:
        r = c.get(url)
        assert r.status_code == 200, (url, r.status_code, r.text[-400:])
        self.pages.append((url, r.status_code, r.text))
        return r.text

    def post(self, c: httpx.Client, url: str, form: str, data: dict[str, str],
             expect: int = 303) -> httpx.Response:
        page = self.get(c, form)
        r = c.post(url, data={"csrf": form_token(page), **data},
                   headers={"Origin": self.base})
        assert r.status_code == expect, (url, r.status_code, r.text[-600:])
        if r.status_code == 200:
            self.pages.append((url, r.status_code, r.text))
        return r


def _seq(r: httpx.Response) -> int:
    return int(r.headers["location"].rsplit("/", 1)[1])


def _act(ev: DeskEvent, lang: str) -> list[tuple[str, int, str]]:
    """The same acts, every page in ``lang``: the pages answered."""
    tables = [(t["table"], t["players"]) for t in ev.round1["tables"]]
    (t1, (a1, b1)), (t2, (a2, b2)), (t3, (a3, _b3)), (t4, (a4, b4)) = tables[:4]
    cards = _player_tokens(ev.dir)
    win = str(_win(ev.fmt))
    with desk_server(ev) as (base, hub):
        run = Run(base, lang)

        def report(n: int, winner: int) -> int:
            with run.client(cards[n]) as p:
                return _seq(run.post(p, "/report", "/report",
                                     {"choice": win, f"c{win}.winner": str(winner)}))

        # a judge call from a table still playing, with the player's own note
        with run.client(cards[a4]) as p:
            run.post(p, "/call", "/call", {"note": "ruling on a card"})
        # table 1: both report the same; the scorekeeper accepts on the staff page
        report(a1, a1)
        report(b1, a1)
        # table 2: the players disagree; the head judge records one report
        report(a2, a2)
        theirs = report(b2, b2)
        with run.client(ev.cards["sk"]) as sk:
            run.post(sk, "/staff/accept", "/staff", {"round": "1", "table": str(t1)})
        with run.client(ev.cards["hj"]) as hj:
            run.post(hj, "/staff/record", "/staff",
                     {"round": "1", "table": str(t2), "report": str(theirs)})
        # the console: a result by table, then a drop with its reason
        with run.client(ev.cards["sk"]) as sk:
            run.post(sk, "/desk/result", f"/desk/result?round=1&table={t3}",
                     {"round": "1", "table": str(t3), "choice": win,
                      f"c{win}.winner": str(a3)}, expect=200)
            run.post(sk, "/desk/result", f"/desk/result?round=1&table={t4}",
                     {"round": "1", "table": str(t4), "choice": win,
                      f"c{win}.winner": str(a4)}, expect=200)
            run.post(sk, "/desk/do/drop", "/desk/do/drop",
                     {"number": str(b4), "reason": "left early"}, expect=200)
        # a player whose match is over drops themselves
        with run.client(cards[b1]) as p:
            wait_until(lambda: own_drop_refusal(hub.follower.state, b1) is None, 15)
            dropped = run.post(p, "/drop", "/drop", {"confirm": "yes"})
            wait_until(lambda: hub.data.checkable.size >= _seq(dropped), 15)
    return run.pages


def _stored(db: Path) -> tuple[list[tuple[int, bytes]], list[Any]]:
    with Ledger(Location(str(db)), readonly=True) as led:
        (log,) = led.tournament_ids()
        return list(led.raw_leaves(log)), led.checkpoints.notes(log)


def _msg(lang: str, msgid: str) -> str:
    return translations(Language(lang)).gettext(msgid)


@pytest.mark.parametrize("fmt", ["hotc-swiss-de", "bushiroad-swiss"])
def test_an_event_run_in_japanese_has_the_english_ledger(tmp_path: Path, fmt: str) -> None:
    opening = _opened(tmp_path, fmt)
    runs = {lang: _copy(opening, tmp_path / lang) for lang in ("en", "ja")}
    pages = {lang: _act(ev, lang) for lang, ev in runs.items()}

    for lang, answered in pages.items():
        assert len(answered) >= 12
        for url, _code, text in answered:
            assert f'<html lang="{lang}"' in text, (lang, url)
        for path, msgid in HEADINGS.items():
            words = _msg(lang, msgid)
            assert (lang == "en") == (words == msgid), (lang, msgid)
            shown = [t for u, _c, t in answered if u == path]
            assert shown and all(words in t for t in shown), (lang, path, words)

    en, ja = (_stored(runs[lang].cli.ledger) for lang in ("en", "ja"))
    kinds = [re.search(rb'"kind":"(\w+)"', leaf).group(1).decode()  # type: ignore[union-attr]
             for _s, leaf in en[0]]
    for kind in ("call_opened", "result_reported", "result_recorded", "player_dropped"):
        assert kind in kinds, (kind, kinds)
    assert kinds.count("player_dropped") == 2
    assert en[0] == ja[0]          # every event's bytes and signature
    assert en[1] == ja[1]          # and the checkpoints after them
    for ev in runs.values():
        ev.cli("audit", "verify", str(ev.cli.ledger))
