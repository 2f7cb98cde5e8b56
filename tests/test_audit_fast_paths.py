"""The audit's byte-level shortcuts give exactly the answer of the rule they stand for.

``events._long_number`` (is there a JSON number of 16+ digits, so the exact canonical
check must run) against the regular expression it replaces, on random bytes built from
the characters that matter.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.wire.events import _long_number

_REGEX = re.compile(rb"[:,\[]-?[0-9]{16,}")
_BYTES = st.lists(st.sampled_from([b"0", b"7", b"9", b":", b",", b"[", b"-", b"a", b'"',
                                   b"\xc3\xa9", b"\xb2", b" ", b"1" * 8]),
                  max_size=60).map(b"".join)


@settings(max_examples=2000, deadline=None)
@given(_BYTES)
def test_long_number_is_the_regex(data: bytes) -> None:
    assert _long_number(data) is (_REGEX.search(data) is not None)


def test_long_number_edges() -> None:
    assert _long_number(b'{"n":' + b"1" * 16 + b"}")
    assert _long_number(b'[-' + b"9" * 17 + b"]")
    assert not _long_number(b'{"n":' + b"1" * 15 + b"}")
    assert not _long_number(b'{"h":"' + b"1" * 40 + b'"}')      # inside a string


def test_entrants_are_read_from_the_state_not_from_its_head(small_ledger: object) -> None:
    """Regression (a flaky parallel/inline audit difference in tests/test_sigpool.py): the
    field was memoised by (head, size), but on a tampered log one head and size can stand
    for different states, so one audit could be handed another log's field.  The field is
    now read from the state every time."""
    import copy

    from ledger.formats.match.model import Status
    from ledger.formats.match.plan import entrants
    from ledger.storage.location import Location
    from ledger.storage.store import Ledger

    assert isinstance(small_ledger, Location)
    with Ledger(small_ledger, readonly=True) as led:
        state = led.load("t1").state
    before = [e.number for e in entrants(state)]
    other = copy.deepcopy(state)
    other.fmt.records[before[0]].status = Status.DROPPED
    assert (other.head, other.size) == (state.head, state.size)
    assert [e.number for e in entrants(other)] == before[1:]
    assert [e.number for e in entrants(state)] == before
