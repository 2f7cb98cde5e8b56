"""The receipt document a player or an official downloads for an event the live server
wrote (``/receipt/N.json``; docs/LIVE.md "Receipts"; ADR 0027): its schema, versioned.

Owns: ``RECEIPT_V1`` (the version tag ``tourney-receipt/v1``), ``Receipt`` (the document:
version, tournament, seq, the leaf's SHA-256 and the leaf itself, as its UTF-8 text), and
its bytes both ways: ``encode_receipt`` (indented JSON, ASCII only, one newline at the end:
the bytes the server has always sent) and ``decode_receipt`` (refuses another version, a
missing or mistyped field, or a hash that is not the leaf's).  Which events get a receipt
and how the document is built is ``usecases.receipt``.

May import: ``msgspec``, ``hashlib``, ``json``, ``ledger.errors``.
"""

from __future__ import annotations

import hashlib
import json
from typing import Annotated, Final, Literal

import msgspec

from ledger.errors import UsageError

RECEIPT_V1: Final = "tourney-receipt/v1"


class Receipt(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """``tourney-receipt/v1``: the promise that event ``seq`` of log ``tournament`` is in
    the log; its inclusion proof follows from the next checkpoint (``/receipt/N/proof.json``).
    Field order is the document's order."""

    version: Literal["tourney-receipt/v1"]      # required: a reader checks it first
    tournament: str                             # the log id (docs/DESIGN.md §4 ``log``)
    seq: Annotated[int, msgspec.Meta(ge=1)]     # the event's seq, 1..n
    leaf_sha256: Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{64}$")]  # of the leaf's bytes
    leaf: str                                   # the signed leaf (canonical JSON), as text

    @classmethod
    def of(cls, tournament: str, seq: int, leaf: bytes) -> Receipt:
        """The receipt of event ``seq`` of ``tournament``, whose stored leaf is ``leaf``."""
        return cls(version=RECEIPT_V1, tournament=tournament, seq=seq,
                   leaf_sha256=hashlib.sha256(leaf).hexdigest(), leaf=leaf.decode("utf-8"))


def encode_receipt(receipt: Receipt) -> bytes:
    """The document's bytes: JSON indented by one space, non-ASCII escaped, a final
    newline (unchanged since the first receipt: a saved receipt stays byte-comparable)."""
    return (json.dumps(msgspec.to_builtins(receipt), indent=1) + "\n").encode("ascii")


def decode_receipt(data: bytes) -> Receipt:
    """A receipt read back (a player's saved file): the schema, and the hash of its leaf."""
    try:
        receipt = msgspec.json.decode(data, type=Receipt)
    except msgspec.ValidationError as exc:
        raise UsageError(f"not a {RECEIPT_V1} document: {exc}",
                         hint="download the receipt again from /receipt/N.json") from None
    except msgspec.DecodeError as exc:
        raise UsageError(f"not a {RECEIPT_V1} document: {exc}",
                         hint="download the receipt again from /receipt/N.json") from None
    if hashlib.sha256(receipt.leaf.encode("utf-8")).hexdigest() != receipt.leaf_sha256:
        raise UsageError(f"the receipt's leaf_sha256 is not the SHA-256 of its leaf "
                         f"(event {receipt.seq})", hint="the file was changed after download")
    return receipt
