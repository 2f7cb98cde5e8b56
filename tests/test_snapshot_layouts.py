"""The written-down snapshot layouts (ledger/storage/snapshot_layouts.py, issue 22 item 6) are the
layouts: each entry equals the digest computed from the state structs' msgspec schemas,
so a changed state struct cannot keep the old snapshot topic (its snapshots would be
decoded positionally as the new layout)."""

from __future__ import annotations

import pytest

import ledger.formats.registry  # noqa: F401  (every format plugged in)
from ledger.core.format_socket import known_formats
from ledger.storage.snapshot_layouts import LAYOUTS
from ledger.storage.snapshots import layout_digest, snapshot_topic


@pytest.mark.parametrize("format_id", ["", *known_formats()])
def test_each_written_layout_is_the_computed_one(format_id: str) -> None:
    computed = layout_digest(format_id or None)
    assert LAYOUTS.get(format_id) == computed, (
        f"the state layout of {format_id or 'the core'} changed: write "
        f"{format_id!r}: {computed!r} in ledger/storage/snapshot_layouts.py")
    assert snapshot_topic(format_id or None) == \
        f"tourney-snapshot/{format_id or '-'}/{computed}"


def test_every_known_format_is_written_down() -> None:
    assert sorted(LAYOUTS) == ["", *known_formats()]
