"""The HotC outcome options of `tourney result record|correct` map onto the rules'
outcomes (HOTC-TIME-2/3, HOTC-TOP-2, AMB-H14) through the format's declared vocabulary
(issue 17); bad combinations are usage errors (exit 2)."""

from __future__ import annotations

import pytest

from ledger.errors import ExitCode, UsageError
from ledger.formats.hotc.vocabulary import VOCABULARY
from ledger.formats.match.model import Outcome

OUTCOMES = {"win": Outcome.WIN, "concession": Outcome.CONCESSION,
            "timeout": Outcome.TIMEOUT, "double_loss": Outcome.TIMEOUT,
            "slow_play": Outcome.SLOW_PLAY, "tie": Outcome.TIE}


def pick(args: list[str], phase: str = "swiss") -> str:
    return VOCABULARY.entry_for(VOCABULARY.parse(args), phase).key


@pytest.mark.parametrize(("args", "phase", "key"), [
    (["--winner", "3"], "swiss", "win"),
    (["--concession", "3"], "swiss", "concession"),
    (["--timeout"], "swiss", "timeout"),
    (["--timeout", "--turn-player", "3"], "top_cut", "timeout"),
    (["--slow-play", "3"], "top_cut", "slow_play"),
    (["--double-loss"], "swiss", "double_loss"),     # the Swiss timeout double loss
    (["--tie"], "swiss", "tie"),                      # AMB-H14, not a time loss
    (["--winner=3", "--both-slow-play"], "swiss", "win"),
])
def test_each_option_maps_to_one_outcome(args: list[str], phase: str, key: str) -> None:
    assert pick(args, phase) == key
    assert key in OUTCOMES


@pytest.mark.parametrize(("args", "phase"), [
    ([], "swiss"), (["--winner", "3", "--tie"], "swiss"),
    (["--timeout", "--double-loss"], "swiss"), (["--winner", "3", "--turn-player", "4"], "swiss"),
    (["--concession", "3", "--both-slow-play"], "swiss"),
    (["--timeout"], "top_cut"),                       # HOTC-TOP-2: the turn player is needed
    (["--timeout", "--turn-player", "3"], "swiss"),   # HOTC-TIME-2: no turn player in Swiss
    (["--tie"], "top_cut"), (["--double-loss"], "top_cut"),
    (["--games", "2-1", "--winner", "3"], "swiss"),   # a Bushiroad option: not HotC's
    (["--winner", "x"], "swiss"), (["--winner"], "swiss"), (["stray"], "swiss"),
])
def test_bad_combinations_are_usage_errors(args: list[str], phase: str) -> None:
    with pytest.raises(UsageError) as err:
        pick(args, phase)
    assert err.value.exit_code is ExitCode.USAGE
