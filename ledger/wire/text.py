"""Free text in events: what may be signed, and how big an event may be (docs/AUDIT.md §2).

Owns: the one definition of safe display text (no C0/C1 controls, DEL, NUL, line or
paragraph separators, bidi overrides/isolates/marks, lone surrogates, invisible
characters — zero-width space, word joiner, BOM, soft hyphen, Hangul fillers, tags — nor
a zero-width (non-)joiner outside a non-Latin word; NFC), the size
limits of a name, a reason and a whole leaf, ``normalize_body`` (NFC of every string of a
body, applied by the command side before it signs; ``checked_text`` both, with the byte
prefilter first) and ``check_text`` (the rule itself, run
by the command side before signing and by the audit on every event, finding
``unsafe_text``), plus the byte prefilters the audit uses to skip the exact check on
plainly safe leaves (``leaf_text_clean``: nothing to check; ``leaf_is_plain``: only the
length limits), and ``whole_number`` (a number typed in an imported file: ASCII digits).

Display code escapes what it prints anyway (``escape_display``): a foreign log may hold
anything, and the audit reports it.

May import: ``msgspec``, ``unicodedata``, ``ledger.errors``, ``ledger.wire.events``.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

import msgspec

from ledger.errors import RuleError
from ledger.wire.events import Body

RULE = "LEDGER-TEXT-1"
MAX_NAME = 100          # characters: tournament, official, player names, nickname, deck, clan
MAX_REASON = 500        # characters: reasons, sources, justifications, evidence, serials
MAX_LEAF_BYTES = 65536  # bytes of one whole signed leaf (envelope, body and signature) …
PER_PLAYER_BYTES = 1024  # … plus this much per registered player: a pairing or a published
#                          report lists every player (4,096 players: about 200 KB / 2.8 MB)

NAME_FIELDS = frozenset({"name", "nickname", "deck", "clan"})
REASON_FIELDS = frozenset({"reason", "source", "justification", "evidence", "serial",
                           "source_time", "method"})
#: foreign or signed bytes kept verbatim (a checkpoint note, a randomizer's output, a deck
#: list): never re-typed, only ever shown escaped, so they keep their line breaks
VERBATIM_FIELDS = frozenset({"checkpoint", "attestation", "material", "list"})

_BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_LINE = "\u2028\u2029"
_SURROGATE = "\ud800-\udfff"  # never valid text; argv of undecodable bytes carries them
#: characters that render as nothing, so "Ann" and "Ann\u200b" look alike (issue 21 item
#: 22, ADR 0018): the invisible format characters (soft hyphen, Mongolian vowel separator,
#: zero-width space, word joiner and invisible operators, deprecated format controls, BOM /
#: zero-width no-break space, interlinear annotation, tags), the combining grapheme joiner
#: and the Hangul fillers.  Visible format characters (Arabic number signs …) stay.
_INVISIBLE = ("\u00ad\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b\u2060-\u2064"
              "\u206a-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb\U000e0001\U000e0020-\U000e007f")
#: ZWNJ / ZWJ shape Persian, Indic scripts and emoji sequences, so they pass inside a word
#: of those: between two characters that are neither Latin (U+0000-U+024F), space, nor
#: another joiner.  Elsewhere (alone, at an end, in Latin text) they only hide.
_J = "\u200c\u200d"
_WORD = f"[^\\x00-\\u024f\\s{_J}{_INVISIBLE}{_BIDI}{_LINE}{_SURROGATE}]"
_BAD_JOINER = f"(?<!{_WORD})[{_J}]|[{_J}](?!{_WORD})"
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f" + _BIDI + _LINE + _SURROGATE + _INVISIBLE + "]|"
                     + _BAD_JOINER)

#: On canonical leaf bytes every unsafe character shows up as one of these: a JSON escape
#: (msgspec escapes C0 controls as \\n, \\t, \\uXXXX …), the UTF-8 of a C1 control, of a
#: bidi control or of a line/paragraph separator, or DEL.  A leaf without any of them and
#: without non-ASCII bytes (NFC) needs no exact check beyond the size limits.
_SUSPECT = re.compile(rb"\\[ubfnrt]|\x7f|\xc2[\x80-\x9f]|\xd8\x9c|\xe2\x80[\x8e\x8f\xa8\xa9"
                      rb"\xaa-\xae]|\xe2\x81[\xa6-\xa9]")


def unsafe_chars(text: str) -> list[str]:
    """The unsafe characters of ``text`` as ``U+XXXX`` (empty when safe)."""
    return [f"U+{ord(c):04X}" for c in _UNSAFE.findall(text)]


def escape_display(text: str) -> str:
    """``text`` with every unsafe character shown as a visible ``\\uXXXX`` escape."""
    if text.isascii() and text.isprintable():   # printable ASCII: nothing to escape
        return text
    return _UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _normalize(value: Any) -> Any:
    if isinstance(value, str):
        return unicodedata.normalize("NFC", value)
    if isinstance(value, dict):
        return {k: _normalize(v) for k, v in value.items()}
    if isinstance(value, list):
        return [v if type(v) is int else _normalize(v) for v in value]
    return value


def normalize_body(body: Body) -> Body:
    """``body`` with every string in NFC (the same object when nothing changes)."""
    raw = msgspec.to_builtins(body)
    norm = _normalize(raw)
    if norm == raw:
        return body
    return msgspec.convert(norm, type(body))


def checked_text(body: Body) -> Body:
    """``body`` in NFC, refused if it breaks the text rule: what the command side signs.
    A body whose JSON ``leaf_text_clean`` — ASCII (so already NFC), no escape (so no
    control character), no string longer than ``MAX_NAME`` — passes as it is, without the
    walk over every value (a 4,096-player pairing is 30,000 values; issue 22 item 4);
    anything else gets ``normalize_body`` and the exact ``check_text``."""
    try:
        clean = leaf_text_clean(msgspec.json.encode(body))
    except UnicodeEncodeError:       # a lone surrogate (undecodable argv bytes): refused below
        clean = False
    if clean:
        return body
    body = normalize_body(body)
    check_text(msgspec.to_builtins(body))
    return body


def check_text(value: Any, path: str = "body") -> None:
    """Refuse unsafe or oversized text anywhere in a decoded body (``RuleError``,
    finding ``unsafe_text``)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, str):
                _check_string(item, f"{path}.{key}", key)
            elif isinstance(item, (dict, list)):   # numbers, booleans, null: no text
                check_text(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            if isinstance(item, str):
                _check_string(item, f"{path}[{i}]", "")
            elif isinstance(item, (dict, list)):
                check_text(item, f"{path}[{i}]")
    elif isinstance(value, str):
        _check_string(value, path, "")


def _check_string(text: str, path: str, key: str) -> None:
    if key in VERBATIM_FIELDS:
        return
    bad = unsafe_chars(text)
    if bad:
        shown = ", ".join(sorted(set(bad))[:5])
        raise RuleError(RULE, f"{path} holds control, bidi or invisible characters ({shown})",
                        hint="type the text without terminal escapes, control characters, "
                             "newlines, direction overrides or zero-width characters",
                        finding="unsafe_text")
    if not text.isascii() and not unicodedata.is_normalized("NFC", text):
        raise RuleError(RULE, f"{path} is not in Unicode NFC",
                        hint="normalise the text to NFC", finding="unsafe_text")
    limit = MAX_NAME if key in NAME_FIELDS else MAX_REASON if key in REASON_FIELDS else None
    if limit is not None and len(text) > limit:
        raise RuleError(RULE, f"{path} is {len(text)} characters, more than {limit}",
                        hint=f"shorten it to at most {limit} characters",
                        finding="unsafe_text")


def whole_number(text: str) -> int | None:
    """``text`` as a whole number when it is ASCII digits only, else None: "٣" and "７"
    are digits to ``str.isdigit`` and ``int`` but no player number (issue 21 item 22)."""
    if not text or not text.isascii() or not text.isdigit():
        return None
    return int(text)


def leaf_limit(players: int) -> int:
    """The largest signed leaf allowed in a tournament of ``players`` registered players."""
    return MAX_LEAF_BYTES + PER_PLAYER_BYTES * players


def check_leaf_size(size: int, players: int = 0) -> None:
    limit = leaf_limit(players)
    if size > limit:
        raise RuleError(RULE, f"the signed event is {size} bytes, more than {limit}",
                        hint="shorten its free text", finding="oversized")


def leaf_is_plain(leaf: bytes) -> bool:
    """True when ``leaf`` (canonical bytes) certainly holds no unsafe or non-NFC text, so
    only the length limits remain to check."""
    if not leaf.isascii():
        return False
    if b"\\" not in leaf and b"\x7f" not in leaf:  # no escape at all: the common case
        return True
    return _SUSPECT.search(leaf) is None


#: A quote followed by more than MAX_NAME bytes without a quote: in a leaf without
#: backslashes, every JSON string is exactly the bytes after its opening quote up to the
#: next quote, so a leaf without such a run holds no string long enough to reach a length
#: limit (MAX_NAME ≤ MAX_REASON).  Anchored at the quote, so the search is linear.
_LONG_RUN = re.compile(b'"[^"]{%d,}' % (MAX_NAME + 1))


def leaf_text_clean(leaf: bytes) -> bool:
    """True when ``leaf`` (canonical bytes) certainly passes the whole text rule, so the
    audit need not decode anything for it: ASCII (NFC), no backslash (no JSON escape, so
    no control character and quotes delimit every string), no DEL, and no string longer
    than ``MAX_NAME`` characters.  False means "check exactly", never "unsafe"."""
    return (leaf.isascii() and b"\\" not in leaf and b"\x7f" not in leaf
            and _LONG_RUN.search(leaf) is None)


_PLANS: dict[type, tuple[tuple[tuple[str, int], ...], tuple[str, ...]]] = {}
_SCALARS = (str, int, bool, type(None), type(msgspec.UNSET))


def _plan(cls: type) -> tuple[tuple[tuple[str, int], ...], tuple[str, ...]]:
    plan = _PLANS.get(cls)
    if plan is None:
        fields: tuple[str, ...] = cls.__struct_fields__  # type: ignore[attr-defined]
        limited = tuple((f, MAX_NAME if f in NAME_FIELDS else MAX_REASON) for f in fields
                        if f in NAME_FIELDS or f in REASON_FIELDS)
        plan = _PLANS[cls] = (limited, fields)
    return plan


def check_text_typed(body: Body) -> None:
    """``check_text`` for a body whose leaf ``leaf_is_plain``: only the length limits can
    fail, so flat string fields are checked in place and nested values via builtins."""
    limited, fields = _plan(type(body))
    for field, limit in limited:
        value = getattr(body, field)
        if type(value) is str and len(value) > limit:
            _check_string(value, f"body.{field}", field)
    for field in fields:
        value = getattr(body, field)
        if type(value) in _SCALARS:
            continue
        if type(value) is list and all(type(v) is int for v in value):
            continue
        check_text(msgspec.to_builtins(value), f"body.{field}")
