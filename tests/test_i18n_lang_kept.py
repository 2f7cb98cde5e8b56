"""A ``?lang=`` is kept on a card holder's pages too (issue 31 item 3; branch jswords2):
/report, /call, /deck, /drop and /p/N opened with ``?lang=ja`` set the language cookie
(``server.i18n.KeepChoice``), as the public pages always did, so the answer to a form
posted from them comes back in Japanese.  A real server on loopback over a ledger the
real CLI wrote; the phone is an HTTP client that keeps its cookies."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

from server.i18n import choice_cookie
from tests.helpers.cli_runner import snapshot
from tests.helpers.live import running
from tests.helpers.reporting_phones import _phone, _post, reporting_event

PAGES = ("/report", "/call", "/deck", "/drop")


def _kept(r: httpx.Response) -> str | None:
    """The language a response's ``Set-Cookie`` keeps, if it sets one."""
    for line in r.headers.get_list("set-cookie"):
        m = re.match(r"lang=([a-z]+);", line)
        if m:
            return m.group(1)
    return None


def test_the_cookie_names_only_a_language_with_a_catalogue() -> None:
    assert choice_cookie(b"lang=ja") is not None
    assert (choice_cookie(b"q=1&lang=ar") or b"").startswith(b"lang=ar; HttpOnly;")
    for q in (b"", b"lang=", b"lang=xx", b"slang=ja", b"lang=%0d%0aSet-Cookie:x"):
        assert choice_cookie(q) is None, q


@pytest.fixture()
def _same_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.helpers.cli_runner import CLOCK

    monkeypatch.setenv("TOURNEY_FIXED_CLOCK", CLOCK)


@pytest.mark.usefixtures("_same_clock")
def test_a_card_holder_s_pages_keep_lang_through_the_post(tmp_path: Path) -> None:
    cli, doc, tokens = reporting_event(tmp_path)
    t1, t2 = doc["tables"][0], doc["tables"][1]  # type: ignore[index]
    a = t1["players"][0]
    stranger = t2["players"][0]                     # not at a's table: the ledger refuses
    with running(cli.ledger, station_key=tmp_path / "station.pem") as (base, _hub):
        for path in (*PAGES, f"/p/{a}"):
            phone = _phone(base, tokens[a])
            r = phone.get(f"{path}?lang=ja")
            assert r.status_code == 200, (path, r.text[:300])
            assert '<html lang="ja"' in r.text and _kept(r) == "ja", path
            again = phone.get(path)                 # no ?lang=: the cookie speaks
            assert '<html lang="ja"' in again.text, path
            assert phone.get(f"{path}?lang=en").cookies.get("lang") == "en", path
        # the whole round trip: the form in Japanese, the refusal of its post too
        phone = _phone(base, tokens[a])
        assert '<html lang="ja"' in phone.get("/report?lang=ja").text
        before = snapshot(cli.ledger)
        r = _post(phone, base, stranger)
        assert r.status_code in (403, 422), r.status_code
        assert snapshot(cli.ledger) == before
        assert '<html lang="ja"' in r.text and "記録されませんでした" in r.text, r.text[-1500:]
        # the same post from a phone that never chose: English, as before
        english = _post(_phone(base, tokens[a]), base, stranger)
        assert '<html lang="en"' in english.text and "Not recorded" in english.text
