"""Issue 27, item 6: a Swiss match lost to a slow-play penalty keeps the player out of
the random top-cut pool (000 §7(2): "have not received any losses due to Slow
Play/Time"; HOTC-CUT-2(c), AMB-H8(c): a match loss produced by a penalty under
BR-PEN-3.19.x).  The loss is recorded as ``outcome: penalty`` citing the penalty; the
``cut`` command and the audit apply the one rule (``hotc.cut.eligible_pool`` with
``slow_play_penalty_losers``).  Real ``tourney`` subprocesses on a real SQLite file."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.cli_runner import Cli
from tests.helpers.cli_runner import remember_secret as _remember_secret


def test_slow_play_penalty_loss_is_not_in_the_random_cut_pool(tmp_path: Path) -> None:
    cli = Cli(tmp_path, tmp_path / "t.db")
    for name in ("hj", "judge"):
        cli("keys", "new", "--name", f"{name} person", "--out", f"{name}.pem")
        _remember_secret(tmp_path / f"{name}.pem")
    cli("init", "--name", "Nationals", "--format", "hotc-swiss-de", "--cut", "2",
        "--key", "hj.pem")
    cli("official", "add", "--role", "judge", "--name", "judge", "--public-key",
        "judge.pem.pub", "--key", "hj.pem")
    for name in ("Ada", "Bea", "Cy", "Dee"):
        cli("player", "add", name, "--key", "hj.pem")
    cli("registration", "close", "--key", "hj.pem")
    r1 = cli("round", "pair", "--seed-material", "pool r1", "--seed-source", "test",
             "--key", "hj.pem", "--json").doc
    (p, q), (a, b) = (t["players"] for t in r1["tables"])
    # p is penalised for severe slow play with a Loss of Match: the match in progress
    # is recorded as p's loss by penalty, citing it
    pen = cli("penalty", "issue", str(p), "--infraction", "3.19.3", "--penalty", "lom",
              "--description", "deliberately slow after two instructions",
              "--key", "judge.pem", "--json").doc
    loss = [e["event"]["body"] for e in cli("log", "--kind", "result_recorded", "--json").doc]
    assert len(loss) == 1 and loss[0]["outcome"] == "penalty" and loss[0]["losers"] == [p]
    assert loss[0]["penalty_seq"] == pen["seq"], loss
    cli("result", "record", "--round", "1", "--table", "2", "--winner", str(a),
        "--key", "hj.pem")
    r2 = cli("round", "pair", "--seed-material", "pool r2", "--seed-source", "test",
             "--key", "hj.pem", "--json").doc
    tables = {frozenset(t["players"]): t["table"] for t in r2["tables"]}
    assert set(tables) == {frozenset((q, a)), frozenset((p, b))}, r2
    cli("result", "record", "--round", "2", "--table", str(tables[frozenset((q, a))]),
        "--winner", str(q), "--key", "hj.pem")
    cli("result", "record", "--round", "2", "--table", str(tables[frozenset((p, b))]),
        "--winner", str(p), "--key", "hj.pem")
    # q is 2-0; a (lost by play) and p (lost to the slow-play penalty) are 1-1
    cut = cli("cut", "--seed-material", "pool cut", "--seed-source", "test",
              "--key", "hj.pem", "--json").doc
    assert "cut_made" in {e["kind"] for e in cut["events"]}, cut
    body = cli("log", "--kind", "cut_made", "--json").doc[0]["event"]["body"]
    assert body["undefeated"] == [q] and body["pool"] == [a], body
    assert p not in body["cut"] and p in body["eliminated"], body
    assert cli("audit", "verify", "--json").doc["ok"]
