"""The counts the fold keeps as events arrive, checked against a plain recount (issue 22
items 2 and 3; ``tests/test_incremental_counts.py``).

Owns: ``recount_ok`` (``RoundState.results`` and ``MatchState.unbeaten`` equal the recount
of the state's tables and records), ``replayed`` (raw signed leaves folded one by one, the
counts checked after each) and ``scenarios_keep_the_counts`` (a test that re-runs a rule
module's scenario tests — those taking only ``tmp_path`` — with the check after every state
transition; each officiating module makes its own, so no test module imports another).

May import: ``ledger.*``, ``pytest``, the standard library.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

import ledger.formats.registry  # noqa: F401  (every format's kinds)
from ledger.core.rules_facet import Rules
from ledger.core.state import TournamentState, apply_event
from ledger.formats.hotc.cut import undefeated
from ledger.formats.match.model import MatchState
from ledger.wire.events import SignedEvent, parse_leaf


def recount_ok(st_: TournamentState) -> None:
    h = st_.fmt
    if not isinstance(h, MatchState):
        return
    assert h.unbeaten == len(undefeated(h.records.values())), st_.size
    for rnd in h.rounds:
        assert rnd.results == sum(t.result is not None for t in rnd.tables), \
            (st_.size, rnd.number)


def replayed(leaves: list[bytes]) -> int:
    st_ = TournamentState()
    for leaf in leaves:
        apply_event(st_, parse_leaf(leaf).event)
        recount_ok(st_)
    return st_.size


def _scenarios(namespace: Mapping[str, Any]) -> list[Callable[[Path], None]]:
    return [fn for name, fn in sorted(namespace.items())
            if name.startswith("test_") and callable(fn)
            and list(inspect.signature(fn).parameters) == ["tmp_path"]
            and not hasattr(fn, "pytestmark")]


def scenarios_keep_the_counts(namespace: Mapping[str, Any]) -> Callable[..., None]:
    """A test over the scenario tests defined so far in ``namespace`` (a rule module's
    ``globals()``, called on its last line): each runs again with ``recount_ok`` after every
    ``Rules.evolve`` (the rules facet's fold step), which must run at least once."""

    @pytest.mark.parametrize("scenario", _scenarios(namespace), ids=lambda f: f.__name__)
    def test_scenarios_keep_the_counts(scenario: Callable[[Path], None], tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
        evolve = Rules.evolve
        seen = [0]

        def checked(self: Rules, state: TournamentState, ev: SignedEvent) -> None:
            evolve(self, state, ev)
            recount_ok(state)
            seen[0] += 1

        monkeypatch.setattr(Rules, "evolve", checked)
        scenario(tmp_path)
        assert seen[0] > 0

    return test_scenarios_keep_the_counts
