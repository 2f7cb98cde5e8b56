"""Canonical encoding of tourney-leaf/v1 (docs/DESIGN.md §4): restricted schema, re-encode check."""

from __future__ import annotations

import pytest

from ledger.wire.canonical import MAX_SAFE_INT, NonCanonicalError, canonical, decode_canonical


def test_sorted_keys_no_whitespace() -> None:
    assert canonical({"b": 1, "a": [True, None, "é"]}) == '{"a":[true,null,"é"],"b":1}'.encode()


@pytest.mark.parametrize("value", [{"x": 1.5}, {"X": 1}, {"a-b": 1}, {"x": MAX_SAFE_INT + 1},
                                   {"x": -MAX_SAFE_INT - 1}])
def test_values_outside_the_schema_are_refused(value: object) -> None:
    with pytest.raises(NonCanonicalError):
        canonical(value)


@pytest.mark.parametrize("data", [b'{"a":1, "b":2}', b'{"b":2,"a":1}', b'{"a":"\\u0041"}',
                                  b'{"a":1,"a":1}', b'{"a":1.0}', b'{"a":1}\n', b"nope"])
def test_non_canonical_bytes_are_detected(data: bytes) -> None:
    with pytest.raises(NonCanonicalError):
        decode_canonical(data)


def test_control_characters_use_jcs_escapes() -> None:
    assert canonical({"s": "\b\f\n\r\t\x0b"}) == b'{"s":"\\b\\f\\n\\r\\t\\u000b"}'
