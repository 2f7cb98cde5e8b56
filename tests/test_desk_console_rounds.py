"""The round's randomness and its repairs from the console's forms alone, with
JavaScript off (issue 29 item 1, "pair (typed seed material, drand or RANDOM.ORG
upload, commit-reveal) … void, override"), on a real ``tourney serve`` process holding
the head judge's key: plain form posts as a browser without scripts sends them.

A RANDOM.ORG signed response uploaded as a file (the real vector, verified offline)
seeds round 1, which is paired with no material typed; the round is voided; a drand
beacon typed as its round and signature seeds the draw again; the head judge's own
pairing replaces the engine's (override). Each is the CLI's event (provenance, context,
the void's and override's bodies), a bad upload is the CLI's sentence with nothing
written, and the log audits clean.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.helpers.cli_runner import Cli
from tests.helpers.desk_event import main_words, posted_form
from tests.helpers.live import ledger_bytes, serve_process
from tests.helpers.randomness import QUICK, RORG, response

# the RANDOM.ORG example response was completed at 2014-06-03 17:15:13Z: the event is
# older (a seed must be newer than the event that needs it, issue 21 item 1)
CLOCK = "2014-06-03T17:00:00.000000Z"
NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Cli, str, str]]:
    d = tmp_path_factory.mktemp("rounds")
    cli = Cli(d, d / "t.db")
    cli.env["TOURNEY_FIXED_CLOCK"] = CLOCK
    for stem in ("hj", "st"):
        cli("keys", "new", "--name", stem, "--out", f"{stem}.pem")
    cli("init", "--name", "Rounds Open", "--format", "hotc-swiss-de", "--cut", "4",
        "--key", "hj.pem")
    cli("official", "add", "--role", "station", "--name", "st", "--public-key",
        "st.pem.pub", "--key", "hj.pem")
    for name in NAMES:
        cli("player", "add", name, "--key", "hj.pem")
    cli("registration", "close", "--key", "hj.pem")
    hj = next(o for o in cli("official", "list", "--json").doc["officials"]
              if "head_judge" in o["roles"])
    cli("official", "card", hj["key_id"], "--url", "http://venue.invalid/", "--out",
        "hj.html", "--csv", "hj.csv", "--key", "hj.pem")
    token = (d / "hj.csv").read_text().strip().splitlines()[-1].rsplit("/c/", 1)[1]
    with serve_process(d, cli.env, serve_args=("--station-key", "st.pem", "--staff-key",
                                               "hj.pem")) as (url, _proc):
        yield cli, url, token


def _log(cli: Cli) -> list[dict[str, Any]]:
    return [leaf["event"] for leaf in cli("log", "--json").doc]


def test_seed_pair_void_and_override_from_the_console_without_javascript(
        served: tuple[Cli, str, str]) -> None:
    cli, url, token = served
    with httpx.Client(base_url=url, timeout=60) as c:
        assert c.get(f"/c/{token}").status_code == 303
        # a forged upload: the CLI's sentence, nothing written
        raw = ledger_bytes(cli.ledger)
        bad = json.loads(response())
        bad["signature"] = bad["signature"][:-8] + "AAAAAAA="
        r = posted_form(c, url, "seed/import-random-org", {"reason": "round 1 pairing"},
                  {"file": ("random-org.json", json.dumps(bad).encode(), "text/plain")})
        shown = main_words(r.text)
        assert r.status_code in (409, 422) and "Nothing was written" in shown, shown
        assert ledger_bytes(cli.ledger) == raw
        # RANDOM.ORG's signed response, uploaded as the file it was saved as
        r = posted_form(c, url, "seed/import-random-org", {"reason": "round 1 pairing"},
                  {"file": ("random-org.json", response(), "application/json")})
        assert r.status_code == 200 and "Done" in main_words(r.text), main_words(r.text)
        seeded = [e for e in _log(cli) if e["kind"] == "seed_recorded"]
        assert [s["body"]["provenance"] for s in seeded] == ["random_org"]
        assert seeded[0]["body"]["material"] == RORG["random_raw"]
        # paired with the recorded seed: no material typed
        r = posted_form(c, url, "round/pair", {})
        assert r.status_code == 200 and "Done" in main_words(r.text), main_words(r.text)
        void = posted_form(c, url, "round/void", {"reason": "a player was missing"})
        assert void.status_code == 200, main_words(void.text)
        # a drand beacon typed (round and signature), verified offline, seeds it again
        ctx = next(e for e in reversed(_log(cli)) if e["kind"] == "pairing_voided")
        r = posted_form(c, url, "seed/import-drand", {"round": "1000", "signature": QUICK["sig"],
                                                "reason": "round 1 again"})
        assert r.status_code == 200, main_words(r.text)
        r = posted_form(c, url, "round/pair", {})
        assert r.status_code == 200, main_words(r.text)
        tables = cli("round", "show", "1", "--json").doc["tables"]
        a, b = tables[0]["players"], tables[1]["players"]
        pairs = f"{a[0]}-{b[0]},{a[1]}-{b[1]}," + ",".join(
            "-".join(str(p) for p in t["players"]) for t in tables[2:])
        r = posted_form(c, url, "round/override", {"pairs": pairs, "reason": "siblings apart"})
        assert r.status_code == 200, main_words(r.text)
    log = _log(cli)
    kinds = [e["kind"] for e in log]
    assert kinds.count("round_paired") == 2 and "pairing_voided" in kinds, kinds
    second = max(i for i, k in enumerate(kinds) if k == "round_paired")
    assert "pairing_overridden" in kinds[second:], kinds[second:]
    drand = [e["body"] for e in log if e["kind"] == "seed_recorded"][1]
    assert (drand["provenance"], drand["round"]) == ("drand", 1000)
    assert drand["material"] == QUICK["randomness"]
    assert log.index(ctx) < [i for i, e in enumerate(log) if e["kind"] == "seed_recorded"][1]
    shown = cli("round", "show", "1", "--json").doc["tables"]
    assert [sorted(t["players"]) for t in shown[:2]] == [sorted([a[0], b[0]]),
                                                         sorted([a[1], b[1]])]
    assert all(e["actor"] == log[0]["actor"] for e in log if e["kind"] in
               ("seed_recorded", "round_paired", "pairing_voided",
                                               "pairing_overridden"))
    assert cli("audit", "verify", "--json").doc["ok"] is True
