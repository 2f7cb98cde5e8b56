"""The display-text rule (issue 12, defect 9) as properties over random text: the byte
prefilter the audit uses is sound (a leaf it calls plain never holds unsafe text), the
command side and the audit agree, and terminal escaping never lets an unsafe character
through."""

from __future__ import annotations

import unicodedata

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.errors import RuleError
from ledger.wire.events import OfficialRevoked, PlayerRegistered, seal
from ledger.wire.text import (
    MAX_NAME,
    MAX_REASON,
    check_text,
    check_text_typed,
    escape_display,
    leaf_is_plain,
    leaf_text_clean,
    normalize_body,
    unsafe_chars,
)
from tests.conftest import SCOREKEEPER

UNSAFE = "\udcff\x00\x07\x1b\x7f\x85\x9b\u061c\u200e\u200f\u2028\u2029\u202a\u202e\u2066\u2069"
TEXT = st.text(alphabet=st.one_of(st.characters(), st.sampled_from(UNSAFE)), max_size=40)


def _leaf(name: str) -> bytes:
    body = PlayerRegistered(number=1, name=name)
    return seal(log="t", seq=2, prev="0" * 64, time="2026-01-01T00:00:00.000000Z",
                body=body, signer=SCOREKEEPER).leaf


def _refused(fn: object, *args: object) -> bool:
    try:
        fn(*args)  # type: ignore[operator]
    except RuleError as exc:
        assert exc.finding == "unsafe_text"
        return True
    return False


@settings(max_examples=400, deadline=None)
@given(TEXT)
def test_the_byte_prefilter_is_sound(name: str) -> None:
    if any("\ud800" <= c <= "\udfff" for c in name):  # cannot even be encoded: refused
        assert _refused(check_text, {"name": name})
        return
    leaf = _leaf(name)
    exact = _refused(check_text, {"name": name})
    if leaf_is_plain(leaf):
        assert not unsafe_chars(name) and unicodedata.is_normalized("NFC", name)
        assert exact == _refused(check_text_typed, PlayerRegistered(number=1, name=name))
    assert exact == bool(unsafe_chars(name) or not unicodedata.is_normalized("NFC", name)
                         or len(name) > MAX_NAME)


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_escaped_display_holds_no_unsafe_character(text: str) -> None:
    shown = escape_display(text)
    assert not unsafe_chars(shown)
    if not unsafe_chars(text):
        assert shown == text


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cs")), max_size=30))
def test_normalised_safe_names_are_accepted(name: str) -> None:
    body = normalize_body(PlayerRegistered(number=1, name=name))
    assert isinstance(body, PlayerRegistered)
    assert body.name == unicodedata.normalize("NFC", name)
    if not unsafe_chars(name):
        check_text({"name": body.name})


@pytest.mark.parametrize("n, ok", [(MAX_NAME, True), (MAX_NAME + 1, False)])
def test_name_size_limit(n: int, ok: bool) -> None:
    assert _refused(check_text, {"name": "x" * n}) is not ok
    assert _refused(check_text_typed, PlayerRegistered(number=1, name="x" * n)) is not ok


LONG_TEXT = st.text(alphabet=st.one_of(st.characters(), st.sampled_from(UNSAFE + '"\\')),
                    max_size=130) | st.text(alphabet="ab\"\\", min_size=95, max_size=600)


@settings(max_examples=400, deadline=None)
@given(name=LONG_TEXT, deck=st.none() | LONG_TEXT, reason=LONG_TEXT)
def test_a_leaf_the_clean_prefilter_clears_passes_the_exact_rule(
        name: str, deck: str | None, reason: str) -> None:
    """``leaf_text_clean`` (the audit skips the text rule) only ever clears leaves whose
    every string passes ``check_text`` exactly (LEDGER-TEXT-1): names, reasons, escapes."""
    if any("\ud800" <= c <= "\udfff" for c in name + (deck or "") + reason):
        return                                     # cannot be encoded into a leaf at all
    bodies = [PlayerRegistered(number=1, name=name, deck=deck),
              OfficialRevoked(key_id="k" * 16, reason=reason)]
    for body in bodies:
        leaf = seal(log="t", seq=2, prev="0" * 64, time="2026-01-01T00:00:00.000000Z",
                    body=body, signer=SCOREKEEPER).leaf
        if leaf_text_clean(leaf):
            check_text(msgspec.json.decode(leaf)["event"]["body"])   # never refuses


@pytest.mark.parametrize("n", [MAX_NAME, MAX_NAME + 1, MAX_REASON + 1])
def test_the_clean_prefilter_leaves_long_strings_to_the_exact_rule(n: int) -> None:
    for body in (PlayerRegistered(number=1, name="x" * n),
                 OfficialRevoked(key_id="k" * 16, reason="r" * n)):
        leaf = seal(log="t", seq=2, prev="0" * 64, time="2026-01-01T00:00:00.000000Z",
                    body=body, signer=SCOREKEEPER).leaf
        assert leaf_text_clean(leaf) is (n <= MAX_NAME)
