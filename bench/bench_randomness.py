"""Benchmark: offline verification of foreign randomness (ADR 0008).

Times, side by side in one run, the drand BLS12-381 verification of the project's library
(py_arkworks_bls12381, quicknet G1 and chained G2) against the alternatives when they are
importable (py_ecc, pure Python; drand-verify, Rust bindings), and the RANDOM.ORG
RSA-4096/SHA-512 check.  The vectors are tests/vectors/randomness/.

    python bench/bench_randomness.py [--repeat 30]
Prints one line per variant: BENCH verify name=… ms_median=… ratio_vs_arkworks=…
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from ledger.randomness import drand, random_org

VEC = Path(__file__).resolve().parents[1] / "tests" / "vectors" / "randomness"


def _time(fn: Callable[[], object], repeat: int) -> float:
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        runs.append((time.perf_counter() - t0) * 1000)
    return statistics.median(runs)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=30)
    args = ap.parse_args()
    d = json.loads((VEC / "drand.json").read_text())
    q = next(b for b in d["beacons"] if b["net"] == "quicknet")
    c = next(b for b in d["beacons"] if b["round"] == 3311596)
    qb = drand.Beacon(chain="quicknet", round=1000, signature=bytes.fromhex(q["sig"]))
    cb = drand.Beacon(chain="default", round=c["round"], signature=bytes.fromhex(c["sig"]),
                      previous_signature=bytes.fromhex(c["prev"]))
    r = json.loads((VEC / "random_org.json").read_text())
    resp = ('{"random":' + r["random_raw"] + ',"signature":"' + r["signature_b64"]
            + '"}').encode()
    results: dict[str, float] = {
        "arkworks_quicknet": _time(lambda: drand.verify_beacon(qb), args.repeat),
        "arkworks_chained": _time(lambda: drand.verify_beacon(cb), args.repeat),
        "random_org_rsa4096": _time(lambda: random_org.verify_signed(resp), args.repeat),
    }
    try:
        import drand_verify  # type: ignore[import-not-found]
        pk = d["chains"]["quicknet"]["public_key"]
        results["drand_verify_quicknet"] = _time(
            lambda: drand_verify.verify_quicknet(1000, q["sig"], pk), args.repeat)
    except ImportError:
        pass
    try:
        from py_ecc.bls.hash_to_curve import hash_to_G1  # type: ignore[import-not-found]
        from py_ecc.bls.point_compression import (  # type: ignore[import-not-found]
            decompress_G1,
            decompress_G2,
        )
        from py_ecc.optimized_bls12_381 import G2, pairing  # type: ignore[import-not-found]
        pkb = bytes.fromhex(d["chains"]["quicknet"]["public_key"])

        def ecc() -> bool:
            s = decompress_G1(int.from_bytes(bytes.fromhex(q["sig"]), "big"))
            p = decompress_G2((int.from_bytes(pkb[:48], "big"),
                               int.from_bytes(pkb[48:], "big")))
            h = hash_to_G1(hashlib.sha256((1000).to_bytes(8, "big")).digest(),
                           drand.DST_G1, hashlib.sha256)
            return bool(pairing(G2, s) == pairing(p, h))
        results["py_ecc_quicknet"] = _time(ecc, max(2, args.repeat // 10))
    except ImportError:
        pass
    base = results["arkworks_quicknet"]
    for name, ms in results.items():
        print(f"BENCH verify name={name} ms_median={ms:.3f} ratio_vs_arkworks={ms / base:.2f}")


if __name__ == "__main__":
    main()
