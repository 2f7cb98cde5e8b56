"""``tourney serve`` over a whole simulated event of every format (issue 18): ``tourney
simulate`` (top cut and bracket included) served, every page of every round and every
player renders and the bracket shows the champion.  Two rounds of every format:
``tests/test_serve_formats.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.cli_runner import Cli
from tests.helpers.live import get, running
from tests.helpers.standings_play import FORMATS

PAGES = ("/", "/find", "/pairings", "/standings", "/bracket", "/verify")


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_a_simulated_event_of_every_format_renders_every_page(tmp_path: Path,
                                                              fmt: str) -> None:
    """``tourney simulate`` (a whole event, top cut and bracket included) served: every
    page of every round and every player renders, and the bracket shows the champion."""
    cli = Cli(tmp_path, tmp_path / "sim.db")
    cli("simulate", "--players", "12", "--format", fmt, "--seed", f"live {fmt}")
    with running(cli.ledger) as (base, hub):
        data = hub.data
        assert data.rounds and data.standings is not None
        paths = [*PAGES, *(f"/round/{r['round']}" for r in data.rounds),
                 *(f"/p/{n}" for n in data.labels)]
        for path in paths:
            r = get(base + path)
            assert r.status_code == 200, (fmt, path)
            assert "Traceback" not in r.text and data.checkable.text() in r.text
        if data.champion:
            assert f"champion <bdi>{data.champion}</bdi>" in get(base + "/").text.replace(
                "&#34;", '"')
        if data.bracket["rounds"]:
            assert 'class="match"' in get(base + "/bracket").text
