"""The desk's other commands through the API's runner (issue 29 item 3), in this
process over a real SQLite ledger: the clock, slow play (a flag with its opposite), a
ruling and an extension, a penalty with its upgrade shown before signing (``preview``)
and issued, an appeal (a repeatable option), a rename, a disqualification, a checkpoint —
each the CLI's own command, each signed by the official who ran it, and the log audits
clean.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cli.api_runner import ApiRunner
from ledger.storage.location import Location
from ledger.wire.keys import Signer, load_signer
from tests.helpers.api_event import Opening, round_tables, small_event


@pytest.fixture
def event(tmp_path: Path) -> Iterator[tuple[Opening, ApiRunner]]:
    op = small_event(tmp_path)
    runner = ApiRunner(Location(str(op.cli.ledger)))
    yield op, runner
    runner.close()


def test_the_floor_s_commands_run_through_the_runner(
        event: tuple[Opening, ApiRunner]) -> None:
    op, runner = event
    keys: dict[str, Signer] = {s: load_signer(op.d / f"{s}.pem") for s in ("hj", "sk",
                                                                           "judge")}
    t1, t2, t3 = round_tables(op.cli, 1)[:3]
    done: dict[str, Any] = {}

    def ok(who: str, path: str, **args: Any) -> Any:
        out = runner.run(path, args, keys[who])
        assert out.ok, (path, args, out.error)
        assert all(e["event"]["actor"] == keys[who].key_id for e in out.events)
        done[path] = out
        return out

    ok("hj", "round/start", minutes=50)
    ok("judge", "round/time")
    call = ok("judge", "slowplay/call", round=1, table=t1["table"],
              caller=t1["players"][0], called=t1["players"][1])
    ok("judge", "slowplay/rule", call_seq=call.seq, upheld=False)
    ruling = ok("judge", "ruling", round=1, table=t2["table"], question="may I?",
                ruling="yes, as the rule says")
    ok("judge", "round/extend", round=1, table=t2["table"], reason="the ruling took time",
       minutes=3)
    # issue 30: a judge call at a table, claimed and closed, and the queue read
    called = ok("judge", "call/open", table=t3["table"], note="rules question")
    queued = ok("judge", "call/list")
    assert queued.events == [] and "rules question" in queued.text
    ok("hj", "call/claim", call=called.seq)
    ok("hj", "call/close", call=called.seq, outcome="answered")
    assert ok("judge", "floor/stats").events == []
    victim = t3["players"][0]
    first = ok("judge", "penalty/issue", number=victim, infraction="3.9.1", penalty="C")
    seen = runner.preview("penalty/issue", {"number": victim, "infraction": "3.9.1",
                                            "penalty": "C"}, keys["judge"])
    assert seen.ok and seen.seq is None and seen.events          # decided, not written
    assert first.events[0]["event"]["kind"] == seen.events[0]["event"]["kind"]
    assert seen.events[0]["event"]["body"]["prior"] == [first.seq]     # the earlier one
    offered = ok("judge", "penalty/offer", number=victim, infraction="3.9.1")
    assert offered.events == [] and offered.text
    assert "upgrade offered" in offered.text                      # before signing
    raised = ok("judge", "appeal/raise", ruling_seq=ruling.seq,
                player=[t2["players"][0]])
    ok("hj", "appeal/decide", challenge_seq=raised.seq, ruling="the ruling stands",
       same=True)
    ok("sk", "player/rename", number=t3["players"][1], name="Renamed Player",
       reason="spelling")
    ok("hj", "disqualify", number=t1["players"][0], infraction="3.8.3",
       reason="severe conduct")
    ok("hj", "checkpoint")
    kinds = [e["event"]["kind"] for out in done.values() for e in out.events]
    assert len(kinds) >= 10, kinds
    report = op.cli("audit", "verify", "--json").doc
    assert report["ok"] is True, report
