"""A real exported bundle and the mutations the audit fuzz tests apply to it.

Owns: the ``real_bundle`` fixture, ``MUTATION`` (Hypothesis strategy) and ``mutate``.

May import: ``ledger.*``, ``audit.*``, ``hypothesis``, ``pytest``, the standard library.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import strategies as st

from audit.bundle import export_bundle
from ledger.formats.simulation import demo_key, simulate
from ledger.proofs.checkpoint_store import checkpoint_dir, write_checkpoint
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.clock import FixedClock


@pytest.fixture(scope="module")
def real_bundle(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[bytes], list[bytes]]:
    d = tmp_path_factory.mktemp("fuzz")
    loc = Location(str(d / "sim.db"))
    with Ledger(loc, create=True, clock=FixedClock()) as led:
        simulate(led, log="fz", players=6, seed_text="fuzz", cut=2,
                 checkpoints=lambda: checkpoint_dir(loc, None, "fz"))
        write_checkpoint(led, "fz", demo_key("fuzz", "head-judge"),
                         checkpoint_dir(loc, None, "fz"))
        export_bundle(led, "fz", d / "b", checkpoint_dir(loc, None, "fz"))
    lines = (d / "b" / "log.jsonl").read_bytes().split(b"\n")[:-1]
    notes = [p.read_bytes() for p in sorted((d / "b" / "checkpoints").glob("*.note"))]
    return lines, notes


def _reencode(line: bytes, how: int) -> bytes:
    value = json.loads(line)
    if how == 0:
        return json.dumps(value, sort_keys=True).encode()                   # spaces
    if how == 1:
        return json.dumps(value, sort_keys=True, separators=(",", ":"),
                          ensure_ascii=True).encode().replace(b"e", b"\\u0065", 1)
    if how == 2:
        return json.dumps(value, separators=(",", ":")).encode()             # key order
    return json.dumps(value, sort_keys=True, separators=(",", ":"), indent=1).encode()


MUTATION = st.one_of(
    st.tuples(st.just("flip"), st.integers(0, 10**9), st.integers(0, 7)),
    st.tuples(st.just("swap"), st.integers(0, 10**9), st.integers(0, 10**9)),
    st.tuples(st.just("truncate_log"), st.integers(1, 10**9), st.just(0)),
    st.tuples(st.just("truncate_line"), st.integers(0, 10**9), st.integers(0, 10**9)),
    st.tuples(st.just("reencode"), st.integers(0, 10**9), st.integers(0, 3)),
    st.tuples(st.just("duplicate"), st.integers(0, 10**9), st.just(0)),
    st.tuples(st.just("note_flip"), st.integers(0, 10**9), st.integers(0, 7)),
)


def mutate(lines: list[bytes], notes: list[bytes], m: tuple[str, int, int]
           ) -> tuple[list[bytes], list[bytes], bool]:
    """Apply one mutation; returns the new log and notes and whether signed bytes (or the
    set of events a checkpoint covers) changed."""
    kind, a, b = m
    out, ns = list(lines), list(notes)
    if not out or (kind == "truncate_log" and len(out) < 2):
        return out, ns, False
    if kind == "flip":
        blob = bytearray(b"\n".join(out))
        i = a % len(blob)
        blob[i] ^= 1 << b
        out = bytes(blob).split(b"\n")
    elif kind == "swap":
        i, j = a % len(out), b % len(out)
        out[i], out[j] = out[j], out[i]
    elif kind == "truncate_log":
        out = out[:len(out) - 1 - a % (len(out) - 1)]
    elif kind == "truncate_line":
        i = a % len(out)
        out[i] = out[i][:b % len(out[i])] if out[i] else out[i]
    elif kind == "reencode":
        i = a % len(out)
        try:
            out[i] = _reencode(out[i], b)
        except ValueError:  # not JSON any more (an earlier mutation): nothing to re-encode
            pass
    elif kind == "duplicate":
        i = a % len(out)
        out.insert(i, out[i])
    else:
        k = a % len(ns)
        note = bytearray(ns[k])
        note[(a // len(ns)) % len(note)] ^= 1 << b
        ns[k] = bytes(note)
    return out, ns, (out != lines)
