"""Verifiable randomness (issue 8, docs/DESIGN.md §6/§11, THREATS T15, T16, T21–T23, T25).

Real vectors (tests/vectors/randomness/, see its PROVENANCE.md): a RANDOM.ORG signed
response and drand beacons, verified offline against the pinned keys.  Every tamper case
is shown twice: refused by the command (exit 3, ledger bytes unchanged) and, forged into
the log with a valid head-judge signature, flagged by the audit with its code.
"""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from ledger.core.draw import seed_from_material
from ledger.errors import RuleError
from ledger.randomness import pins, random_org
from ledger.randomness.commit import commitment, reveal_material
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.events import DrawMade, SeedRecorded
from tests.conftest import HJ, build_small
from tests.helpers.cli_runner import Cli
from tests.helpers.randomness import (
    AFTER_ROUND_1000,
    BEFORE_ROUND_1000,
    DRAND,
    QUICK,
    RORG,
    _event,
    _forge_commit_reveal,
    forge_drand_material,
    forge_random_org_swap,
    refused,
    response,
)
from tests.helpers.tamper import audit, codes_at, forge_next, rows

CHAINED = next(b for b in DRAND["beacons"] if b["round"] == 3311596)
# the RANDOM.ORG example response was completed at 2014-06-03 17:15:13Z (issue 21 item 1:
# a seed must be newer than the event that needs it)
BEFORE_RORG_EXAMPLE = "2014-06-03T17:00:00.000000Z"


def test_pinned_keys_equal_the_vendored_vectors() -> None:
    assert pins.RANDOM_ORG_KEYS[0].modulus_hex == RORG["modulus_hex"]
    for name, chain in DRAND["chains"].items():
        assert pins.DRAND_CHAINS[name].public_key_hex == chain["public_key"]


@pytest.fixture()
def cli(tmp_path: Path) -> Cli:
    return _event(tmp_path)


@pytest.fixture()
def cli_2023(tmp_path: Path) -> Cli:
    """An event run before quicknet round 1000 (claimed times may not go backwards)."""
    return _event(tmp_path, "2023-08-23T14:00:00.000000Z")


# -- RANDOM.ORG (T22, T23) ------------------------------------------------------------------

def test_random_org_response_recorded_verbatim_and_audited(tmp_path: Path) -> None:
    cli = _event(tmp_path, BEFORE_RORG_EXAMPLE)  # the example response is from 2014
    (cli.cwd / "r.json").write_bytes(response())
    doc = cli("seed", "import-random-org", "r.json", "--reason", "seating", "--key", "hj.pem",
              "--json").doc
    body = doc["event"]["event"]["body"]
    assert body["provenance"] == "random_org" and body["serial"] == "79924"
    assert base64.b64decode(body["attestation"]) == response()
    assert body["material"] == RORG["random_raw"]
    assert body["seed"] == seed_from_material(RORG["random_raw"]).hex()
    cli("draw", "--ctx", "seating", "--key", "hj.pem")
    rep = cli("audit", "verify", "--json").doc
    assert rep["ok"], rep["findings"]


@pytest.mark.parametrize("defect", ["reserialised", "value_changed", "other_signature"])
def test_random_org_tampered_response_is_refused(cli: Cli, defect: str) -> None:
    raw = RORG["random_raw"]
    if defect == "reserialised":  # same JSON value, other bytes
        data = response(json.dumps(json.loads(raw), indent=1))
    elif defect == "value_changed":
        data = response(raw.replace("[6,1,4,4,3,6]", "[6,1,4,4,3,5]"))
    else:
        sig = bytearray(base64.b64decode(RORG["signature_b64"]))
        sig[10] ^= 1
        data = response(sig=base64.b64encode(bytes(sig)).decode())
    (cli.cwd / "bad.json").write_bytes(data)
    refused(cli, "seed", "import-random-org", "bad.json", "--reason", "r", "--key", "hj.pem",
            finding="random_org_bad_signature")


def test_random_org_material_swapped_in_log_is_flagged(tmp_path: Path) -> None:
    loc = forge_random_org_swap(tmp_path / "t.db")
    assert ("random_org_mismatch", len(rows(loc))) in codes_at(audit(loc))


@pytest.fixture()
def test_key(monkeypatch: pytest.MonkeyPatch) -> Any:
    """A throwaway RSA key pinned in place of RANDOM.ORG's, to sign several serials."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    n = key.public_key().public_numbers().n
    monkeypatch.setattr(pins, "RANDOM_ORG_KEYS", (pins.RsaPin(
        name="test", modulus_hex=f"{n:x}", exponent=65537, provenance="test"),))

    def signed(serial: int, api_key: str = "KEY==") -> bytes:
        raw = (f'{{"method":"generateSignedIntegers","hashedApiKey":"{api_key}","n":1,'
               f'"data":[{serial % 7}],"completionTime":"2026-01-01 10:00:0{serial % 10}Z",'
               f'"serialNumber":{serial}}}')
        sig = key.sign(raw.encode(), padding.PKCS1v15(), hashes.SHA512())
        return response(raw, base64.b64encode(sig).decode())
    return signed


def _import(loc: Location, data: bytes, **kw: Any) -> Any:
    from ledger.randomness.commands import import_random_org
    from ledger.wire.clock import FixedClock
    with Ledger(loc, clock=FixedClock("2013-06-02T09:00:00.000000Z")) as led:
        return led.write("t1", lambda t, now: import_random_org(
            t, data, reason="r", signer=HJ, time=now, **kw))


def test_random_org_serial_gap_and_reuse(tmp_path: Path, test_key: Any) -> None:
    loc = build_small(tmp_path / "t.db")
    _import(loc, test_key(5))
    _import(loc, test_key(6))
    _import(loc, test_key(1, api_key="OTHER=="))  # serials are per hashedApiKey
    with pytest.raises(RuleError) as gap:
        _import(loc, test_key(9))
    assert gap.value.finding == "random_org_serial_gap"
    with pytest.raises(RuleError) as again:
        _import(loc, test_key(6))
    assert again.value.finding == "random_org_serial_reused"
    ev = _import(loc, test_key(9), gap_reason="serials 7-8 used by the side event")
    rep = audit(loc)
    assert ("random_org_serial_gap_explained", ev.seq) in codes_at(rep)
    # an unexplained gap forged into the log (signed by the head judge) is an error
    data = test_key(12)
    signed = random_org.verify_signed(data)
    material = signed.random_raw.decode()
    seq = len(rows(loc)) + 1
    forge_next(loc, SeedRecorded(
        provenance="random_org", material=material, source="RANDOM.ORG", reason="r",
        seed=seed_from_material(material).hex(), serial="12", hashed_api_key="KEY==",
        attestation=base64.b64encode(data).decode()), HJ)
    rep = audit(loc)
    assert ("random_org_serial_gap", seq) in codes_at(rep) and not rep.ok


# -- drand (T21) ----------------------------------------------------------------------------

def test_drand_quicknet_beacon_recorded_and_audited(cli_2023: Cli) -> None:
    cli = cli_2023  # an event before the beacons (issue 21 item 1)
    doc = cli("seed", "import-drand", "--round", "1000", "--signature", QUICK["sig"],
              "--reason", "cut", "--ctx", "cut", "--key", "hj.pem", "--json").doc
    body = doc["event"]["event"]["body"]
    assert body["material"] == QUICK["randomness"] == hashlib.sha256(
        bytes.fromhex(QUICK["sig"])).hexdigest()
    assert (body["chain"], body["round"]) == ("quicknet", 1000)
    (cli.cwd / "b.json").write_text(json.dumps({
        "round": CHAINED["round"], "signature": CHAINED["sig"],
        "previous_signature": CHAINED["prev"], "randomness": CHAINED["randomness"]}))
    cli("seed", "import-drand", "--beacon", "b.json", "--chain", "default", "--reason", "x",
        "--ctx", "seating", "--key", "hj.pem")
    cli("draw", "--ctx", "cut", "--key", "hj.pem")
    rep = cli("audit", "verify", "--json").doc
    assert rep["ok"], rep["findings"]


def test_drand_tampered_beacons_are_refused(cli: Cli) -> None:
    base = ("seed", "import-drand", "--reason", "r", "--key", "hj.pem")
    refused(cli, *base, "--round", "1001", "--signature", QUICK["sig"],
            finding="drand_bad_signature")                          # wrong round
    refused(cli, *base, "--round", "1000", "--signature", QUICK["sig"], "--chain", "default",
            "--previous-signature", CHAINED["prev"],
            finding="drand_bad_signature")                          # wrong network key
    refused(cli, *base, "--round", str(CHAINED["round"]), "--signature", CHAINED["sig"],
            finding="drand_bad_signature")                          # chained checked unchained
    (cli.cwd / "b.json").write_text(json.dumps({"round": 1000, "signature": QUICK["sig"],
                                                "randomness": "00" * 32}))
    refused(cli, *base, "--beacon", "b.json",
            finding="drand_randomness_mismatch")                    # randomness != H(sig)


def test_drand_material_not_hash_of_signature_is_flagged(tmp_path: Path) -> None:
    loc = forge_drand_material(tmp_path / "t.db")
    assert ("drand_randomness_mismatch", len(rows(loc))) in codes_at(audit(loc))


# -- commit-reveal (T15, T16) ---------------------------------------------------------------

def test_commit_reveal_end_to_end(cli_2023: Cli) -> None:
    cli = cli_2023
    early = {"TOURNEY_FIXED_CLOCK": BEFORE_ROUND_1000}
    doc = cli("seed", "commit", "--round", "1000", "--reason", "R1 pairing", "--ctx", "R1x",
              "--out", "r1.secret", "--key", "hj.pem", "--json", env=early).doc
    assert doc["checkpoint"] and (cli.cwd / "r1.secret").stat().st_mode & 0o777 == 0o600
    secret = json.loads((cli.cwd / "r1.secret").read_text())
    assert doc["event"]["event"]["body"]["commitment"] == commitment(
        bytes.fromhex(secret["salt"]), bytes.fromhex(secret["secret"])).hex()
    assert secret["secret"] not in json.dumps(doc)
    cli.env["TOURNEY_FIXED_CLOCK"] = AFTER_ROUND_1000   # the station's clock moves on
    # a secret that does not open the commitment is refused
    bad = dict(secret, secret="00" * 32)
    (cli.cwd / "bad.secret").write_text(json.dumps(bad))
    refused(cli, "seed", "reveal", "--secret", "bad.secret", "--signature", QUICK["sig"],
            "--key", "hj.pem", finding="reveal_mismatch")
    rev = cli("seed", "reveal", "--secret", "r1.secret", "--signature", QUICK["sig"],
              "--key", "hj.pem", "--json").doc
    body = rev["event"]["event"]["body"]
    assert body["material"] == reveal_material(bytes.fromhex(secret["salt"]),
                                               bytes.fromhex(secret["secret"]),
                                               bytes.fromhex(QUICK["randomness"]))
    refused(cli, "seed", "reveal", "--secret", "r1.secret", "--signature", QUICK["sig"],
            "--key", "hj.pem", finding="commit_reused")
    cli("draw", "--ctx", "R1x", "--key", "hj.pem")
    rep = cli("audit", "verify", "--json").doc
    assert rep["ok"], rep["findings"]


def test_commitment_after_the_beacon_round_is_refused(cli: Cli) -> None:
    refused(cli, "seed", "commit", "--round", "1000", "--reason", "r", "--out", "s.secret",
            "--key", "hj.pem", env={"TOURNEY_FIXED_CLOCK": AFTER_ROUND_1000},
            finding="commitment_not_sealed")
    assert not (cli.cwd / "s.secret").exists()


@pytest.mark.parametrize("case,code", [
    ("clean", None),
    ("reveal_does_not_open", "reveal_mismatch"),
    ("committed_after_round", "commitment_not_sealed"),
    ("no_checkpoint", "commitment_not_sealed"),
])
def test_commit_reveal_forgeries_are_flagged(tmp_path: Path, case: str,
                                             code: str | None) -> None:
    loc = build_small(tmp_path / "t.db")
    seq = _forge_commit_reveal(loc, commit_time_ok=case != "committed_after_round",
                               opens=case != "reveal_does_not_open",
                               with_note=case != "no_checkpoint")
    found = codes_at(audit(loc))
    if code is None:
        assert not {c for c, _ in found} & {"reveal_mismatch", "commitment_not_sealed",
                                            "bad_signature"}, found
    else:
        assert (code, seq) in found


# -- re-roll hygiene (T25) ------------------------------------------------------------------

def test_seed_serves_one_draw_context(cli: Cli) -> None:
    s1 = cli("seed", "record", "--material", "m1", "--source", "dice", "--reason", "seating",
             "--ctx", "seating", "--key", "hj.pem", "--json").doc["seq"]
    cli("draw", "--ctx", "seating", "--key", "hj.pem")
    refused(cli, "draw", "--ctx", "tables", "--seed-seq", str(s1), "--key", "hj.pem",
            finding="draw_seed_other_ctx")
    s2 = cli("seed", "record", "--material", "m2", "--source", "dice", "--reason", "x",
             "--key", "hj.pem", "--json").doc["seq"]
    cli("draw", "--ctx", "judges", "--items", "1,2,3", "--universe", "judges",
        "--key", "hj.pem")
    refused(cli, "draw", "--ctx", "other", "--seed-seq", str(s2), "--key", "hj.pem",
            finding="draw_seed_reused")
    refused(cli, "draw", "--ctx", "other", "--key", "hj.pem", finding="rule_violation")


def test_player_draw_items_must_be_the_roster(cli: Cli) -> None:
    cli("seed", "record", "--material", "m1", "--source", "dice", "--reason", "r",
        "--key", "hj.pem")
    refused(cli, "draw", "--ctx", "c", "--items", "1,2,99", "--key", "hj.pem",
            finding="draw_items_not_roster")
    refused(cli, "draw", "--ctx", "c", "--items", "1,2", "--universe", "players",
            "--key", "hj.pem", finding="draw_items_not_roster")
    doc = cli("draw", "--ctx", "c", "--universe", "players", "--key", "hj.pem", "--json").doc
    assert doc["items"] == [1, 2, 3, 4]


def test_forged_reused_seed_and_foreign_items_are_flagged(tmp_path: Path) -> None:
    loc = build_small(tmp_path / "t.db")  # its seating draw used the seed at seq 10
    r = rows(loc)
    draw = next(msgspec.json.decode(b)["event"]["body"] for _v, b in r
                if b'"draw_made"' in b)
    from ledger.core.draw import draw_v1
    seed = bytes.fromhex(draw["seed"])
    forge_next(loc, DrawMade(ctx="t1/other", algorithm="DRAW-v1", seed=draw["seed"],
                             seed_seq=draw["seed_seq"], items=[1, 2],
                             result=draw_v1(seed, "t1/other", [1, 2])), HJ)
    assert ("draw_seed_reused", len(rows(loc))) in codes_at(audit(loc))


@pytest.mark.parametrize("defect,code", [
    ("attested_round_differs", "drand_round_mismatch"),
    ("wrong_chain", "drand_bad_signature"),
    ("unknown_chain", "drand_unknown_chain"),
    ("no_attestation", "seed_attestation_missing"),
])
def test_forged_drand_seeds_are_flagged(tmp_path: Path, defect: str, code: str) -> None:
    loc = build_small(tmp_path / "t.db")
    beacon: dict[str, Any] = {"round": 1000, "signature": QUICK["sig"]}
    chain, rnd = "quicknet", 1000
    if defect == "attested_round_differs":
        rnd = 1001
    elif defect == "wrong_chain":
        chain = "default"
        beacon["previous_signature"] = CHAINED["prev"]
    elif defect == "unknown_chain":
        chain = "testnet"
    att = None if defect == "no_attestation" else \
        base64.b64encode(json.dumps(beacon).encode()).decode()
    material = QUICK["randomness"]
    forge_next(loc, SeedRecorded(
        provenance="drand", material=material, source="drand", reason="r",
        seed=seed_from_material(material).hex(), chain=chain, round=rnd, attestation=att),
        HJ)
    report = audit(loc)
    assert (code, len(rows(loc))) in codes_at(report) and not report.ok
