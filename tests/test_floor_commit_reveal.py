"""Deck checks drawn by commit-reveal (issue 30 item 3: "or by commit-reveal so nobody
knows the tables before the round starts"; ADR 0053 §1) through the real CLI.

The head judge commits a secret for ``<log>/R1/deck-checks`` (``tourney seed commit``)
before round 1 is paired; the round is paired (public at once: no hold); before the reveal
no draw is possible (the refusal names the unrevealed commitment); a secret that does not
open the commitment is refused with nothing written; the true reveal after the pairing
records the seed, ``deck draw`` draws from it and the audit re-derives the draw (a
tampered order, validly signed, is flagged ``draw_mismatch``).  A commitment revealed
*before* the pairing gives a seed the draw refuses (``deck_draw_seed_early``): the tables
were not unknowable.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

from audit.verify import verify_ledger
from ledger.core.draw import draw_v1, seed_from_material
from ledger.formats.officiating.deck_rules import draw_reason
from ledger.storage.location import Location
from ledger.wire.events import DrawMade, seal
from ledger.wire.keys import load_signer
from tests.helpers.cli_runner import Cli, Run, raw_bytes, remember_secret, snapshot
from tests.helpers.randomness import AFTER_ROUND_1000, BEFORE_ROUND_1000, QUICK
from tests.helpers.tamper import append_raw, codes_at, rows


def _event(d: Path) -> tuple[Cli, str]:
    cli = Cli(d, d / "t.db")
    cli.env["TOURNEY_FIXED_CLOCK"] = "2023-08-23T14:00:00.000000Z"
    for name in ("hj", "sk"):
        cli("keys", "new", "--name", f"{name} person", "--out", f"{name}.pem")
        remember_secret(d / f"{name}.pem")
    log = cli("init", "--name", "Commit Night", "--format", "bushiroad-swiss", "--param",
              "swiss_rounds=3", "--key", "hj.pem", "--json").doc["tournament"]
    cli("official", "add", "--role", "scorekeeper", "--name", "sk", "--public-key",
        "sk.pem.pub", "--key", "hj.pem")
    (d / "players.csv").write_text("number,name\n" + "".join(
        f"{i},P{i}\n" for i in range(1, 9)))
    cli("player", "import", "players.csv", "--key", "sk.pem")
    cli("registration", "close", "--key", "hj.pem")
    return cli, log


def _refused(cli: Cli, *args: str, finding: str) -> Run:
    before = snapshot(cli.ledger)
    run = cli(*args, "--json", code=3)
    assert run.doc["error"]["finding"] == finding, run.doc
    assert len(run.err.strip().splitlines()) == 1, run.err
    assert raw_bytes(cli.ledger) == before, "a refused command wrote something"
    return run


def test_commit_before_pairing_reveal_after_draws_and_audits(tmp_path: Path) -> None:
    cli, log = _event(tmp_path)
    ctx = f"{log}/R1/deck-checks"
    cli.env["TOURNEY_FIXED_CLOCK"] = BEFORE_ROUND_1000
    com = cli("seed", "commit", "--round", "1000", "--reason", "deck checks R1", "--ctx",
              ctx, "--out", "dc.secret", "--key", "hj.pem", "--json").doc
    r1 = cli("round", "pair", "--seed-material", "R1", "--seed-source", "dice", "--key",
             "hj.pem", "--json").doc
    assert all(com["seq"] < e["seq"] for e in r1["events"])
    # committed but not revealed: the only seed under R1 is the pairing's own (before it)
    early = _refused(cli, "deck", "draw", "--round", "1", "--count", "2", "--key",
                     "hj.pem", finding="deck_draw_seed_early")
    assert f"the commitment for {ctx} (seq {com['seq']}) is not revealed yet" in early.err
    assert "tourney seed reveal" in early.err
    cli.env["TOURNEY_FIXED_CLOCK"] = AFTER_ROUND_1000
    secret = json.loads((tmp_path / "dc.secret").read_text())
    (tmp_path / "bad.secret").write_text(json.dumps(dict(secret, secret="00" * 32)))
    _refused(cli, "seed", "reveal", "--secret", "bad.secret", "--signature", QUICK["sig"],
             "--key", "hj.pem", finding="reveal_mismatch")
    rev = cli("seed", "reveal", "--secret", "dc.secret", "--signature", QUICK["sig"],
              "--key", "hj.pem", "--json").doc
    assert rev["event"]["event"]["body"]["commit_seq"] == com["seq"]
    tables = sorted(t["table"] for t in r1["tables"])
    want = draw_v1(seed_from_material(rev["event"]["event"]["body"]["material"]), ctx,
                   tables)
    # a copy of the log where the head judge's key signs the same seed in another order:
    # the audit re-derives the draw and flags it
    forged = tmp_path / "forged.db"
    with sqlite3.connect(cli.ledger) as src, sqlite3.connect(forged) as dst:
        src.backup(dst)
    loc = Location(str(forged))
    last_v, last = rows(loc, log)[-1]
    ev = seal(log=log, seq=last_v + 1, prev=hashlib.sha256(last).hexdigest(),
              time=AFTER_ROUND_1000, signer=load_signer(tmp_path / "hj.pem"),
              body=DrawMade(ctx=ctx, algorithm="DRAW-v1", seed=seed_from_material(
                  rev["event"]["event"]["body"]["material"]).hex(), seed_seq=rev["seq"],
                  items=tables, result=list(reversed(want)), universe="tables",
                  reason=draw_reason(1, 2)))
    append_raw(loc, last_v + 1, ev.kind, ev.leaf, log)
    found = codes_at(verify_ledger(loc, log, None))
    assert ("draw_mismatch", last_v + 1) in found, found
    # the honest draw on the real log
    drawn = cli("deck", "draw", "--round", "1", "--count", "2", "--key", "hj.pem",
                "--json").doc
    body = drawn["event"]["event"]["body"]
    assert (body["seed_seq"], body["ctx"], body["items"], body["result"]) == (
        rev["seq"], ctx, tables, want)
    assert drawn["tables"] == want[:2]
    rep = cli("audit", "verify", "--json").doc
    assert rep["ok"] is True, rep


def test_a_reveal_before_the_pairing_cannot_draw_deck_checks(tmp_path: Path) -> None:
    cli, log = _event(tmp_path)
    ctx = f"{log}/R1/deck-checks"
    cli.env["TOURNEY_FIXED_CLOCK"] = BEFORE_ROUND_1000
    cli("seed", "commit", "--round", "1000", "--reason", "deck checks R1", "--ctx", ctx,
        "--out", "dc.secret", "--key", "hj.pem")
    cli.env["TOURNEY_FIXED_CLOCK"] = AFTER_ROUND_1000
    cli("seed", "reveal", "--secret", "dc.secret", "--signature", QUICK["sig"], "--key",
        "hj.pem")
    cli("round", "pair", "--seed-material", "R1", "--seed-source", "dice", "--key",
        "hj.pem")
    _refused(cli, "deck", "draw", "--round", "1", "--count", "2", "--key", "hj.pem",
             finding="deck_draw_seed_early")
