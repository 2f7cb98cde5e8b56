"""The outcome options of `tourney result record|correct` map onto the rules' outcomes
(HOTC-TIME-2/3, HOTC-TOP-2, AMB-H14); bad combinations are usage errors (exit 2)."""

from __future__ import annotations

import pytest

from cli.result_options import choose
from ledger.errors import ExitCode, UsageError
from ledger.formats.match.model import Outcome


def pick(**kw: object) -> object:
    args = {"winner": None, "concession": None, "timeout": False, "slow_play": None,
            "double_loss": False, "turn_player": None, "both_slow_play": False, "tie": False}
    args.update(kw)
    return choose(**args)  # type: ignore[arg-type]


@pytest.mark.parametrize(("kw", "outcome"), [
    ({"winner": 3}, Outcome.WIN),
    ({"concession": 3}, Outcome.CONCESSION),
    ({"timeout": True}, Outcome.TIMEOUT),
    ({"timeout": True, "turn_player": 3}, Outcome.TIMEOUT),
    ({"slow_play": 3}, Outcome.SLOW_PLAY),
    ({"double_loss": True}, Outcome.TIMEOUT),      # the Swiss timeout double loss
    ({"tie": True}, Outcome.TIE),                  # AMB-H14, not a time loss
    ({"winner": 3, "both_slow_play": True}, Outcome.WIN),
])
def test_each_option_maps_to_one_outcome(kw: dict[str, object], outcome: Outcome) -> None:
    assert pick(**kw).outcome is outcome  # type: ignore[attr-defined]


@pytest.mark.parametrize("kw", [
    {}, {"winner": 3, "tie": True}, {"timeout": True, "double_loss": True},
    {"winner": 3, "turn_player": 4}, {"concession": 3, "both_slow_play": True},
])
def test_bad_combinations_are_usage_errors(kw: dict[str, object]) -> None:
    with pytest.raises(UsageError) as err:
        pick(**kw)
    assert err.value.exit_code is ExitCode.USAGE
