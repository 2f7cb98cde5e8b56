"""Issue 22 items 2 and 3: the counts the fold keeps as events arrive equal the plain
recount after every event.

* ``RoundState.results`` (tables with a result; ``round_complete`` reads it instead of
  scanning the round's tables after each result) equals ``sum(t.result is not None)``;
* ``MatchState.unbeaten`` (active players with no loss; HotC's stop count HOTC-STOP-1 at
  every drop check reads it instead of recounting the field) equals
  ``len(undefeated(records))``.

Checked on random small simulated events (Hypothesis: HotC under both rule revisions with
timeouts and drops, Bushiroad DE and Swiss with drops), each signed into a real SQLite
ledger and replayed from its raw rows as the audit folds them; and on every committed
sample.  The officiating scenarios of the rule tests (penalties, disqualifications, Loss of
Match on a bye, undrops, late entries, overrides, voids, amendments), which change records
outside results and drops, are re-run with a check after every state transition by their
own modules (``test_scenarios_keep_the_counts``, ``tests/helpers/fold_counts.py``)."""

from __future__ import annotations

import tempfile
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ledger.formats.registry  # noqa: F401  (every format's kinds)
from ledger.formats.simulation import simulate
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from tests.helpers.fold_counts import replayed

ROOT = Path(__file__).resolve().parents[1]



@st.composite
def events(draw: st.DrawFn) -> dict[str, Any]:
    fmt = draw(st.sampled_from(["hotc-swiss-de", "hotc-swiss-de", "bushiroad-de",
                                "bushiroad-swiss"]))
    params: dict[str, object] = {}
    if fmt == "hotc-swiss-de":
        params["rules"] = draw(st.sampled_from(["HOTC_2013", "HOTC_2013_R2"]))
    hotc = fmt == "hotc-swiss-de"
    # a Bushiroad Swiss of fewer than 9 has no recommended R_total (a round robin is)
    return {"format_id": fmt, "players": draw(st.integers(3, 30) if hotc or fmt == "bushiroad-de"
                                              else st.integers(9, 30)),
            "cut": draw(st.sampled_from([2, 4, 8])) if hotc else None,
            "timeouts": draw(st.sampled_from([Fraction(0), Fraction(1, 5)])) if hotc
            else Fraction(0),
            "drops": draw(st.sampled_from([Fraction(0), Fraction(1, 10), Fraction(1, 4)])),
            "seed_text": "inc/" + draw(st.text("abcdef0123", min_size=1, max_size=5)),
            "params": params}


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events())
def test_random_small_events_keep_the_counts(ev: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        with Ledger(Location(str(Path(tmp) / "p.db")), create=True) as led:
            simulate(led, log="p", checkpoints=None, **ev)
            leaves = [leaf for _v, leaf in led.raw_leaves("p")]
    assert replayed(leaves) == len(leaves)


@pytest.mark.parametrize("log", sorted(str(p.relative_to(ROOT))
                                       for p in ROOT.glob("samples/**/log.jsonl")))
def test_samples_keep_the_counts(log: str) -> None:
    lines = (ROOT / log).read_bytes().splitlines()   # each line is a signed leaf
    assert replayed(lines) == len(lines)
