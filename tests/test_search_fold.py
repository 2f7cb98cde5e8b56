"""Search that fits names (issue 31 item 4): ``server.search.fold`` and ``find`` with kana,
width and accent variants, property tests (folding is idempotent; a name always finds
itself), and the live ``/find`` with Japanese names typed in the other script or width."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from server.search import find, fold
from tests.helpers.live import get, running
from tests.helpers.standings_play import pair, start

JAPANESE = ["カタカナ タロウ", "やまだ はなこ", "ｻﾄｳ ｹﾝｼﾞ", "ガッコウ イチロウ", "Nguyễn Văn An",
            "Ｔａｎａｋａ Ｙｕｋｉ"]


def test_fold_kana_width_and_accents() -> None:
    """Hiragana and katakana alike, full and half width alike, case and accents gone, the
    voicing marks kept (ガ is not カ)."""
    assert fold("ｶﾀｶﾅ") == fold("かたかな") == fold("カタカナ") == "カタカナ"
    assert fold("ｶﾞｯｺｳ") == fold("がっこう") == fold("ガッコウ") == "ガッコウ"
    assert fold("ﾊﾟﾝ") == fold("ぱん") == "パン"
    assert fold("ガ") != fold("カ") and fold("パ") != fold("ハ") != fold("バ")
    assert fold("ＴＡＮＡＫＡ１２") == "tanaka12" and fold("山田\u3000太郎") == "山田 太郎"
    assert fold("Nguyễn") == "nguyen" and fold("Dvořák") == "dvorak" and fold("ŁÓDŹ") == "lodz"
    assert fold("ゝゞ") == "ヽヾ" and fold("Straße") == "strasse"


def test_find_japanese_names_in_either_script_and_width() -> None:
    labels = {i: f"#{i} {n}" for i, n in enumerate(JAPANESE, 1)}
    numbers = lambda q: [n for n, _ in find(labels, q)]  # noqa: E731
    assert numbers("かたかな") == numbers("ｶﾀｶﾅ") == numbers("カタ") == [1]
    assert numbers("タロウ") == numbers("たろう") == [1]          # a later word
    assert numbers("ヤマダ") == numbers("ﾔﾏﾀﾞ") == numbers("はなこ") == [2]
    assert numbers("さとう") == numbers("サトウ ケンジ") == numbers("ｻﾄｳ") == [3]
    assert numbers("がっこう") == [4] and numbers("かっこう") == []   # voicing kept
    assert numbers("nguyen van") == [5] and numbers("tanaka") == numbers("ＴＡＮ") == [6]
    assert numbers("ｙｕｋｉ") == [6] and numbers("＃３") == [3]    # full-width "#3"


_NAMES = st.text(st.characters(blacklist_categories=("Cs",)), max_size=24)
_KANA_NAMES = st.text(st.characters(min_codepoint=0x3041, max_codepoint=0x30FF), min_size=1,
                      max_size=12) | st.text(st.characters(min_codepoint=0xFF61,
                                                           max_codepoint=0xFF9F), min_size=1,
                                             max_size=12)


@settings(max_examples=600, deadline=None)
@given(_NAMES | _KANA_NAMES)
def test_fold_is_idempotent(text: str) -> None:
    assert fold(fold(text)) == fold(text)


@settings(max_examples=400, deadline=None)
@given(st.lists(_NAMES | _KANA_NAMES, min_size=1, max_size=8), st.data())
def test_a_name_always_finds_itself(names: list[str], data: st.DataObject) -> None:
    """Every label is found by itself typed in full (folded or not), by its name without
    the "#n", and by its number."""
    labels = {i: f"#{i} {n}" for i, n in enumerate(names, 1)}
    i = data.draw(st.integers(1, len(names)))
    if not fold(names[i - 1]).strip():
        return                       # a name of spaces only: found by its number alone
    for q in (labels[i], names[i - 1], fold(names[i - 1]), str(i)):
        assert i in [n for n, _ in find(labels, q, limit=len(names))], q


def test_live_find_takes_kana_and_width(tmp_path: Path) -> None:
    """``/find`` on the live server sends a Japanese name typed in the other script or
    width to the player's own page."""
    cli, _log = start(tmp_path, "hotc-swiss-de", JAPANESE)
    pair(cli, "hotc-swiss-de", 1)
    with running(cli.ledger) as (base, _hub):
        for q, n in (("%E3%81%8B%E3%81%9F%E3%81%8B%E3%81%AA", 1),     # かたかな
                     ("%EF%BD%B6%EF%BE%80%EF%BD%B6%EF%BE%85", 1),     # ｶﾀｶﾅ
                     ("%E3%83%A4%E3%83%9E%E3%83%80", 2),               # ヤマダ
                     ("nguyen", 5)):
            r = get(f"{base}/find?q={q}")
            assert r.status_code == 303 and r.headers["location"] == f"/p/{n}", (q, r.text)


def test_runs_of_spaces_read_as_one() -> None:
    """A label with a run of spaces (or a name that starts with one) is found by the name
    as typed, with any spacing, and a name that starts with "#" by itself (both found by
    the property test above: " 0 0", "#")."""
    labels = {1: "#1  0 0", 2: "#2 Ann  Lee", 3: "#3 #", 4: "#4 #9 Kid"}
    for q, n in ((" 0 0", [1]), ("0 0", [1]), ("#1  0 0", [1]), ("ann lee", [2]),
                 ("ANN  LEE", [2]), ("#2 ann lee", [2]), ("#", [3, 4]), ("#9", [4]),
                 ("#9 kid", [4]), ("#4", [4])):
        assert [m for m, _ in find(labels, q)] == n, q
