"""The event's default page language (issue 31 item 3; ADR 0057): ``tourney pages
set --language ja`` is recorded in ``public_pages_set`` (``language`` on the wire only
when it is not English, so every options event recorded before keeps its bytes); a phone
that asks for no language the pages have gets the event's; a language without a
catalogue is refused with nothing written; PAGES-7 holds the code's form in the ledger
(and in the audit, through the same rule)."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from ledger.errors import RuleError
from ledger.wire.canonical import canonical
from ledger.wire.pages import NameStyle, PublicPagesSet
from tests.helpers.cli_runner import raw_bytes, snapshot
from tests.helpers.live import get, running
from tests.helpers.standings_play import HJ, SK, pair, start

NAMES = ["Ann Lee", "Bo Chan", "Cy Diaz", "Di Eng"]


def test_existing_options_events_keep_their_bytes() -> None:
    """An options event without a language encodes exactly as before the field existed
    (the bytes written here are the ones ``public_pages_set`` always had), decodes as
    English, and a Japanese default is one more key."""
    old = b'{"hold_pairings":true,"names":"initial","penalties":false}'
    body = PublicPagesSet(names=NameStyle.INITIAL, penalties=False, hold_pairings=True)
    assert canonical(body) == old
    decoded = msgspec.json.decode(old, type=PublicPagesSet)
    assert decoded.language == "en" and decoded == body
    ja = PublicPagesSet(names=NameStyle.INITIAL, penalties=False, hold_pairings=True,
                        language="ja")
    assert canonical(ja) == \
        b'{"hold_pairings":true,"language":"ja","names":"initial","penalties":false}'


def _refuse(cli: object, db: Path, *args: str, code: int) -> str:
    before = snapshot(db)
    run = cli(*args, code=code)  # type: ignore[operator]
    assert raw_bytes(db) == before, f"tourney {' '.join(args)} wrote"
    return str(run.err.strip())


def test_pages_set_language_and_the_default_it_gives(tmp_path: Path) -> None:
    fmt = "hotc-swiss-de"
    cli, _log = start(tmp_path, fmt, NAMES)
    db = Path(cli.ledger)
    err = _refuse(cli, db, "pages", "set", "--language", "fr", *HJ, code=2)
    assert "no catalogue" in err and "en, ja" in err
    assert "no catalogue" in _refuse(cli, db, "pages", "set", "--language", "JA", *HJ, code=2)
    assert "[RULES-1.3]" in _refuse(cli, db, "pages", "set", "--language", "ja", *SK, code=3)
    assert "[PAGES-1]" in _refuse(cli, db, "pages", "set", "--language", "en", *HJ, code=3)
    out = cli("pages", "set", "--language", "ja", *HJ).out
    assert "pages in ja" in out and "language:     ja" in out
    assert cli("pages", "show", "--json").doc["language"] == "ja"
    cli("pages", "set", "--names", "initial", *HJ)          # other options keep it
    assert cli("pages", "show", "--json").doc["language"] == "ja"
    pair(cli, fmt, 1)
    with running(cli.ledger) as (base, hub):
        # the shared pages are rendered ahead in the event's language, not English
        from server.hub import PRERENDER
        from server.i18n import Language
        assert hub.prerender(hub.pages, list(PRERENDER)) == len(PRERENDER)
        assert all(hub.pages.cached(k, Language.JA) is not None for k in PRERENDER)
        assert all(hub.pages.cached(k) is None for k in PRERENDER)
        plain = get(base + "/pairings")                     # no preference at all
        assert '<html lang="ja" dir="ltr">' in plain.text and "対戦表" in plain.text
        french = get(base + "/p/1", **{"Accept-Language": "fr-FR,de;q=0.5"})
        assert '<html lang="ja"' in french.text
        english = get(base + "/p/1", **{"Accept-Language": "en-GB"})
        assert '<html lang="en"' in english.text                # a match beats the default
        assert '<html lang="en"' in get(base + "/?lang=en").text
        assert '<html lang="en"' in get(base + "/", Cookie="lang=en").text
    cli("pages", "set", "--language", "en", *HJ)
    assert cli("pages", "show", "--json").doc["language"] == "en"
    with running(cli.ledger) as (base, _hub):
        assert '<html lang="en"' in get(base + "/pairings").text
    assert cli("audit", "verify", "--json").doc["ok"] is True


@pytest.mark.parametrize("code", ["", "j", "JA", "ja-JP", "japanese", "日本"])
def test_pages_7_refuses_what_is_not_a_language_code(code: str) -> None:
    """The ledger's rule (shared by the command side, the fold and the audit) holds the
    form of the code; which languages have a catalogue is the software's."""
    from ledger.core.pages_rules import check_pages_set as _pages_set
    from ledger.core.state_model import TournamentState

    state = TournamentState()
    body = PublicPagesSet(names=NameStyle.FULL, penalties=False, hold_pairings=False,
                          language=code)
    with pytest.raises(RuleError) as e:
        _pages_set(state, body, "hj")
    assert e.value.rule == "PAGES-7"
