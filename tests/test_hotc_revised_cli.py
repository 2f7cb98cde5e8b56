"""HOTC_2013_R2 through the CLI, as ``tourney`` commands: the default revision at
``init``, invitations (HOTC-ENTRY-1), slow-play calls and rulings recorded when they happen
and cited by the result (HOTC-SLOW-1/2), the stop rule re-taken after a drop between rounds
(``round pair`` refused, exit 3, pointing to ``cut``), ``cut --no-champion`` refused when
the cut has players (exit 2), and a clean audit.  Every refusal leaves the ledger's bytes
unchanged."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.cli_runner import Cli, remember_secret, snapshot


def test_r2_event_through_the_cli(tmp_path: Path) -> None:
    cli = Cli(tmp_path, tmp_path / "t.db")
    db = tmp_path / "t.db"
    for name in ("hj", "sk", "judge"):
        cli("keys", "new", "--name", f"{name} person", "--out", f"{name}.pem")
        remember_secret(tmp_path / f"{name}.pem")
    init = cli("init", "--name", "Nationals", "--format", "hotc-swiss-de", "--cut", "2",
               "--param", "invitation_required=true", "--key", "hj.pem", "--json").doc
    genesis = init["event"]["event"]["body"]["format"]["params"]
    # the default revision is R3 (R2 and a loss by penalty cited, issue 17)
    assert genesis == {"match_minutes": 40, "rules": "HOTC_2013_R3",
                       "pair_down_counts": "higher", "bye_priority": "least_wins",
                       "invitation_required": True, "penalty_results": "cited"}
    for role, name in (("scorekeeper", "sk"), ("judge", "judge")):
        cli("official", "add", "--role", role, "--name", name, "--public-key",
            f"{name}.pem.pub", "--key", "hj.pem")

    def refuse(*args: str, code: int = 3) -> str:
        before = snapshot(db)
        run = cli(*args, code=code)
        assert snapshot(db) == before
        return run.err

    err = refuse("player", "add", "Ada", "--key", "sk.pem")
    assert "HOTC-ENTRY-1" in err and "--invitation" in err
    (tmp_path / "p.csv").write_text("number,name,invitation\n1,Ada,NQ-1\n2,Bea,NQ-2\n"
                                    "3,Cy,NQ-3\n4,Dee,NQ-4\n")
    cli("player", "import", "p.csv", "--key", "sk.pem")
    (tmp_path / "bad.csv").write_text("number,name,invitation\n5,Eve,\n")
    assert "line 2" in refuse("player", "import", "bad.csv", "--key", "sk.pem")
    cli("registration", "close", "--key", "hj.pem")

    r1 = cli("round", "pair", "--seed-material", "nq r1", "--seed-source", "test",
             "--key", "hj.pem", "--json").doc
    (p, q), (a, _b) = (t["players"] for t in r1["tables"])
    call = cli("slowplay", "call", "--round", "1", "--table", "1", "--caller", str(q),
               "--called", str(p), "--key", "judge.pem", "--json").doc
    seq = call["call_seq"]
    assert call["kind"] == "slow_play_called"
    refuse("result", "record", "--round", "1", "--table", "1", "--slow-play", str(p),
           "--key", "sk.pem")                          # not ruled yet: no upheld call
    refuse("slowplay", "rule", str(seq), "--upheld", "--key", "sk.pem")   # not a judge
    cli("slowplay", "rule", str(seq), "--upheld", "--key", "judge.pem")
    res = cli("result", "record", "--round", "1", "--table", "1", "--slow-play", str(p),
              "--key", "sk.pem", "--json").doc
    body = res["event"]["event"]["body"]
    assert (body["winner"], body["losers"], body["slow_play_call"]) == (q, [p], seq)
    cli("result", "record", "--round", "1", "--table", "2", "--winner", str(a),
        "--key", "sk.pem")
    # 2 undefeated (q, a) is not fewer than 2; a drops, and the count is taken again
    cli("drop", str(a), "--key", "sk.pem")
    err = refuse("round", "pair", "--seed-material", "nq r2", "--seed-source", "test",
                 "--key", "hj.pem")
    assert "HOTC-STOP-1" in err and "tourney cut" in err
    refuse("cut", "--no-champion", "nobody", "--seed-material", "nq cut", "--seed-source",
           "test", "--key", "hj.pem", code=2)
    cut = cli("cut", "--seed-material", "nq cut", "--seed-source", "test", "--key",
              "hj.pem", "--json").doc
    assert cut["undefeated"] == [q] and cut["spots"] == 1 and len(cut["cut"]) == 2
    assert p not in cut["pool"]                        # slow-play loss: ineligible
    final = cli("bracket", "--seed-material", "nq bracket", "--seed-source", "test",
                "--key", "hj.pem", "--json").doc
    fin = final["round"]
    cli("result", "record", "--round", str(fin["round"]), "--table", "1", "--winner",
        str(fin["tables"][0]["players"][0]), "--key", "sk.pem")
    audit = cli("audit", "verify", "--json").doc
    assert audit["ok"] is True
