"""The suite starts the files with the longest single tests first (tests/helpers/long_first.py,
applied by ``tests/conftest.py``): the run's tail under ``--dist worksteal`` is short tests."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.helpers.long_first import LONG, file_of, longest_first

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class _Node:
    nodeid: str


def test_every_listed_file_exists() -> None:
    """A file renamed or split must be listed under its new name, or it starts late again."""
    assert [f for f in LONG if not (ROOT / f).is_file()] == []


def test_listed_files_come_first_longest_first_each_in_its_own_order() -> None:
    long_a, long_b = sorted(LONG, key=lambda f: -LONG[f])[:2]
    items = [_Node("tests/test_a.py::one"), _Node(f"{long_b}::x[1]"), _Node("tests/test_b.py::t"),
             _Node(f"{long_a}::only"), _Node(f"{long_b}::x[2]"), _Node("tests/test_a.py::two")]
    got = [n.nodeid for n in longest_first(items)]
    assert got == [f"{long_a}::only", f"{long_b}::x[1]", f"{long_b}::x[2]",
                   "tests/test_a.py::one", "tests/test_b.py::t", "tests/test_a.py::two"]
    assert sorted(got) == sorted(n.nodeid for n in items)     # nothing lost, nothing added


def test_this_run_is_in_that_order(request: pytest.FixtureRequest) -> None:
    """The collected items of this very run (any subset of the suite): every listed file's
    tests before any other file's, the listed files longest first."""
    files = [file_of(it.nodeid) for it in request.session.items]
    listed = [f for f in files if f in LONG]
    assert files[:len(listed)] == listed
    firsts = list(dict.fromkeys(listed))
    assert firsts == sorted(firsts, key=lambda f: -LONG[f])
