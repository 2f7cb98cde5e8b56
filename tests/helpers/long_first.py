"""The order the suite starts its files in: the longest single tests first (issue 33, the
run's tail; ADR 0069).

Owns: ``LONG`` (the test files whose cost sits in one or a few long tests or in a module
fixture their first test builds, with the seconds measured) and ``longest_first`` (the
collected items with those files moved to the front, longest first; each file's own tests
in their order, every other file where it was).  ``tests/conftest.py`` applies it in
``pytest_collection_modifyitems``.

Why: ``--dist worksteal`` hands each worker a contiguous share of the collected items and,
when one runs dry, moves the *end* of the other's queue to it.  A long test collected late
(a file named ``test_w…``, or one near the end of a share) starts when the other worker is
already stealing its last short tests, and the run ends with one worker idle while the
other finishes it.  Started first, a long test runs while the rest of the suite is still
queued; what is left at the end is short tests, which stealing spreads evenly.  Whole
files move (never single tests), so a module fixture is still built once per worker.
The order does not change what any test checks; with ``-n 0`` it changes nothing but the
order.

May import: the standard library.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

#: file -> seconds of its longest test (with the module fixture its first test builds):
#: ``python bench/suite_profile.py`` (-n 0, load average ~15) at 5239507 and, for the
#: whole-event console files, docs/TESTING.md; only the order matters, longest first.
LONG: dict[str, float] = {
    "tests/test_desk_event_hotc.py": 44.1,
    "tests/test_desk_event_wot.py": 39.6,
    "tests/test_desk_event_bushiroad.py": 38.2,
    "tests/test_readme_tour.py": 32.9,
    "tests/test_crash_safety.py": 28.6,
    "tests/test_hub_burst.py": 27.0,
    "tests/test_fast_paths_equal_plain.py": 24.2,
    "tests/test_desk_event_bushiroad_top8.py": 21.7,
    "tests/test_hotc_revised_properties.py": 20.2,
    "tests/test_desk_browser.py": 15.0,
    "tests/test_station_pg.py": 15.3,
    "tests/test_sigpool.py": 14.2,
    "tests/test_read_outputs.py": 12.7,
    "tests/test_outside_auditor.py": 11.1,
    "tests/test_incremental_counts.py": 10.8,
    "tests/test_audit_fast_paths.py": 10.8,
    "tests/test_concurrency.py": 6.9,
    "tests/test_station_roles_pg.py": 9.4,
}


class _Item(Protocol):
    @property
    def nodeid(self) -> str: ...


def file_of(nodeid: str) -> str:
    """``tests/test_x.py`` for ``tests/test_x.py::test_y[z]``."""
    return nodeid.split("::", 1)[0]


T = TypeVar("T", bound=_Item)


def longest_first(items: Sequence[T]) -> list[T]:
    """``items`` with the files of ``LONG`` first (longest first), each file's tests in
    their collected order, then every other item in its collected order."""
    rank = {f: i for i, f in enumerate(sorted(LONG, key=lambda f: (-LONG[f], f)))}
    front = sorted((it for it in items if file_of(it.nodeid) in rank),
                   key=lambda it: rank[file_of(it.nodeid)])     # stable: in-file order kept
    return front + [it for it in items if file_of(it.nodeid) not in rank]
