"""docs/DESIGN.md §3: "an auditor can read stored_events with plain sqlite3 and verify
everything without this code".

The ledger is built with the code; it is then verified by ``outside_verify`` below, which
uses ONLY ``sqlite3``, ``hashlib``, ``json``, ``base64`` and ``cryptography`` and follows
docs/DESIGN.md §4–§6 from the text: canonical re-encoding compared byte for byte, the ``prev``
chain, seq contiguity, key ids, Ed25519 signatures over ``b"tourney-event/v1\\n" +
canonical(event)`` with keys learned from the log (genesis ``head_judge``,
``official_added``), and every ``draw_made`` recomputed with an inline DRAW-v1.  It is also
run in a subprocess in which importing ``ledger``, ``msgspec`` or ``eventsourcing`` fails,
and it must catch a byte flipped with a sqlite3 UPDATE.
"""

from __future__ import annotations

import base64
import hashlib
import inspect
import json
import sqlite3
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from py_arkworks_bls12381 import GT, G1Point, G2Point

VECTORS = Path(__file__).parent / "vectors" / "randomness"

# ----------------------------------------------------------------------------------------
# The outside auditor: nothing below this line up to the next rule imports or calls the
# project's code (enforced by test_verifier_is_self_contained).
# ----------------------------------------------------------------------------------------


def outside_canonical(obj: Any) -> bytes:
    """docs/DESIGN.md §4 canonical JSON (= JCS on the restricted schema)."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def outside_draw_v1(seed: bytes, ctx: str, items: list[int]) -> list[int]:
    """DRAW-v1 of docs/DESIGN.md §6, written from the spec."""
    c = ctx.encode("utf-8")
    key = hashlib.sha256(b"tourney-draw/v1\x00" + len(c).to_bytes(4, "big") + c + seed).digest()
    counter = 0

    def u64() -> int:
        nonlocal counter
        block = hashlib.sha256(key + counter.to_bytes(8, "big")).digest()
        counter += 1
        return int.from_bytes(block[:8], "big")

    def below(n: int) -> int:
        limit = 2**64 - (2**64 % n)
        while True:
            x = u64()
            if x < limit:
                return x % n

    a = sorted(items)
    for i in range(len(a) - 1, 0, -1):
        j = below(i + 1)
        a[i], a[j] = a[j], a[i]
    return a


def outside_bls(chain: dict[str, Any], rnd: int, sig: bytes, prev: str | None) -> bool:
    """drand BLS12-381 (docs/DESIGN.md §6; third-party curve library, not the project's code)."""
    pub = bytes.fromhex(chain["public_key"])
    try:
        if chain["scheme"] == "bls-unchained-g1-rfc9380":
            msg = hashlib.sha256(rnd.to_bytes(8, "big")).digest()
            h = G1Point.hash_to_curve(msg, b"BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_")
            return bool(GT.pairing_check([G1Point.from_compressed_bytes(sig), -h],
                                         [G2Point(), G2Point.from_compressed_bytes(pub)]))
        msg = hashlib.sha256(bytes.fromhex(prev or "") + rnd.to_bytes(8, "big")).digest()
        h2 = G2Point.hash_to_curve(msg, b"BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_NUL_")
        return bool(GT.pairing_check([G1Point(), -G1Point.from_compressed_bytes(pub)],
                                     [G2Point.from_compressed_bytes(sig), h2]))
    except (ValueError, TypeError):
        return False


def outside_verify_seed(body: dict[str, Any], commitments: dict[int, dict[str, Any]],
                        pins: dict[str, Any]) -> str | None:
    """One seed_recorded of any provenance (docs/DESIGN.md §6/§11); a finding code or None."""
    material = body["material"]
    if body["seed"] != hashlib.sha256(b"tourney-seed/v1\x00"
                                      + material.encode("utf-8")).hexdigest():
        return "seed_mismatch"
    prov = body["provenance"]
    if prov == "entered":
        return None
    att = base64.b64decode(body["attestation"], validate=True)
    if prov == "random_org":
        doc = json.loads(att)
        doc = doc.get("result", doc)
        if material.encode("utf-8") not in att or json.loads(material) != doc["random"]:
            return "random_org_mismatch"
        key = rsa.RSAPublicNumbers(pins["random_org"]["exponent"],
                                   int(pins["random_org"]["modulus_hex"], 16)).public_key()
        try:
            key.verify(base64.b64decode(doc["signature"]), material.encode("utf-8"),
                       padding.PKCS1v15(), hashes.SHA512())
        except InvalidSignature:
            return "random_org_bad_signature"
        return None
    beacon = json.loads(att)
    sig, rnd, chain = bytes.fromhex(beacon["signature"]), body["round"], body["chain"]
    if beacon["round"] != rnd:
        return "drand_round_mismatch"
    if not outside_bls(pins["drand"]["chains"][chain], rnd, sig,
                       beacon.get("previous_signature")):
        return "drand_bad_signature"
    rand = hashlib.sha256(sig).hexdigest()
    if prov == "drand":
        return None if material == rand else "drand_randomness_mismatch"
    com = commitments.get(body["commit_seq"])
    opened = hashlib.sha256(b"tourney-commit/v1\x00" + bytes.fromhex(body["salt"])
                            + bytes.fromhex(body["secret"])).hexdigest()
    if com is None or opened != com["commitment"] or \
            (com["chain"], com["round"]) != (chain, rnd):
        return "reveal_mismatch"
    published = pins["drand"]["genesis"][chain] + (rnd - 1) * pins["drand"]["period"][chain]
    note_size = int(body["checkpoint"].split("\n")[1])
    if com["unix"] >= published or note_size < body["commit_seq"]:
        return "commitment_not_sealed"
    if material != f"commit-reveal/v1:{body['salt']}:{body['secret']}:{rand}":
        return "seed_mismatch"
    return None


def outside_pins() -> dict[str, Any]:
    """The keys the auditor trusts: the vendored vectors' RANDOM.ORG key and drand chains,
    plus the chains' published genesis times and periods."""
    return {"random_org": json.loads((VECTORS / "random_org.json").read_text()),
            "drand": {"chains": json.loads((VECTORS / "drand.json").read_text())["chains"],
                      "genesis": {"quicknet": 1692803367, "default": 1595431050},
                      "period": {"quicknet": 3, "default": 30}}}


def outside_verify(con: sqlite3.Connection,
                   pins: dict[str, Any] | None = None) -> dict[str, Any]:
    """Verify every tournament in a ledger file's ``stored_events`` table.

    Returns ``{"events": n, "logs": [...], "findings": [(log, seq, code, message), ...]}``;
    never stops at the first finding.
    """
    findings: list[tuple[str, int, str, str]] = []
    total = 0
    envelope_keys = {"v", "log", "seq", "prev", "time", "kind", "actor", "body"}

    def no_dupes(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k, v in pairs:
            if k in out:
                raise ValueError(f"duplicate key {k!r}")
            out[k] = v
        return out

    def no_float(text: str) -> Any:
        raise ValueError(f"float {text}")

    def key_id(raw: bytes) -> str:
        return hashlib.sha256(raw).digest()[:8].hex()

    logs = [r[0] for r in con.execute(
        "SELECT originator_id FROM stored_events WHERE originator_version = 1 ORDER BY rowid")]
    for log in logs:
        rows = con.execute(
            "SELECT originator_version, topic, state FROM stored_events "
            "WHERE originator_id = ? ORDER BY originator_version", (log,)).fetchall()
        keys: dict[str, bytes] = {}
        revoked: set[str] = set()
        seeds: dict[int, str] = {}
        commitments: dict[int, dict[str, Any]] = {}
        prev = "0" * 64

        def find(seq: int, code: str, msg: str, log: str = log) -> None:
            findings.append((log, seq, code, msg))

        for expected, (version, topic, state) in enumerate(rows, start=1):
            total += 1
            leaf = bytes(state)
            if version != expected:
                find(version, "seq_gap", f"expected version {expected}, found {version}")
            try:
                obj = json.loads(leaf.decode("utf-8"), object_pairs_hook=no_dupes,
                                 parse_float=no_float)
                event, sig_b64 = obj["event"], obj["sig"]
                if set(obj) != {"event", "sig"} or set(event) != envelope_keys:
                    raise ValueError("wrong envelope fields")
                sig = base64.b64decode(sig_b64, validate=True)
            except (ValueError, KeyError, TypeError) as exc:
                find(version, "malformed", str(exc))
                prev = hashlib.sha256(leaf).hexdigest()
                continue
            if outside_canonical(obj) != leaf:
                find(version, "non_canonical", "stored bytes are not the canonical encoding")
            if base64.b64encode(sig).decode() != sig_b64 or len(sig) != 64:
                # b64decode ignores the unused low bits of the last symbol: several strings
                # decode to the same 64 bytes, only the canonical one is accepted
                find(version, "non_canonical", "sig is not the canonical base64 of 64 bytes")
            try:
                if event["v"] != 1 or event["log"] != log or event["seq"] != version:
                    find(version, "wrong_place", f"event claims {event['log']}#{event['seq']}")
                if event["prev"] != prev:
                    find(version, "chain_broken", f"prev {event['prev']!r:.14} != {prev:.12}")
                if topic != event["kind"]:
                    find(version, "topic_mismatch", f"row topic {topic} != {event['kind']!r}")
                kind, body, actor = event["kind"], event["body"], event["actor"]
                if version == 1:
                    if kind != "tournament_created":
                        find(version, "genesis", "seq 1 is not tournament_created")
                    else:
                        hj = body["head_judge"]
                        raw = base64.b64decode(hj["public_key"])
                        if key_id(raw) != hj["key_id"] or actor != hj["key_id"]:
                            find(version, "bad_key", "genesis key id / actor mismatch")
                        keys[hj["key_id"]] = raw
                pub = keys.get(actor)
                if pub is None or actor in revoked:
                    find(version, "unknown_key", f"actor {actor} is not a current official")
                else:
                    message = b"tourney-event/v1\n" + outside_canonical(event)
                    try:
                        Ed25519PublicKey.from_public_bytes(pub).verify(sig, message)
                    except InvalidSignature:
                        find(version, "bad_signature", f"signature by {actor} does not verify")
                if kind == "official_added":
                    raw = base64.b64decode(body["public_key"])
                    if key_id(raw) != body["key_id"]:
                        find(version, "bad_key", "official key id does not match its key")
                    keys[body["key_id"]] = raw
                elif kind == "official_revoked":
                    revoked.add(body["key_id"])
                elif kind == "seed_committed":
                    unix = int(datetime.fromisoformat(event["time"].replace(
                        "Z", "+00:00")).timestamp())
                    commitments[version] = dict(body, unix=unix)
                elif kind == "seed_recorded":
                    code = outside_verify_seed(body, commitments, pins or {})
                    if code is not None:
                        find(version, code, f"{body['provenance']} seed does not verify")
                    seeds[version] = body["seed"]
                elif kind == "draw_made":
                    seed_hex = seeds.get(body["seed_seq"])
                    if body["algorithm"] != "DRAW-v1":
                        find(version, "draw_mismatch", f"algorithm {body['algorithm']}")
                    elif seed_hex is None or seed_hex != body["seed"]:
                        find(version, "draw_seed_unknown", f"seed_seq {body['seed_seq']}")
                    elif body["items"] != sorted(set(body["items"])):
                        find(version, "draw_mismatch", "items not distinct ascending")
                    elif outside_draw_v1(bytes.fromhex(seed_hex), body["ctx"],
                                         body["items"]) != body["result"]:
                        find(version, "draw_mismatch", f"draw {body['ctx']} does not recompute")
            except (KeyError, TypeError, ValueError, AttributeError) as exc:
                find(version, "malformed", f"{type(exc).__name__}: {exc}")
            prev = hashlib.sha256(leaf).hexdigest()
    return {"events": total, "logs": logs, "findings": findings}


def outside_verify_note(note: bytes, leaves: list[bytes], log: str) -> dict[str, Any]:
    """A checkpoint note and its witness cosignatures, from C2SP signed-note,
    tlog-checkpoint and tlog-cosignature and docs/DESIGN.md §4–§5 alone: head-judge and witness
    keys are learned from the leaves; the note's root is recomputed (RFC 6962)."""
    cut = note.rindex(b"\n\n")
    text, block = note[:cut + 1], note[cut + 2:].decode("utf-8")
    origin, size_line, root_b64 = text.decode("utf-8").split("\n")[:3]
    size = int(size_line)
    hj_keys: dict[str, bytes] = {}
    witness_keys: dict[str, bytes] = {}
    for leaf in leaves[:size]:
        ev = json.loads(leaf)["event"]
        body = ev["body"]
        if ev["kind"] == "tournament_created":
            hj_keys[body["head_judge"]["key_id"]] = base64.b64decode(
                body["head_judge"]["public_key"])
        elif ev["kind"] == "official_added" and body["role"] == "head_judge":
            hj_keys[body["key_id"]] = base64.b64decode(body["public_key"])
        elif ev["kind"] == "official_added" and body["role"] == "witness":
            witness_keys[body["key_id"]] = base64.b64decode(body["public_key"])
    level = [hashlib.sha256(b"\x00" + leaf).digest() for leaf in leaves[:size]]
    while len(level) > 1:
        nxt = [hashlib.sha256(b"\x01" + level[i] + level[i + 1]).digest()
               for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            nxt.append(level[-1])
        level = nxt
    out: dict[str, Any] = {"origin": origin, "size": size,
                           "root_ok": base64.b64encode(level[0]).decode() == root_b64,
                           "signed_by_head_judge": False, "cosigners": [], "bad": []}
    for line in block.split("\n")[:-1]:
        name, blob_b64 = line[2:].split(" ")
        blob = base64.b64decode(blob_b64)
        for kid, pub in hj_keys.items():
            khash = hashlib.sha256(name.encode() + b"\n\x01" + pub).digest()[:4]
            if name == origin and blob[:4] == khash:
                try:
                    Ed25519PublicKey.from_public_bytes(pub).verify(blob[4:], text)
                    out["signed_by_head_judge"] = True
                except InvalidSignature:
                    out["bad"].append(kid)
        for kid, pub in witness_keys.items():
            wname = "tourney-witness/" + kid
            khash = hashlib.sha256(wname.encode() + b"\n\x04" + pub).digest()[:4]
            if name == wname and blob[:4] == khash:
                ts = int.from_bytes(blob[4:12], "big")
                msg = b"cosignature/v1\ntime " + str(ts).encode() + b"\n" + text
                try:
                    Ed25519PublicKey.from_public_bytes(pub).verify(blob[12:], msg)
                    out["cosigners"].append(kid)
                except InvalidSignature:
                    out["bad"].append(kid)
    return out


# ----------------------------------------------------------------------------------------
# The tests (these may use the project to BUILD the ledger).
# ----------------------------------------------------------------------------------------
AUDITOR_FUNCTIONS = (outside_canonical, outside_draw_v1, outside_bls, outside_verify_seed,
                     outside_verify, outside_verify_note)
ALLOWED_GLOBALS = {"json", "hashlib", "base64", "sqlite3", "Ed25519PublicKey",
                   "InvalidSignature", "Any", "outside_canonical", "outside_draw_v1",
                   "outside_bls", "outside_verify_seed", "rsa", "padding", "hashes",
                   "GT", "G1Point", "G2Point", "datetime", "bool", "bytearray",
                   # builtins
                   "sorted", "set", "len", "enumerate", "range", "str", "bytes", "int",
                   "ValueError", "KeyError", "TypeError", "AttributeError", "dict", "list",
                   "tuple", "hex", "type", "__name__",  # (attribute names)
                   "isinstance"}


def build_ledger(path: Path) -> dict[str, Any]:
    from ledger.core.aggregate import Tournament
    from ledger.formats.registry import make_format
    from ledger.storage.location import Location
    from ledger.storage.store import Ledger
    from ledger.wire.clock import FixedClock
    from ledger.wire.events import Role
    from ledger.wire.keys import PublicKey, Signer

    hj = Signer.from_seed(b"\x01" * 32, "Head Judge")
    sk = Signer.from_seed(b"\x03" * 32, "Scorekeeper Sam")
    judge = Signer.from_seed(b"\x02" * 32, "Judge Jo")
    with Ledger(Location(str(path)), create=True, clock=FixedClock()) as led:
        for log in ("T2026-001", "T2026-002"):
            led.create(log, lambda now, log=log: Tournament.create(
                log=log, name=f"Open {log}", fmt=make_format("hotc-swiss-de", 4), signer=hj,
                time=now))
            led.write(log, lambda t, now: t.add_official(
                PublicKey(sk.public_key_raw), Role.SCOREKEEPER, "Scorekeeper Sam", hj, now))
            led.write(log, lambda t, now: t.add_official(
                PublicKey(judge.public_key_raw), Role.JUDGE, "Judge Jo", hj, now))
            for i in range(1, 9):
                led.write(log, lambda t, now, i=i: t.register_player(
                    f"Player {i} Ünïcødé", sk, now))
            led.write(log, lambda t, now: t.revoke_official(judge.key_id, "left", hj, now))
            led.write(log, lambda t, now: t.record_seed(
                material="example seed", source="atmospheric", reason="round 1", signer=hj,
                time=now))
            led.write(log, lambda t, now, log=log: t.make_draw(
                ctx=f"{log}/R1/pairing", items=list(range(8, 0, -1)), signer=hj, time=now))
            led.write(log, lambda t, now: t.record_seed(
                material="second seed", source="atmospheric", reason="cut", signer=hj,
                time=now))
            led.write(log, lambda t, now, log=log: t.make_draw(
                ctx=f"{log}/cut", items=[5, 3, 7, 1], signer=hj, time=now))
            led.write(log, lambda t, now: t.close_registration(hj, now))
            add_verifiable_seeds(led, log, hj, path)
        counts = {log: led.load(log).version for log in led.tournament_ids()}
    return counts


def add_verifiable_seeds(led: Any, log: str, hj: Any, path: Path) -> None:
    """A RANDOM.ORG seed, a drand seed and a commit-reveal seed, each used by one draw."""
    from ledger.proofs.checkpoint_store import checkpoint_dir, write_checkpoint
    from ledger.randomness import commands as rc
    from ledger.randomness import drand
    from ledger.randomness.commit import SecretFile
    from ledger.storage.location import Location

    vec = json.loads((VECTORS / "random_org.json").read_text())
    beacon = next(b for b in json.loads((VECTORS / "drand.json").read_text())["beacons"]
                  if b["net"] == "quicknet")
    resp = ('{"random":' + vec["random_raw"] + ',"signature":"' + vec["signature_b64"]
            + '"}').encode()
    led.write(log, lambda t, now: rc.import_random_org(t, resp, reason="seating",
                                                       ctx=f"{log}/seating", signer=hj,
                                                       time=now))
    led.write(log, lambda t, now: t.make_draw(ctx=f"{log}/seating", items=None, signer=hj,
                                              time=now))
    b = drand.Beacon(chain="quicknet", round=1000, signature=bytes.fromhex(beacon["sig"]))
    att = drand.beacon_json(b)
    led.write(log, lambda t, now: rc.import_drand(t, b, att, reason="judges", ctx=f"{log}/j",
                                                  signer=hj, time=now))
    led.write(log, lambda t, now: t.make_draw(ctx=f"{log}/j", items=[1, 2, 3],
                                              universe="judges", signer=hj, time=now))
    com = led.write(log, lambda t, now: rc.commit_seed(
        t, salt=b"s" * 16, secret=b"k" * 32, chain="quicknet", round_no=1000, reason="tables",
        ctx=f"{log}/tables", signer=hj, time=now))
    note, _cp = write_checkpoint(led, log, hj, checkpoint_dir(Location(str(path)), None, log))
    sec = SecretFile(tournament=log, commit_seq=com.seq, chain="quicknet", round=1000,
                     salt=(b"s" * 16).hex(), secret=(b"k" * 32).hex())
    led.write(log, lambda t, now: rc.reveal_seed(t, sec, b, att, note.read_bytes(),
                                                 signer=hj, time=now))
    led.write(log, lambda t, now: t.make_draw(ctx=f"{log}/tables", items=[1, 2, 3, 4],
                                              universe="tables", signer=hj, time=now))


@pytest.fixture(scope="module")
def ledger_file(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    path = tmp_path_factory.mktemp("auditor") / "t.db"
    counts = build_ledger(path)
    return path, counts


def test_inline_draw_v1_matches_design_known_answers() -> None:
    seed = hashlib.sha256(b"tourney-seed/v1\x00" + b"example seed").digest()
    assert seed.hex().startswith("41fc35be") and seed.hex().endswith("e013ad30")
    assert outside_draw_v1(seed, "T2026-001/R1/pairing", list(range(1, 17))) == \
        [11, 7, 12, 3, 6, 2, 15, 1, 10, 16, 4, 14, 8, 9, 5, 13]
    assert outside_draw_v1(seed, "T2026-001/R2/pairing", list(range(1, 17))) == \
        [6, 5, 2, 3, 13, 11, 4, 10, 1, 12, 16, 15, 7, 8, 9, 14]
    assert outside_draw_v1(seed, "T2026-001/cut", [5, 3, 9, 1, 7]) == [1, 9, 7, 5, 3]


def test_verifier_is_self_contained() -> None:
    """The auditor functions reference only the standard library and cryptography."""
    def names(code: Any) -> set[str]:
        out = set(code.co_names)
        for const in code.co_consts:
            if inspect.iscode(const):
                out |= names(const)
        return out

    for fn in AUDITOR_FUNCTIONS:
        used_globals = {n for n in names(fn.__code__) if n in fn.__globals__
                        or n in vars(__import__("builtins"))}
        assert used_globals <= ALLOWED_GLOBALS, (fn.__name__, used_globals - ALLOWED_GLOBALS)
        assert "ledger" not in inspect.getsource(fn).replace("ledger file", "")


def test_plain_sqlite3_verifies_the_ledger(ledger_file: tuple[Path, dict[str, Any]]) -> None:
    path, counts = ledger_file
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        report = outside_verify(con, outside_pins())
    finally:
        con.close()
    assert report["findings"] == []
    assert report["logs"] == list(counts)
    assert report["events"] == sum(counts.values()) == 2 * (17 + 7)


def test_verifier_runs_where_the_project_cannot_be_imported(
        ledger_file: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    path, counts = ledger_file
    script = "\n".join([
        "import sys",
        "for banned in ('ledger', 'projections', 'audit', 'cli', 'msgspec', 'eventsourcing'):",
        "    sys.modules[banned] = None  # any import of these now raises ImportError",
        "import base64, hashlib, json, sqlite3",
        "from typing import Any",
        "from cryptography.exceptions import InvalidSignature",
        "from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey",
        "from cryptography.hazmat.primitives import hashes",
        "from cryptography.hazmat.primitives.asymmetric import padding, rsa",
        "from datetime import datetime",
        "from py_arkworks_bls12381 import GT, G1Point, G2Point",
        *(inspect.getsource(fn) for fn in AUDITOR_FUNCTIONS),
        "con = sqlite3.connect(f'file:{sys.argv[1]}?mode=ro', uri=True)",
        f"pins = json.loads({json.dumps(json.dumps(outside_pins()))})",
        "report = outside_verify(con, pins)",
        "print(json.dumps(report))",
    ])
    (tmp_path / "auditor.py").write_text(script)
    proc = subprocess.run([sys.executable, "-I", str(tmp_path / "auditor.py"), str(path)],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["findings"] == [] and report["events"] == sum(counts.values())


def _flip(con: sqlite3.Connection, log: str, seq: int, pos: int, mask: int) -> bytes:
    (state,), = con.execute("SELECT state FROM stored_events WHERE originator_id = ? AND "
                            "originator_version = ?", (log, seq)).fetchall()
    leaf = bytearray(state)
    leaf[pos] ^= mask
    con.execute("UPDATE stored_events SET state = ? WHERE originator_id = ? AND "
                "originator_version = ?", (bytes(leaf), log, seq))
    return bytes(state)


def test_detects_a_flipped_byte_committed_to_the_file(
        ledger_file: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    src, _ = ledger_file
    path = tmp_path / "tampered.db"
    with sqlite3.connect(src) as s, sqlite3.connect(path) as d:
        s.backup(d)
    con = sqlite3.connect(path)
    try:
        (state,), = con.execute("SELECT state FROM stored_events WHERE originator_id = "
                                "'T2026-001' AND originator_version = 7").fetchall()
        pos = bytes(state).index(b"Player 4") + len("Player ")
        with con:  # committed: Player 4 becomes Player 5 in the stored bytes
            _flip(con, "T2026-001", 7, pos, ord("4") ^ ord("5"))
    finally:
        con.close()
    con = sqlite3.connect(path)
    try:
        report = outside_verify(con, outside_pins())
    finally:
        con.close()
    codes = {(log, seq, code) for log, seq, code, _ in report["findings"]}
    assert ("T2026-001", 7, "bad_signature") in codes
    assert ("T2026-001", 8, "chain_broken") in codes
    assert all(log == "T2026-001" for log, *_ in report["findings"])


def test_detects_a_flipped_draw_result(ledger_file: tuple[Path, dict[str, Any]]) -> None:
    path, counts = ledger_file
    con = sqlite3.connect(path, isolation_level=None)
    try:
        row = con.execute("SELECT originator_version, state FROM stored_events WHERE "
                          "originator_id = 'T2026-002' AND topic = 'draw_made' "
                          "ORDER BY originator_version LIMIT 1").fetchone()
        seq, leaf = row[0], bytes(row[1])
        result_at = leaf.index(b'"result":[') + len(b'"result":[')
        a, b = leaf[result_at], leaf[result_at + 2]  # swap the first two (1-digit) results
        con.execute("BEGIN")
        tampered = bytearray(leaf)
        tampered[result_at], tampered[result_at + 2] = b, a
        con.execute("UPDATE stored_events SET state = ? WHERE originator_id = 'T2026-002' "
                    "AND originator_version = ?", (bytes(tampered), seq))
        report = outside_verify(con, outside_pins())
        con.execute("ROLLBACK")
    finally:
        con.close()
    codes = {(seq_, code) for log, seq_, code, _ in report["findings"]}
    assert (seq, "draw_mismatch") in codes and (seq, "bad_signature") in codes
    assert (seq + 1, "chain_broken") in codes


def test_every_single_bit_flip_of_a_leaf_is_detected(
        ledger_file: tuple[Path, dict[str, Any]], monkeypatch: pytest.MonkeyPatch) -> None:
    """Flip each byte of one stored leaf in turn (UPDATE inside a transaction that is rolled
    back): the outside verifier reports at least one finding every time.

    The whole ledger is verified again for each of the leaf's bytes; a seed's check (a BLS
    pairing or an RSA signature: half the verifier's time) is a function of its event's
    body, the commitments and the pins alone, so each distinct check is made once and its
    verdict reused for the unchanged events (a changed body is a new check)."""
    path, _ = ledger_file
    verdicts: dict[str, str | None] = {}
    check_seed = outside_verify_seed

    def seed_once(body: dict[str, Any], commitments: dict[int, dict[str, Any]],
                  pins: dict[str, Any]) -> str | None:
        key = json.dumps([body, commitments, pins], sort_keys=True)
        if key not in verdicts:
            verdicts[key] = check_seed(body, commitments, pins)
        return verdicts[key]

    monkeypatch.setitem(globals(), "outside_verify_seed", seed_once)
    con = sqlite3.connect(path, isolation_level=None)
    try:
        (leaf,), = con.execute("SELECT state FROM stored_events WHERE originator_id = "
                               "'T2026-001' AND originator_version = 12").fetchall()
        missed = []
        for pos in range(len(leaf)):
            con.execute("BEGIN")
            _flip(con, "T2026-001", 12, pos, 0x01 << (pos % 7))
            report = outside_verify(con, outside_pins())
            con.execute("ROLLBACK")
            if not any(seq == 12 and log == "T2026-001"
                       for log, seq, _, _ in report["findings"]):
                missed.append(pos)
        assert outside_verify(con, outside_pins())["findings"] == []  # rolled back cleanly
    finally:
        con.close()
    assert missed == [], f"undetected flips at byte positions {missed}"


def test_detects_a_malleated_signature_encoding_on_the_last_event(
        ledger_file: tuple[Path, dict[str, Any]]) -> None:
    """Flip an unused low bit of the last base64 symbol of the newest event's ``sig``: the
    64 signature bytes (and so the Ed25519 check) are unchanged, and no later ``prev``
    covers this leaf, yet the stored bytes differ from what was signed and sealed.  Only a
    canonical-base64 check catches it."""
    path, counts = ledger_file
    last = counts["T2026-002"]
    alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    con = sqlite3.connect(path, isolation_level=None)
    try:
        (leaf,), = con.execute("SELECT state FROM stored_events WHERE originator_id = "
                               "'T2026-002' AND originator_version = ?", (last,)).fetchall()
        leaf = bytes(leaf)
        pos = leaf.rindex(b'=="}') - 1  # 64 bytes -> 86 symbols + "==": 4 unused bits
        con.execute("BEGIN")
        old = _flip(con, "T2026-002", last, pos,
                    leaf[pos] ^ alphabet[alphabet.index(leaf[pos]) ^ 1])
        (new,), = con.execute("SELECT state FROM stored_events WHERE originator_id = "
                              "'T2026-002' AND originator_version = ?", (last,)).fetchall()
        assert base64.b64decode(json.loads(new)["sig"]) == \
            base64.b64decode(json.loads(old)["sig"]) and bytes(new) != old
        report = outside_verify(con, outside_pins())
        con.execute("ROLLBACK")
    finally:
        con.close()
    assert [(log, seq, code) for log, seq, code, _ in report["findings"]] == \
        [("T2026-002", last, "non_canonical")]


@pytest.mark.parametrize("defect,code", [
    ("reveal_does_not_open", "reveal_mismatch"),
    ("committed_after_round", "commitment_not_sealed"),
    ("drand_material", "drand_randomness_mismatch"),
    ("random_org_material", "random_org_mismatch"),
])
def test_outside_auditor_catches_forged_verifiable_seeds(tmp_path: Path, defect: str,
                                                         code: str) -> None:
    """The new provenances, forged with valid head-judge signatures (T15, T16, T21, T22)."""
    from tests.conftest import build_small
    from tests.helpers.randomness import (
        _forge_commit_reveal,
        forge_drand_material,
        forge_random_org_swap,
    )

    db = tmp_path / "t.db"
    if defect == "drand_material":
        forge_drand_material(db)
    elif defect == "random_org_material":
        forge_random_org_swap(db)
    else:
        _forge_commit_reveal(build_small(db), commit_time_ok=defect != "committed_after_round",
                             opens=defect != "reveal_does_not_open", with_note=True)
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        report = outside_verify(con, outside_pins())
    finally:
        con.close()
    assert code in {c for _log, _seq, c, _m in report["findings"]}, report["findings"]


def test_outside_auditor_verifies_checkpoints_and_witness_cosignatures(
        tmp_path: Path) -> None:
    """Issue 12: the outside auditor checks a note's head-judge signature, its root and its
    witnesses' tlog-cosignatures without the project's code, and agrees with the audit."""
    from audit.verify import verify_ledger
    from ledger.proofs.checkpoint_store import checkpoint_dir, leaf_hashes, write_checkpoint
    from ledger.proofs.witness import WitnessState, cosign
    from ledger.storage.location import Location
    from ledger.storage.store import Ledger
    from ledger.wire.events import Role
    from ledger.wire.keys import PublicKey, Signer

    path = tmp_path / "t.db"
    build_ledger(path)
    hj = Signer.from_seed(b"\x01" * 32, "Head Judge")
    w = Signer.from_seed(b"\x05" * 32, "Wendy")
    loc, log = Location(str(path)), "T2026-001"
    with Ledger(loc) as led:
        led.write(log, lambda t, now: t.add_official(PublicKey(w.public_key_raw),
                                                     Role.WITNESS, "Wendy", hj, now))
        note_path, _cp = write_checkpoint(led, log, hj, checkpoint_dir(loc, None, log))
        st = led.load(log).state
        cosigned, _ = cosign(note_path.read_bytes(), state=st,
                             leaf_hashes=leaf_hashes(led, log, st.size), signer=w,
                             wstate=WitnessState(key_id=w.key_id), timestamp=1_700_000_000)
    note_path.write_bytes(cosigned)
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        leaves = [bytes(r[0]) for r in con.execute(
            "SELECT state FROM stored_events WHERE originator_id = ? ORDER BY "
            "originator_version", (log,))]
    finally:
        con.close()
    seen = outside_verify_note(cosigned, leaves, log)
    assert seen == {"origin": f"tourney/{log}", "size": len(leaves), "root_ok": True,
                    "signed_by_head_judge": True, "cosigners": [w.key_id], "bad": []}
    assert verify_ledger(loc, log, None).ok
    # a flipped bit in the cosignature: both auditors see it
    line = cosigned.rstrip(b"\n").split(b"\n")[-1]
    name, blob = line.split(b" ")[1:3]
    raw = bytearray(base64.b64decode(blob))
    raw[-1] ^= 1
    bad = cosigned[:cosigned.rindex(line)] + b"\xe2\x80\x94 " + name + b" " + \
        base64.b64encode(bytes(raw)) + b"\n"
    assert outside_verify_note(bad, leaves, log)["bad"] == [w.key_id]
    note_path.write_bytes(bad)
    assert "cosignature_bad" in {f.code for f in verify_ledger(loc, log, None).findings}
