"""Every event kind has its words on a receipt (issue 31, branch kindwords): a receipt's
heading "In the log: <kind with spaces>" and a player's act "<who>: <kind>." are put in
the page's language through ``server.sentences`` (``sentences.po``, "# kindwords").

Two proofs: every kind of ``ledger.wire.events.Kind`` and of every registered format's
bodies, in every format, reads in Japanese and Arabic with no English word left (a new
kind without words fails here); and a real ``tourney serve`` shows a Japanese player's
own drop receipt with no English but the player's name, the English page unchanged.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ledger.core.format_socket import registered_formats
from ledger.wire.events import Kind
from server.i18n import Language
from server.sentences import Sentences
from tests.helpers.cli_runner import CLOCK
from tests.helpers.desk_event import form_token
from tests.helpers.live import running
from tests.helpers.refusal_scan import ENGLISH
from tests.helpers.reporting_phones import _phone, reporting_event


def _every_kind() -> list[str]:
    """The core kinds, then every registered format's own body kinds."""
    core = [k.value for k in Kind]
    formats = sorted({b.KIND.value for p in registered_formats() for b in p.bodies} - set(core))
    return core + formats


def test_the_enumeration_holds_core_and_format_kinds() -> None:
    kinds = _every_kind()
    assert len(kinds) == len(set(kinds)) > len(Kind)
    assert {"player_renamed", "penalty_issued", "cut_made", "team_registered",
            "tbp_overridden"} <= set(kinds)


@pytest.mark.parametrize("lang", [Language.JA, Language.AR])
def test_every_kind_is_worded_in_every_format(lang: Language) -> None:
    """The heading and a player's act of every kind, in each format's words: translated,
    no English word left (a name stays as typed)."""
    missing = []
    for fmt in sorted(p.id for p in registered_formats()):
        ps = Sentences(fmt, lang)
        for kind in _every_kind():
            words = kind.replace("_", " ")
            for text in (f"In the log: {words}", f"Ana: {words}."):
                out = ps(text)
                if out == text or ENGLISH.search(out.replace("Ana", "")):
                    missing.append((fmt, text, out))
    assert missing == []


def test_an_official_s_kind_reads_as_the_catalogue_says() -> None:
    ja = Sentences("hotc-swiss-de", Language.JA)
    assert ja("In the log: player renamed") == "ログに記録：プレイヤー名の変更"
    assert ja("In the log: penalty issued") == "ログに記録：ペナルティ"
    assert Sentences("hotc-swiss-de", Language.AR)("In the log: player renamed") == \
        Sentences("hotc-swiss-de", Language.AR)("In the log: %(t_what)s").replace(
            "%(t_what)s", "تغيير اسم اللاعب")
    # English is the text itself
    assert Sentences("hotc-swiss-de", Language.EN)("In the log: player renamed") == \
        "In the log: player renamed"


@pytest.fixture(autouse=True)
def _same_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOURNEY_FIXED_CLOCK", CLOCK)


def test_a_japanese_player_s_drop_receipt_has_no_english(tmp_path: Path) -> None:
    """A player whose match has its result drops from their card: the receipt's heading
    and line in Japanese (only the name as typed), the English receipt as before."""
    cli, doc, tokens = reporting_event(tmp_path)
    t = doc["tables"][0]  # type: ignore[index]
    a = t["players"][0]
    cli("result", "record", "--round", "1", "--table", str(t["table"]), "--winner", str(a),
        "--key", "sk.pem")
    with running(cli.ledger, station_key=tmp_path / "station.pem") as (base, _hub):
        ja = _phone(base, tokens[a])
        ja.cookies.set("lang", "ja")
        r = ja.post("/drop", data={"csrf": form_token(ja.get("/drop").text), "confirm": "yes"},
                    headers={"Origin": base})
        assert r.status_code == 303, r.text
        where = r.headers["location"]
        page_ja = ja.get(where).text
        en = _phone(base, tokens[a])
        page_en = en.get(where).text
    head_ja = re.search(r"<h2>([^<]*)</h2>", page_ja)
    head_en = re.search(r"<h2>([^<]*)</h2>", page_en)
    said_ja = re.search(r'<p class="big" role="status"><bdi>([^<]*)</bdi>', page_ja)
    said_en = re.search(r'<p class="big" role="status"><bdi>([^<]*)</bdi>', page_en)
    assert head_ja and head_en and said_ja and said_en
    assert head_en.group(1) == "In the log: player dropped"
    assert head_ja.group(1) == "ログに記録：ドロップ"
    who = said_en.group(1).removesuffix(": player dropped.")
    assert who != said_en.group(1) and who
    assert said_ja.group(1).startswith(who)
    assert not ENGLISH.search(said_ja.group(1).replace(who, ""))
