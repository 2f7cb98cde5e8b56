"""DRAW-v1 known answers (docs/DESIGN.md §6, normative) and its properties."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ledger.core.draw import draw_v1, seed_from_material, select_k

SEED = seed_from_material("example seed")


def test_entered_seed_derivation_known_answer() -> None:
    assert SEED.hex() == "41fc35beb7658e25d9cb70c22e46d92fc9b45f9f7bf76ab7fcf69f3ce013ad30"


def test_known_answer_round_1_pairing() -> None:
    assert draw_v1(SEED, "T2026-001/R1/pairing", range(1, 17)) == [
        11, 7, 12, 3, 6, 2, 15, 1, 10, 16, 4, 14, 8, 9, 5, 13]


def test_known_answer_round_2_pairing() -> None:
    assert draw_v1(SEED, "T2026-001/R2/pairing", range(1, 17)) == [
        6, 5, 2, 3, 13, 11, 4, 10, 1, 12, 16, 15, 7, 8, 9, 14]


def test_known_answer_cut_pre_orders_items() -> None:
    assert draw_v1(SEED, "T2026-001/cut", [5, 3, 9, 1, 7]) == [1, 9, 7, 5, 3]


def test_select_k_is_prefix_of_shuffle() -> None:
    assert select_k(SEED, "T2026-001/cut", [5, 3, 9, 1, 7], 2) == [1, 9]


@given(st.lists(st.integers(0, 10_000), unique=True, max_size=40), st.text(max_size=20))
def test_draw_is_a_permutation_independent_of_input_order(items: list[int], ctx: str) -> None:
    out = draw_v1(SEED, ctx, items)
    assert sorted(out) == sorted(items)
    assert draw_v1(SEED, ctx, list(reversed(items))) == out


def test_ctx_separates_draws() -> None:
    a = draw_v1(SEED, "x/R1/bye", range(1, 30))
    b = draw_v1(SEED, "x/R1/pairing", range(1, 30))
    assert a != b
