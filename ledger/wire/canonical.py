"""Canonical JSON of the wire format ``tourney-leaf/v1`` (docs/DESIGN.md §4, normative).

Owns: ``canonical(obj)`` (the only encoder of signed bytes), the restricted-schema check
(keys ``[a-z0-9_]+``, integers with |x| <= 2^53-1, no floats) and ``decode_canonical``,
which decodes bytes and proves they are the canonical encoding of what they decode to
(this catches whitespace, key order, escapes and duplicate keys).

May import: ``msgspec``, ``ledger.errors``.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec

from ledger.errors import TourneyError

MAX_SAFE_INT = 2**53 - 1
_KEY = re.compile(r"[a-z0-9_]+\Z")
_encoder = msgspec.json.Encoder(order="sorted")
_decoder = msgspec.json.Decoder()


class NonCanonicalError(TourneyError):
    """Bytes are not the canonical encoding of a value of the restricted schema."""

    code = "non_canonical"


#: keys already matched by ``_KEY`` (a bounded set: an event's keys repeat in every row)
_GOOD_KEYS: set[str] = set()


def _plain_ok(v: Any) -> bool | None:
    """True/False for a leaf value of an exact plain type, None for anything else."""
    t = type(v)
    if t is str or t is bool or v is None:
        return True
    if t is int:
        return bool(-MAX_SAFE_INT <= v <= MAX_SAFE_INT)
    return None


def _within(value: Any) -> bool:
    """Whether ``value`` is plainly inside the schema (exact JSON types only), without
    building a path per element; False sends it to the exact walk, which decides (and
    names the path).  Accepts only what ``check_schema``'s walk accepts."""
    t = type(value)
    if t is dict:
        for key, item in value.items():
            if key not in _GOOD_KEYS:
                if type(key) is not str or not _KEY.match(key):
                    return False
                if len(_GOOD_KEYS) < 4096:
                    _GOOD_KEYS.add(key)
            ok = _plain_ok(item)
            if not (_within(item) if ok is None else ok):
                return False
        return True
    if t is list:
        if value and set(map(type, value)) == {int}:   # numbers only: min and max in C
            return bool(-MAX_SAFE_INT <= min(value) and max(value) <= MAX_SAFE_INT)
        for item in value:
            ok = _plain_ok(item)
            if not (_within(item) if ok is None else ok):
                return False
        return True
    return bool(_plain_ok(value))


def check_schema(value: Any, path: str = "$") -> None:
    """Raise ``NonCanonicalError`` if ``value`` leaves the restricted schema of §4."""
    if _within(value):
        return    # the walk below would find nothing (issue 22: it built a path per element)
    _walk(value, path)


def _walk(value: Any, path: str) -> None:
    """The exact check, naming the path of the first value outside the schema."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return
    if isinstance(value, int):
        if -MAX_SAFE_INT <= value <= MAX_SAFE_INT:
            return
        raise NonCanonicalError(f"integer out of range at {path}")
    if isinstance(value, float):
        raise NonCanonicalError(f"float at {path}: fractions are 'num/den' strings")
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str) or not _KEY.match(key):
                raise NonCanonicalError(f"key {key!r} at {path} is not [a-z0-9_]+")
            _walk(item, f"{path}.{key}")
        return
    if isinstance(value, list):
        for i, item in enumerate(value):
            _walk(item, f"{path}[{i}]")
        return
    raise NonCanonicalError(f"unsupported type {type(value).__name__} at {path}")


def canonical(obj: Any) -> bytes:
    """The canonical bytes of ``obj`` (msgspec, sorted keys); refuses non-schema values."""
    data = _encoder.encode(obj)
    # Structs and other msgspec-encodable values are checked on their JSON form.
    check_schema(_decoder.decode(data))
    return data


def decode_canonical(data: bytes) -> Any:
    """Decode ``data`` and prove it is canonical; raise ``NonCanonicalError`` if not."""
    try:
        value = _decoder.decode(data)
    except (msgspec.DecodeError, UnicodeDecodeError) as exc:
        raise NonCanonicalError(f"not JSON: {exc}") from None
    check_schema(value)
    if _encoder.encode(value) != data:
        raise NonCanonicalError("bytes differ from the canonical re-encoding "
                                "(whitespace, key order, escapes or duplicate keys)")
    return value
