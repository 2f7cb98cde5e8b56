"""The receipt document ``tourney-receipt/v1`` (``ledger.wire.receipt``, built by
``usecases.receipt``; docs/LIVE.md "The receipt document"): its schema, its bytes (those
the live server has sent since the first receipt), which events get one, and a saved
receipt read back — on real signed events of a real SQLite ledger."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import msgspec
import pytest

from ledger.errors import UsageError
from ledger.wire.receipt import RECEIPT_V1, Receipt, decode_receipt, encode_receipt
from tests.helpers.reporting import LOG, Event, _paired
from usecases.receipt import receipt_of

SCHEMA = {
    "type": "object",
    "properties": {
        "version": {"enum": ["tourney-receipt/v1"]},
        "tournament": {"type": "string"},
        "seq": {"type": "integer", "minimum": 1},
        "leaf_sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
        "leaf": {"type": "string"},
    },
    "required": ["version", "tournament", "seq", "leaf_sha256", "leaf"],
    "additionalProperties": False,
}


def test_the_schema_is_the_documented_one() -> None:
    found = msgspec.json.schema(Receipt)["$defs"]["Receipt"]
    assert {k: v for k, v in found.items() if k in SCHEMA} == SCHEMA
    assert RECEIPT_V1 == "tourney-receipt/v1"
    doc = (Path(__file__).resolve().parents[1] / "docs" / "LIVE.md").read_text("utf-8")
    for field in SCHEMA["properties"]:
        assert f"`{field}`" in doc, f"docs/LIVE.md does not document {field}"


def test_the_bytes_are_pinned() -> None:
    """Indented by one space, non-ASCII escaped, one final newline (a saved receipt stays
    byte-comparable with one downloaded later)."""
    leaf = '{"event":{"body":{"name":"Zoë"},"kind":"result_reported"},"sig":"AA=="}'.encode()
    digest = hashlib.sha256(leaf).hexdigest()
    assert encode_receipt(Receipt.of("open-2026", 12, leaf)) == (
        '{\n "version": "tourney-receipt/v1",\n "tournament": "open-2026",\n "seq": 12,\n'
        f' "leaf_sha256": "{digest}",\n'
        ' "leaf": "{\\"event\\":{\\"body\\":{\\"name\\":\\"Zo\\u00eb\\"},\\"kind\\":'
        '\\"result_reported\\"},\\"sig\\":\\"AA==\\"}"\n}\n').encode()


def test_a_report_gets_a_receipt_and_a_card_issue_none(tmp_path: Path) -> None:
    ev = Event(tmp_path / "r.db")
    _table, a, _b = _paired(ev)
    rep = ev.report(a, {"winner": str(a)})
    rows = dict(ev.rows())
    got = receipt_of(LOG, rep.seq, rows[rep.seq])
    assert got is not None and got.seq == rep.seq and got.tournament == LOG
    assert got.leaf_sha256 == hashlib.sha256(rows[rep.seq]).hexdigest()
    assert json.loads(got.leaf)["event"]["kind"] == "result_reported"
    # the old route's document, key for key and byte for byte
    old = {"version": "tourney-receipt/v1", "tournament": LOG, "seq": rep.seq,
           "leaf_sha256": hashlib.sha256(rows[rep.seq]).hexdigest(),
           "leaf": rows[rep.seq].decode("utf-8")}
    assert encode_receipt(got) == (json.dumps(old, indent=1) + "\n").encode()
    assert decode_receipt(encode_receipt(got)) == got
    issued = next(s for s, leaf in rows.items() if b'"credential_issued"' in leaf)
    assert receipt_of(LOG, issued, rows[issued]) is None        # no receipt for a card
    assert receipt_of(LOG, rep.seq + 99, None) is None           # no such event


@pytest.mark.parametrize("change", ["version", "missing", "extra", "hash", "seq", "json"])
def test_a_changed_receipt_is_refused(change: str) -> None:
    leaf = b'{"event":{"kind":"result_reported"},"sig":"AA=="}'
    doc = msgspec.to_builtins(Receipt.of("open", 3, leaf))
    if change == "version":
        doc["version"] = "tourney-receipt/v2"
    elif change == "missing":
        del doc["leaf_sha256"]
    elif change == "extra":
        doc["note"] = "mine"
    elif change == "hash":
        doc["leaf"] = doc["leaf"].replace("result_reported", "result_recorded")
    elif change == "seq":
        doc["seq"] = 0
    data = b"{not json" if change == "json" else json.dumps(doc).encode()
    with pytest.raises(UsageError, match="tourney-receipt/v1|SHA-256"):
        decode_receipt(data)
