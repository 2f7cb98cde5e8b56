"""Issue 27, item 7: a disqualified player whose standing is revoked (002 PG §2,
BR-PEN-RANK-9(b)-(d)) carries no rank in any standings output.

The defect: ``standings --json`` gave the revoked row the rank it held (5 in the report;
with pass-down it shared rank 3 with the player who moved up).  Now ``rank`` is null in
JSON, empty in CSV, text and HTML, and the other ranks follow the prize policy: with
pass-down consecutive and unique, with void the revoked place left empty.  The event is
built in-process on a real SQLite file; the outputs are real ``tourney`` processes."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest

from ledger.formats.match.officiating_model import PrizePolicy
from ledger.formats.officiating.commands import disqualify
from tests.conftest import HJ
from tests.helpers.cli_runner import Cli
from tests.helpers.officiating import LOG, finish_round, open_round, pair, setup


def _finished_event(tmp_path: Path) -> tuple[Path, object]:
    loc, led = setup(tmp_path, "hotc-swiss-de", players=6)
    while not led.load(LOG).state.fmt.champion:
        st = led.load(LOG).state
        if open_round(st) is not None:
            finish_round(led)
        elif st.fmt.swiss_over and st.fmt.cut is None:
            led.write(LOG, lambda t, now: t.select_cut(HJ, now, material="c", source="x"))
        elif st.fmt.cut is not None:
            led.write(LOG, lambda t, now: t.seed_bracket(HJ, now, material="b", source="x"))
        else:
            pair(led)
    return Path(loc.text), led


@pytest.mark.parametrize("policy", [PrizePolicy.PASS_DOWN, PrizePolicy.VOID])
def test_revoked_standing_has_no_rank_in_json_csv_text_and_html(
        tmp_path: Path, policy: PrizePolicy) -> None:
    db, led = _finished_event(tmp_path)
    cli = Cli(tmp_path, db)
    before = cli("standings", "--json").doc["players"]
    held_by = [p["rank"] for p in before]
    place = next(r for r in held_by if r > 1 and held_by.count(r) == 1)  # the finalist
    dq = next(p["number"] for p in before if p["rank"] == place)
    led.write(LOG, lambda t, now: disqualify(  # type: ignore[attr-defined]
        t, HJ, now, number=dq, section="4.1", reason="found after the event",
        prize_policy=policy))
    rows = cli("standings", "--json").doc["players"]
    revoked = [p for p in rows if "revoked" in p]
    assert [p["number"] for p in revoked] == [dq] and revoked[0]["rank"] is None, revoked
    ranks = [p["rank"] for p in rows if "revoked" not in p]
    held = [p["rank"] for p in before if p["number"] != dq]
    if policy is PrizePolicy.PASS_DOWN:     # every place below the revoked one moves up
        assert ranks == [r - (r > place) for r in held], (ranks, held)
        assert place in ranks
    else:                                   # the revoked place stays empty
        assert ranks == held and place not in ranks, (ranks, held)
    # no rank is shared that was not an exact tie before (the revoked row shares none)
    assert sorted(ranks.count(r) for r in set(ranks)) == \
        sorted(held.count(r) for r in set(held))
    # CSV: the same ranks, the revoked row's rank cell empty
    table = list(csv.DictReader(io.StringIO(cli("standings", "--csv").out)))
    assert [(int(r["number"]), r["rank"]) for r in table] == \
        [(p["number"], "" if p["rank"] is None else str(p["rank"])) for p in rows]
    # text and HTML: the same ranks, a dash for the revoked row
    text = [ln.split() for ln in cli("standings").out.splitlines()[2:2 + len(rows)]]
    assert [(int(c[1]), c[0]) for c in text] == \
        [(p["number"], "—" if p["rank"] is None else str(p["rank"])) for p in rows], text
    html = re.findall(r'<tr(?: class="[^"]*")?><td class="num">([^<]*)</td>'
                      r'<td class="num">(\d+)</td>', cli("standings", "--html").out)
    assert [(int(n), r) for r, n in html] == \
        [(p["number"], "—" if p["rank"] is None else str(p["rank"])) for p in rows], html
