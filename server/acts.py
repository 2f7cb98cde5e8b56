"""Every act recorded in a player's name, for their page (issue 27 item 1).

A station can always act for a player whose card has no phone key (it signs their
reports and drops alone, and it may bind a key of its own to such a card), so each
player's page lists every event recorded with their card — reports, drops, phone keys
bound — each with its receipt code: a player sees at once an act they did not make.

Owns: ``Act`` (one such event, as the page shows it), ``receipt_code`` (``R<seq>-<16 hex
of the leaf's SHA-256>``, the code a receipt shows), ``act_of`` (a leaf → the player and
the act, or None) and ``gather`` (the acts of the leaves after ``after``, added to a
player → acts map without changing it).  Acts are told by their fields, as receipts are
(``usecases.receipt.receipted``): a body naming a ``credential`` and a player
``number``, other than the credential's own issue and revocation — so no format's kind is
named here.

May import: ``hashlib``, ``json``, ``ledger.wire.events``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass

from ledger.wire.events import Kind

#: kinds whose ``credential`` is their subject, not the card an act was made with
_NOT_ACTS = frozenset({Kind.CREDENTIAL_ISSUED.value, Kind.CREDENTIAL_REVOKED.value})


@dataclass(frozen=True)
class Act:
    seq: int
    kind: str                            # the event's wire kind
    what: str                            # "report", "phone key bound", "player dropped"
    round: int | None
    table: int | None
    given: tuple[tuple[str, str], ...]   # a report's fields, sorted
    phone: bool                          # carries the card's phone signature
    code: str                            # the receipt code


def receipt_code(seq: int, leaf: bytes) -> str:
    """The short code a receipt shows: ``R<seq>-`` and 16 hex digits of the leaf's
    SHA-256 (checkable by anyone with the published log)."""
    return f"R{seq}-{hashlib.sha256(leaf).hexdigest()[:16]}"


def act_of(seq: int, leaf: bytes) -> tuple[int, Act] | None:
    """(player number, act) when leaf ``seq`` is an act made with a player's card."""
    if b'"credential":"' not in leaf:
        return None
    try:
        ev = json.loads(leaf)["event"]
        kind, body = ev["kind"], ev["body"]
    except (ValueError, KeyError, TypeError):
        return None
    number = body.get("number") if isinstance(body, dict) else None
    if kind in _NOT_ACTS or not isinstance(number, int) or isinstance(number, bool):
        return None
    what = {Kind.RESULT_REPORTED.value: "report",
            Kind.DEVICE_KEY_BOUND.value: "phone key bound"}.get(kind, kind.replace("_", " "))
    given = body.get("given") if kind == Kind.RESULT_REPORTED.value else None
    rnd, table = body.get("round"), body.get("table")
    return number, Act(
        seq=seq, kind=kind, what=what, round=rnd if isinstance(rnd, int) else None,
        table=table if isinstance(table, int) else None,
        given=tuple(sorted((str(k), str(v)) for k, v in given.items()))
        if isinstance(given, dict) else (),
        phone="device_sig" in body, code=receipt_code(seq, leaf))


def gather(acts: dict[int, tuple[Act, ...]],
           leaves: Iterable[tuple[int, bytes]]) -> dict[int, tuple[Act, ...]]:
    """``acts`` with the acts among ``leaves`` added (a new map when there are any: a
    map already shown by a page is never changed)."""
    out: dict[int, tuple[Act, ...]] | None = None
    for seq, leaf in leaves:
        found = act_of(seq, leaf)
        if found is None:
            continue
        if out is None:
            out = dict(acts)
        number, act = found
        out[number] = (*out.get(number, ()), act)
    return acts if out is None else out
