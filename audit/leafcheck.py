"""The checks of one leaf that need no state (docs/AUDIT.md §2 steps 1-4 and 9a, §6).

Owns: ``leaf_findings`` — bytes, canonical form, the envelope's log, seq and prev (the
hash-chain link to the leaf before, given as its hash), genesis only at seq 1, and the
text rules (every size limit that does not depend on the number of players: leaves up to
``MAX_LEAF_BYTES`` long) — and ``chain_hash``.  One implementation, run where it is
cheapest: by the signature workers ahead of the fold (``audit.prechecks``), or by the fold
itself for a leaf no worker cleared.  A worker only says "no finding"; every finding is
written by the fold calling ``leaf_findings`` again, so its text never depends on where
the check ran.

May import: ``msgspec``, ``ledger.*``, ``audit.findings``.
"""

from __future__ import annotations

import hashlib

import msgspec

from audit.findings import Finding, finding
from ledger.errors import RuleError
from ledger.wire.canonical import NonCanonicalError
from ledger.wire.events import ParsedLeaf, TournamentCreated, parse_leaf
from ledger.wire.text import check_text, check_text_typed, leaf_is_plain, leaf_text_clean


def chain_hash(leaf: bytes) -> str:
    """The hex SHA-256 the next leaf's ``prev`` names (docs/DESIGN.md §4)."""
    return hashlib.sha256(leaf).hexdigest()


def leaf_findings(i: int, version: int, leaf: bytes, log: str | None, prev: str,
                  out: list[Finding]) -> ParsedLeaf | None:
    """Append to ``out`` what is wrong with leaf ``i`` (stored at ``version``) on its own
    and next to the hash ``prev`` of leaf ``i - 1``; the parsed leaf, or ``None`` when it
    cannot be decoded at all."""
    if version != i:
        out.append(finding("seq_gap", i, f"stored version {version} at position {i}: an "
                           "event was deleted or inserted"))
    try:
        parsed = parse_leaf(leaf)
    except NonCanonicalError as exc:
        out.append(finding("malformed", i, exc.message))
        return None
    ev = parsed.event
    if parsed.noncanonical is not None:
        out.append(finding("non_canonical", i, parsed.noncanonical))
    if log is not None and ev.log != log:
        out.append(finding("log_mismatch", i, f"event belongs to log {ev.log!r}, not "
                           f"{log!r}"))
    if ev.seq != i:
        out.append(finding("seq_mismatch", i, f"event says seq {ev.seq} at position {i}"))
    if ev.prev != prev:
        out.append(finding("chain_broken", i, f"prev {ev.prev[:16]}… is not the hash of "
                           f"event {i - 1} ({prev[:16]}…)"))
    if (i == 1) != isinstance(ev.body, TournamentCreated):
        out.append(finding("genesis", i, "seq 1 must be tournament_created, and only seq 1"))
    _text_findings(i, leaf, parsed, out)
    return parsed


def _text_findings(i: int, leaf: bytes, parsed: ParsedLeaf, out: list[Finding]) -> None:
    """Free text (docs/AUDIT.md §2 step 9a), the same rule the command side applies
    before signing; the exact check runs only on leaves the byte prefilter cannot clear.
    The size of a leaf over ``MAX_LEAF_BYTES`` is the fold's (its limit grows with the
    players registered)."""
    if leaf_text_clean(leaf):
        return
    try:
        if leaf_is_plain(leaf):
            check_text_typed(parsed.event.body)
        else:
            check_text(msgspec.json.decode(leaf).get("event", {}).get("body"))
    except RuleError as exc:
        out.append(finding(exc.finding, i, exc.message))
    except Exception as exc:  # noqa: BLE001 - a hostile body must not stop the audit
        out.append(finding("unsafe_text", i, f"text cannot be checked: {exc}"))

