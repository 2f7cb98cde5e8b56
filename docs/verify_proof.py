"""Check a tourney appeal proof file (tourney-proof/v1) without tourney: python verify_proof.py FILE
Needs only the standard library and `cryptography`. Exit 0 = valid, 4 = not, 2 = no readable FILE. Spec: DESIGN.md §4."""
import base64, hashlib, json, sys

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey


def need(ok, why):  # not assert: python -O would strip it
    if not ok: raise ValueError(why)
def h(*parts): return hashlib.sha256(b"".join(parts)).digest()
def canon(o): return json.dumps(o, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
def ed_ok(pub, sig, msg):
    try: Ed25519PublicKey.from_public_bytes(pub).verify(sig, msg); return True
    except Exception: return False

def root_from(leaf, index, size, proof):  # RFC 9162 §2.1.3.2
    if index >= size: raise ValueError("index beyond the tree")
    fn, sn, r = index, size - 1, h(b"\0", leaf)
    for p in proof:
        if sn == 0: raise ValueError("proof too long")
        if fn % 2 == 1 or fn == sn:
            r = h(b"\1", p, r)
            while fn % 2 == 0 and fn != 0: fn, sn = fn >> 1, sn >> 1
        else: r = h(b"\1", r, p)
        fn, sn = fn >> 1, sn >> 1
    if sn != 0: raise ValueError("proof too short")
    return r

def main(data):
    doc = json.loads(data.decode("utf-8"))
    need(doc["version"] == "tourney-proof/v1" and set(doc) == {"version", "tournament", "checkpoint", "event", "keys"}, "not a proof file")
    note = doc["checkpoint"].encode()
    text, sigs = note[:note.rindex(b"\n\n") + 1], note[note.rindex(b"\n\n") + 2:].decode().splitlines(); origin, size, root = text.decode().split("\n")[:3]
    size, root, keys, events, quorum = int(size), base64.b64decode(root), {}, [], 0
    for e in [doc["event"], *doc["keys"]]:
        leaf = base64.b64decode(e["leaf"], validate=True)
        need(base64.b64encode(leaf).decode() == e["leaf"] and all(len(x) == 64 and x == x.lower() for x in e["proof"]), "not canonical")
        need(root_from(leaf, e["seq"] - 1, size, [bytes.fromhex(x) for x in e["proof"]]) == root, f"seq {e['seq']}: not in the checkpoint")
        obj = json.loads(leaf)
        need(canon(obj) == leaf and obj["event"]["seq"] == e["seq"], f"seq {e['seq']}: not canonical")
        need(origin == "tourney/" + obj["event"]["log"], f"seq {e['seq']}: another log"); events.append(obj)
    for o in events[1:]:
        ev, body = o["event"], o["event"]["body"]
        if ev["kind"] == "tournament_created": keys[body["head_judge"]["key_id"]], quorum = (body["head_judge"]["public_key"], True, True, False), (body.get("policy") or {}).get("witness_quorum", 0)
        if ev["kind"] == "official_added": keys[body["key_id"]] = (body["public_key"], body["role"] == "head_judge", False, body["role"] == "witness")
    need(any(v[2] for v in keys.values()), "no genesis event")
    for o in events[1:] + events[:1]:
        ev, pub = o["event"], keys.get(o["event"]["actor"])
        need(pub and ed_ok(base64.b64decode(pub[0]), base64.b64decode(o["sig"]), b"tourney-event/v1\n" + canon(ev)), f"seq {ev['seq']}: bad signature")
        need(o is events[0] or ev["seq"] == 1 or keys[ev["actor"]][2], f"seq {ev['seq']}: key event not signed by the organizer")
    def note_ok(pub):
        kh = h(origin.encode(), b"\n\x01", pub)[:4]
        return any(l.startswith("\u2014 " + origin + " ") and (b := base64.b64decode(l.split(" ")[2]))[:4] == kh and ed_ok(pub, b[4:], text) for l in sigs)
    need(any(v[1] and note_ok(base64.b64decode(v[0])) for v in keys.values()), "checkpoint not signed by a head judge")
    def cosigned(kid, pub, name):  # C2SP tlog-cosignature/v1: key hash, u64 time, Ed25519
        return any(l.startswith("\u2014 " + name + " ") and (b := base64.b64decode(l.split(" ")[2]))[:4] == h(name.encode(), b"\n\x04", pub)[:4] and ed_ok(pub, b[12:], b"cosignature/v1\ntime %d\n" % int.from_bytes(b[4:12], "big") + text) for l in sigs)
    need(sum(bool(v[3] and cosigned(k, base64.b64decode(v[0]), "tourney-witness/" + k)) for k, v in keys.items()) >= quorum, "fewer witness cosignatures than the genesis policy asks")
    need(doc["tournament"] == (ev := events[0]["event"])["log"], "the file names another tournament")
    print(f"OK: {origin} seq {ev['seq']} {ev['kind']} by {ev['actor']} in checkpoint size {size}; genesis {hashlib.sha256(base64.b64decode(doc['keys'][0]['leaf'])).hexdigest()}")

if __name__ == "__main__":  # the exit codes of `tourney audit proof` (DESIGN.md §8, docs/AUDIT.md §3.4)
    try: data = open(sys.argv[1], "rb").read()
    except (IndexError, OSError) as exc: print(f"usage: python verify_proof.py FILE ({exc})", file=sys.stderr); sys.exit(2)
    try: main(data)
    except Exception as exc: print(f"INVALID: {exc}"); sys.exit(4)
