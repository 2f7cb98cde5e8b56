"""Issue 22 (third pass): every fast path equals the plain form it replaced.

* the canonical schema check (``ledger.wire.canonical``): the pathless pre-check accepts
  exactly what the exact walk accepts, and a refusal names the same path;
* DRAW-v1 (``ledger.core.draw``): the keyed-copy stream gives the numbers of the plain
  ``SHA-256(key + u64be(c))`` stream of docs/DESIGN.md §6;
* the printed standings table (``cli.standings_cmd.table_lines``), column by column,
  equals the row-by-row table on names of every width (CJK, emoji, combining marks, too
  long);
* snapshots of a large event are spaced by its size (``snapshot_interval``).
"""

from __future__ import annotations

import hashlib
import random
from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from cli.standings_cmd import NAME_WIDTH, table_lines
from cli.text import ljust, rjust, width
from ledger.core.draw import draw_v1, stream_below
from ledger.standings_view import Align, Column, Row, Show, StandingsView
from ledger.storage.snapshots import SNAPSHOT_INTERVAL, snapshot_interval
from ledger.wire.canonical import MAX_SAFE_INT, NonCanonicalError, _walk, check_schema

# -- the canonical schema check ------------------------------------------------------------
_leaf = st.one_of(st.none(), st.booleans(), st.text(max_size=3),
                  st.integers(min_value=-(2**54), max_value=2**54),
                  st.sampled_from([MAX_SAFE_INT, -MAX_SAFE_INT, MAX_SAFE_INT + 1]),
                  st.floats(allow_nan=False), st.binary(max_size=2),
                  st.tuples(st.integers()))
_key = st.one_of(st.sampled_from(["a", "seq", "b_1", "z9", "Bad", "x-y", "", "ü"]),
                 st.integers(0, 3))
_value = st.recursive(_leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(_key, inner, max_size=4)), max_leaves=20)


def _verdict(check: Any, value: Any) -> str:
    try:
        check(value)
    except NonCanonicalError as exc:
        return exc.message
    return "ok"


@settings(max_examples=2000, deadline=None)
@given(_value)
def test_schema_check_equals_the_exact_walk(value: Any) -> None:
    assert _verdict(check_schema, value) == _verdict(lambda v: _walk(v, "$"), value)


def test_schema_check_refusals_name_their_path() -> None:
    body = {"tables": [{"players": [1, 2]}, {"players": [3, 2**53]}]}
    assert _verdict(check_schema, body) == "integer out of range at $.tables[1].players[1]"
    assert _verdict(check_schema, {"ok": [{"Bad": 1}]}) == \
        "key 'Bad' at $.ok[0] is not [a-z0-9_]+"


# -- DRAW-v1 -------------------------------------------------------------------------------
def _plain_draw(seed: bytes, ctx: str, items: list[int]) -> list[int]:
    """docs/DESIGN.md §6 read literally: one SHA-256 over key + counter per block."""
    c = ctx.encode("utf-8")
    key = hashlib.sha256(b"tourney-draw/v1\x00" + len(c).to_bytes(4, "big") + c +
                         seed).digest()
    counter = 0

    def below(n: int) -> int:
        nonlocal counter
        limit = 2**64 - (2**64 % n)
        while True:
            block = hashlib.sha256(key + counter.to_bytes(8, "big")).digest()
            counter += 1
            x = int.from_bytes(block[:8], "big")
            if x < limit:
                return x % n

    a = sorted(items)
    for i in range(len(a) - 1, 0, -1):
        j = below(i + 1)
        a[i], a[j] = a[j], a[i]
    return a


@settings(max_examples=300, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.text(max_size=12),
       st.lists(st.integers(0, 10**6), unique=True, max_size=80))
def test_draw_v1_equals_the_plain_stream(seed: bytes, ctx: str, items: list[int]) -> None:
    assert draw_v1(seed, ctx, items) == _plain_draw(seed, ctx, items)


def test_draw_v1_large_and_stream_below() -> None:
    seed = hashlib.sha256(b"issue 22").digest()
    assert draw_v1(seed, "R2/pairing", range(5000)) == \
        _plain_draw(seed, "R2/pairing", list(range(5000)))
    rng = random.Random(22)
    for k in range(200):
        n = rng.randint(1, 2**40)
        c = f"sim/{k}".encode()
        key = hashlib.sha256(b"tourney-draw/v1\x00" + len(c).to_bytes(4, "big") + c +
                             seed).digest()
        first = int.from_bytes(hashlib.sha256(key + bytes(8)).digest()[:8], "big")
        if first < 2**64 - (2**64 % n):     # the first block is taken: the value is known
            assert stream_below(seed, f"sim/{k}", n) == first % n


# -- the printed standings table -------------------------------------------------------------
def _row_by_row(log: str, view: StandingsView) -> list[str]:
    """The table as it was printed before issue 22's third pass (the oracle)."""
    cells = [[c.text(r.values.get(c.key)) for c in view.columns] for r in view.rows]
    widths = []
    for i, c in enumerate(view.columns):
        w = max([width(c.header)] + [width(row[i]) for row in cells])
        widths.append(min(w, NAME_WIDTH) if c.key == "name" else w)

    def line(texts: list[str]) -> str:
        return "  ".join(rjust(t, w) if c.align is Align.RIGHT else ljust(t, w)
                         for c, t, w in zip(view.columns, texts, widths, strict=True)
                         ).rstrip()

    head = f"{log}: {view.heading}" + (f" — {view.as_of}" if view.as_of else "")
    out = [head, line([c.header for c in view.columns])]
    out += [line(row) for row in cells]
    out += [f"#{r.number} {r.name}: {r.revoked.text()}" for r in view.rows if r.revoked]
    out += list(view.notes)
    return out


_names = st.text(alphabet=st.sampled_from(list("abcXYZ 09") + ["漢", "字", "😀", "é",
                                                              "\u0301", "\u200b", "ß"]),
                 max_size=40)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_names, st.integers(0, 10**6), st.integers(1, 400),
                          st.one_of(st.none(), st.integers(-5, 99999))), max_size=12))
def test_table_by_columns_equals_row_by_row(rows: list[tuple[str, int, int, int | None]]
                                            ) -> None:
    columns = (Column("rank", "RANK", Show.NUMBER, Align.RIGHT),
               Column("name", "NAME"), Column("mw", "MW%", Show.PERCENT, Align.RIGHT),
               Column("x", "X", Show.DECIMAL, Align.RIGHT, decimal=lambda f: f"{float(f):.3f}"),
               Column("status", "STATUS"))
    view = StandingsView(
        heading="h", columns=columns, summary={}, csv_columns=(), notes=("n",),
        rows=tuple(Row(number=i, name=name, rank=rank, status="active",
                       values={"rank": rank, "name": name, "mw": Fraction(num, den),
                               "x": Fraction(num, den), "status": "active"}, doc=dict)
                   for i, (name, num, den, rank) in enumerate(rows, 1)))
    assert table_lines("t", view) == _row_by_row("t", view)


# -- snapshots -------------------------------------------------------------------------------
def test_snapshot_interval_grows_with_the_field() -> None:
    assert snapshot_interval(0) == snapshot_interval(3200) == SNAPSHOT_INTERVAL
    assert snapshot_interval(4096) == 128 and snapshot_interval(32768) == 1024
    sizes = [snapshot_interval(n) for n in range(0, 70000, 97)]
    assert sizes == sorted(sizes)
