"""Canonical JSON of the wire format ``tourney-leaf/v1`` (DESIGN.md §4, normative).

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


def check_schema(value: Any, path: str = "$") -> None:
    """Raise ``NonCanonicalError`` if ``value`` leaves the restricted schema of §4."""
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
            check_schema(item, f"{path}.{key}")
        return
    if isinstance(value, list):
        for i, item in enumerate(value):
            check_schema(item, f"{path}[{i}]")
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
