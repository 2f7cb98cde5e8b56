"""A whole HotC event run through the HTTP API's commands (issue 29 item 3), and the same
script through the CLI, for tests/test_api_commands.py.

Owns: ``opening`` (key files, ``tourney init`` of a HotC event with a cut, the scorekeeper,
judge and station added, a staff card per official: the only steps done at the terminal),
``Desk`` (what a script calls: ``do(who, path, **args)``), ``HttpDesk`` (the commands as
``POST /api/v1/<path>`` with the official's staff card as the bearer token), ``CliDesk``
(the same commands as ``tourney`` command lines, written here independently of the API's
specs), ``play_hotc`` (import, close, hold and post rounds, results, a drop, a
correction, the cut and the bracket to a champion) and ``bodies`` (the log's events
without times and signatures).

May import: ``tests.helpers.*``, ``httpx``, the standard library.
"""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import httpx

from tests.helpers.cli_runner import Cli, remember_secret

OFFICIALS = {"sk": "scorekeeper", "judge": "judge", "st": "station"}


@dataclass
class Opening:
    cli: Cli
    d: Path
    log: str
    tokens: dict[str, str] = field(default_factory=dict)   # key stem -> staff card token


def card_token(cli: Cli, d: Path, stem: str, name: str) -> str:
    kid = next(o["key_id"] for o in cli("official", "list", "--json").doc["officials"]
               if o["name"] == name)
    cli("official", "card", kid, "--url", "http://venue.invalid/", "--out",
        f"{stem}.html", "--csv", f"{stem}.csv", "--key", "hj.pem")
    with open(d / f"{stem}.csv", newline="") as f:
        return str(next(csv.DictReader(f))["url"]).rsplit("/c/", 1)[1]


def opening(d: Path, name: str = "Api Open", clock: str | None = None) -> Opening:
    """``clock``: the CLI's fixed clock instead of ``cli_runner.CLOCK`` (an event before
    a recorded drand round, for a commit-reveal)."""
    d.mkdir(parents=True, exist_ok=True)
    cli = Cli(d, d / "t.db")
    if clock is not None:
        cli.env["TOURNEY_FIXED_CLOCK"] = clock
    for stem in ("hj", *OFFICIALS):
        cli("keys", "new", "--name", f"{stem} person", "--out", f"{stem}.pem")
        remember_secret(d / f"{stem}.pem")
    log = cli("init", "--name", name, "--format", "hotc-swiss-de", "--cut", "8", "--key",
              "hj.pem", "--json").doc["tournament"]
    for stem, role in OFFICIALS.items():
        cli("official", "add", "--role", role, "--name", stem, "--public-key",
            f"{stem}.pem.pub", "--key", "hj.pem")
    op = Opening(cli, d, str(log))
    hj = next(o["name"] for o in cli("official", "list", "--json").doc["officials"]
              if "head_judge" in o["roles"])
    op.tokens["hj"] = card_token(cli, d, "hj", hj)
    for stem in ("sk", "judge"):
        op.tokens[stem] = card_token(cli, d, stem, stem)
    return op


def players_csv(n: int) -> str:
    return "number,name\n" + "".join(f"{i},Player {i:03d}\n" for i in range(1, n + 1))


class Desk(Protocol):
    def do(self, who: str, path: str, **args: Any) -> dict[str, Any]:
        """Run one command; the API's answer (a refusal has ``ok`` false)."""
        ...


class HttpDesk:
    """Commands over HTTP, each official with their staff card."""

    def __init__(self, base: str, tokens: dict[str, str]) -> None:
        self.http = httpx.Client(base_url=base, timeout=60)
        self.tokens = tokens
        self.calls = 0

    def post(self, who: str | None, path: str, body: Any) -> httpx.Response:
        headers = {} if who is None else {"Authorization": f"Bearer {self.tokens[who]}"}
        self.calls += 1
        return self.http.post(f"/api/v1/{path}", json=body, headers=headers)

    def do(self, who: str, path: str, **args: Any) -> dict[str, Any]:
        r = self.post(who, path, args)
        doc: dict[str, Any] = r.json()
        assert (r.status_code == 200) == doc["ok"], (r.status_code, doc)
        doc["status"] = r.status_code
        return doc


#: the positional arguments of the commands the script runs (the CLI's, by name)
POSITIONAL = {"drop": ("number",), "round/post": ("number",), "player/import": ("file",)}


class CliDesk:
    """The same commands as ``tourney`` command lines (in this process)."""

    def __init__(self, cli: Cli) -> None:
        self.cli = cli

    def do(self, who: str, path: str, **args: Any) -> dict[str, Any]:
        words = path.split("/")
        opts: list[str] = []
        pos: list[str] = []
        for k, v in args.items():
            if k in POSITIONAL.get(path, ()):
                if k == "file":
                    f = self.cli.cwd / "upload.csv"
                    f.write_text(v)
                    v = str(f)
                pos.append(str(v))
            elif v is True:
                opts.append("--" + k.replace("_", "-"))
            elif v is not False:
                opts += ["--" + k.replace("_", "-"), str(v)]
        run = self.cli(*words, *opts, *pos, "--key", f"{who}.pem", "--json", code=None)
        out: dict[str, Any] = {"ok": run.code == 0, "status": run.code}
        if run.code != 0:
            err = json.loads(run.out)["error"] if run.out.strip() else {}
            out["error"] = {"message": err.get("message", run.err), "rule": err.get("rule")}
        return out


def round_tables(cli: Cli, n: int) -> list[dict[str, Any]]:
    tables: list[dict[str, Any]] = cli("round", "show", str(n), "--json").doc["tables"]
    return tables


def play_hotc(desk: Desk, cli: Cli, players: int = 64) -> dict[str, Any]:
    """The event, start to champion; what it did (for the test's checks)."""
    seen: dict[str, Any] = {"rounds": 0, "results": 0}

    def ok(who: str, path: str, **args: Any) -> dict[str, Any]:
        doc = desk.do(who, path, **args)
        assert doc["ok"], (path, args, doc)
        return doc

    seen["import"] = ok("sk", "player/import", file=players_csv(players))
    ok("hj", "pages/set", hold_pairings=True)
    ok("hj", "registration/close")
    r = 0
    while True:
        r += 1
        paired = desk.do("hj", "round/pair", seed_material=f"api event R{r} 17 03 {r}",
                         seed_source=f"dice #{r}")
        if not paired["ok"]:
            seen["stopped"] = paired
            break
        ok("hj", "round/post", number=r)
        tables = round_tables(cli, r)
        if r == 1:
            gone = tables[-1]["players"][1]
            seen["drop"] = ok("sk", "drop", number=gone, reason="left the venue")
            tables = round_tables(cli, r)
        for t in tables:
            if t["result"] is None and len(t["players"]) == 2:
                ok("sk", "result/record", round=r, table=t["table"],
                   winner=t["players"][0])
                seen["results"] += 1
        if r == 2:
            fix = tables[0]
            seen["correct"] = ok("judge", "result/correct", round=2, table=fix["table"],
                                 winner=fix["players"][1], reason="slips swapped")
        seen["rounds"] = r
    seen["cut"] = ok("hj", "cut", seed_material="api event cut 44", seed_source="dice #c")
    seed: dict[str, Any] = {"seed_material": "api event bracket 9",
                            "seed_source": "dice #b"}
    while True:
        br = desk.do("hj", "bracket", **seed)
        seed = {}
        if not br["ok"]:
            seen["bracket_end"] = br
            break
        n = int(cli("round", "show", "--json").doc["round"])
        for t in round_tables(cli, n):
            if t["result"] is None and len(t["players"]) == 2:
                ok("sk", "result/record", round=n, table=t["table"],
                   winner=t["players"][0])
                seen["results"] += 1
    return seen


def bodies(cli: Cli) -> list[tuple[str, str, Any]]:
    """(actor, kind, body) of every event of the log: what the same commands must give
    whoever runs them (times and signatures aside)."""
    return [(e["event"]["actor"], e["event"]["kind"], e["event"]["body"])
            for e in cli("log", "--json").doc]


def small_event(d: Path, players: int = 16) -> Opening:
    """``opening`` with players imported, registration closed and round 1 paired at the
    terminal, and a player's card (``tokens["player"]``, player 1's)."""
    op = opening(d, "Api Refusals")
    (d / "players.csv").write_text(players_csv(players))
    op.cli("player", "import", "players.csv", "--key", "sk.pem")
    op.cli("registration", "close", "--key", "hj.pem")
    op.cli("round", "pair", "--seed-material", "refusals R1 17 03", "--seed-source",
           "dice", "--key", "hj.pem")
    op.cli("player", "card", "1", "--url", "http://venue.invalid/", "--out", "p1.html",
           "--csv", "p1.csv", "--key", "hj.pem")
    with open(d / "p1.csv", newline="") as f:
        op.tokens["player"] = str(next(csv.DictReader(f))["url"]).rsplit("/c/", 1)[1]
    return op
