"""The audit's signature pool: presumed jobs read from the bytes, verified in forked workers
while the fold runs, count only when the fold confirms them — so the parallel audit
reports exactly what the one-process audit reports, for every damaged log.

Each case audits the same leaves twice: with every check in this process (the pool's
small-log path) and with the pool forced onto worker processes (threshold 1, three cores:
two workers, blocks of two jobs), and the reports must be identical.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import audit.prechecks as prechecks
import audit.sigpool as sigpool
from audit.findings import Report
from audit.verify import _expected_log, _key_map, audit_leaves, start_signatures
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.canonical import NonCanonicalError
from ledger.wire.events import SIG_DOMAIN, parse_leaf
from tests.conftest import build_small
from tests.helpers.bundle_fuzz import MUTATION, mutate, real_bundle  # noqa: F401 (fixture)

Leaves = list[tuple[int, bytes]]


@pytest.fixture()
def forced(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Worker processes even for a tiny log: two workers, blocks of two jobs."""
    monkeypatch.setattr(sigpool, "PARALLEL_THRESHOLD", 1)
    monkeypatch.setattr(sigpool, "BLOCK", 2)
    monkeypatch.setattr(prechecks, "BLOCK", 2)
    monkeypatch.setattr(sigpool, "usable_cores", lambda: 3)
    yield


def findings(report: Report) -> list[tuple[str, int | None, str]]:
    return [(f.code, f.seq, f.message) for f in report.findings]


def both_ways(leaves: Leaves, monkeypatch: pytest.MonkeyPatch) -> tuple[Report, Report]:
    """The inline audit and the parallel one, whose fold ran on leaves the workers
    cleared ahead of it (``audit.prechecks``) — also compared with a parallel audit that
    did not wait for them (the fold then takes whatever block is not done yet)."""
    inline = audit_leaves(leaves, [])
    with monkeypatch.context() as m:
        m.setattr(sigpool, "PARALLEL_THRESHOLD", 1)
        m.setattr(sigpool, "BLOCK", 2)
        m.setattr(prechecks, "BLOCK", 2)
        m.setattr(sigpool, "usable_cores", lambda: 3)
        raced = audit_leaves(leaves, [])
        log = _expected_log(leaves)
        started = start_signatures(leaves, log)
        pre = started[0].prechecks(log)
        assert pre is not None
        deadline = time.monotonic() + 60
        while not pre.finished():
            assert time.monotonic() < deadline, "the workers never finished the stateless pass"
            time.sleep(0.005)
        assert all(state == 2 for state in pre.blocks)   # every block done by a worker
        parallel = audit_leaves(leaves, [], signatures=started)
    assert findings(raced) == findings(parallel)
    return inline, parallel


@pytest.fixture()
def small_leaves(tmp_path: Path) -> Leaves:
    loc: Location = build_small(tmp_path / "t.db")
    with Ledger(loc, readonly=True) as led:
        return list(led.raw_leaves("t1"))


def test_presumed_job_of_a_canonical_leaf_is_the_folds_job(small_leaves: Leaves) -> None:
    keys = _key_map(small_leaves)
    for _v, leaf in small_leaves:
        parsed = parse_leaf(leaf)
        assert parsed.noncanonical is None
        ev = parsed.event
        assert sigpool.reads_as(leaf, ev.actor, ev.sig)
        assert sigpool.presumed_job(leaf, keys, SIG_DOMAIN) == (
            ev.actor, (keys[ev.actor], ev.sig, SIG_DOMAIN + parsed.signed_bytes))


def _replace(leaves: Leaves, i: int, new: bytes) -> Leaves:
    out = list(leaves)
    out[i] = (out[i][0], new)
    return out


def _cases(leaves: Leaves) -> dict[str, Leaves]:
    v, leaf = leaves[4]
    sig_at = leaf.rindex(b',"sig":"') + len(b',"sig":"')
    other_sig = leaves[5][1][leaves[5][1].rindex(b',"sig":"') + 8:-2]
    judge = parse_leaf(leaves[1][1]).event.body.key_id        # type: ignore[attr-defined]
    actor = parse_leaf(leaf).event.actor
    return {
        "clean": leaves,
        "body byte flipped": _replace(leaves, 4, leaf.replace(b"Player", b"Playex", 1)),
        "signature of another event": _replace(leaves, 4, leaf[:sig_at] + other_sig + b'"}'),
        "signature not canonical base64": _replace(
            leaves, 4, leaf[:-4] + bytes([leaf[-4] ^ 1]) + leaf[-3:]),
        "actor swapped to another official": _replace(
            leaves, 4, leaf.replace(actor.encode(), judge.encode(), 1)),
        "leaf re-encoded with spaces (not canonical)": _replace(
            leaves, 4, leaf.replace(b'{"event":{', b'{"event": {', 1)),
        "space inside the event (not canonical, reads as presumed)": _replace(
            leaves, 4, leaf.replace(b'","body":', b'", "body":', 1)),
        "every leaf not canonical": [(ver, x.replace(b'{"event":{', b'{"event": {', 1))
                                     for ver, x in leaves],
        "malformed leaf": _replace(leaves, 4, leaf[:40]),
        "empty line": _replace(leaves, 4, b""),
        "actor escaped": _replace(leaves, 4, leaf.replace(
            b'"actor":"' + actor.encode()[:1], b'"actor":"\\u00' +
            f"{actor.encode()[0]:02x}".encode(), 1)),
        "two lines swapped": [leaves[0], leaves[2], leaves[1], *leaves[3:]],
        "version gap": [*leaves[:3], *leaves[4:]],
    }


CASES = ["clean", "body byte flipped", "signature of another event",
         "signature not canonical base64", "actor swapped to another official",
         "leaf re-encoded with spaces (not canonical)",
         "space inside the event (not canonical, reads as presumed)",
         "every leaf not canonical",
         "malformed leaf", "empty line", "actor escaped", "two lines swapped", "version gap"]


@pytest.mark.parametrize("case", CASES)
def test_the_parallel_audit_reports_what_the_inline_audit_reports(
        case: str, small_leaves: Leaves, monkeypatch: pytest.MonkeyPatch) -> None:
    leaves = _cases(small_leaves)[case]
    inline, parallel = both_ways(leaves, monkeypatch)
    assert findings(parallel) == findings(inline)
    assert parallel.ok is (case == "clean")
    if case in ("body byte flipped", "signature of another event", "actor swapped to "
                "another official"):
        assert ("bad_signature", 5) in {(f.code, f.seq) for f in parallel.findings}


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mutations=st.lists(MUTATION, min_size=1, max_size=3))
def test_mutated_logs_audit_the_same_in_parallel(
        real_bundle: tuple[list[bytes], list[bytes]],  # noqa: F811
        mutations: list[tuple[str, int, int]], monkeypatch: pytest.MonkeyPatch) -> None:
    lines, notes = real_bundle
    for m in mutations:
        lines, notes, _ = mutate(lines, notes, m)
    leaves = [(i, line) for i, line in enumerate(lines, start=1)]
    inline, parallel = both_ways(leaves, monkeypatch)
    assert findings(parallel) == findings(inline)


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mutations=st.lists(MUTATION, min_size=1, max_size=3))
def test_a_leaf_that_reads_as_its_event_has_the_folds_job_presumed(
        real_bundle: tuple[list[bytes], list[bytes]],  # noqa: F811
        mutations: list[tuple[str, int, int]]) -> None:
    """What the fold's cheap confirmation accepts, ``presumed_job`` reads as the fold's own
    job (same actor, key, signature and signing input), on damaged leaves too."""
    lines, notes = real_bundle
    for m in mutations:
        lines, notes, _ = mutate(lines, notes, m)
    leaves = [(i, line) for i, line in enumerate(lines, start=1)]
    keys = _key_map(leaves)
    for _v, leaf in leaves:
        try:
            parsed = parse_leaf(leaf)
        except NonCanonicalError:
            continue
        ev = parsed.event
        if parsed.noncanonical is None and ev.actor in keys and \
                sigpool.reads_as(leaf, ev.actor, ev.sig):
            assert sigpool.presumed_job(leaf, keys, SIG_DOMAIN) == (
                ev.actor, (keys[ev.actor], ev.sig, SIG_DOMAIN + parsed.signed_bytes))


def _dies_at_five(i: int) -> sigpool.Job | None:
    if i == 5 and os.getpid() != PARENT:
        os._exit(3)                       # a worker dies in the middle of its block
    return JOBS[i]


PARENT = os.getpid()
JOBS: list[sigpool.Job] = []


def test_jobs_a_dead_worker_left_are_verified_by_the_parent(
        small_leaves: Leaves, monkeypatch: pytest.MonkeyPatch) -> None:
    keys = _key_map(small_leaves)
    jobs = [got[1] for _v, leaf in small_leaves
            if (got := sigpool.presumed_job(leaf, keys, SIG_DOMAIN)) is not None]
    pub, sig, msg = jobs[3]
    jobs[3] = (pub, sig, msg + b" ")                              # one invalid
    monkeypatch.setattr(sigpool, "BLOCK", 4)
    monkeypatch.setattr(sys.modules[__name__], "JOBS", jobs)
    monkeypatch.setattr(sys.modules[__name__], "PARENT", os.getpid())
    shared = sigpool._Shared(_dies_at_five, len(jobs), workers=1)
    verdicts = shared.results()
    assert verdicts == [sigpool._INVALID if k == 3 else sigpool._VALID
                        for k in range(len(jobs))]


def test_a_confirmed_presumed_job_counts_and_an_unconfirmed_one_does_not(
        small_leaves: Leaves, forced: None) -> None:
    leaves = _replace(small_leaves, 4, small_leaves[4][1].replace(b"Player", b"Playex", 1))
    pool = sigpool.SignaturePool(len(leaves))
    pool.presubmit(leaves, _key_map(leaves), SIG_DOMAIN)
    assert pool._shared is not None
    for i, (_v, leaf) in enumerate(leaves, start=1):
        if i != 2:                                   # leaf 2 is left unconfirmed
            ev = parse_leaf(leaf).event
            assert pool.confirm(i, leaf, ev.actor, ev.sig, True)
    ev2, ev0, ev5 = (parse_leaf(leaves[k][1]).event for k in (2, 0, 5))
    assert not pool.confirm(3, leaves[2][1], "someone else", ev2.sig, True)
    assert not pool.confirm(1, leaves[0][1], ev0.actor, b"x" * 64, True)
    assert not pool.confirm(6, leaves[5][1], ev5.actor, ev5.sig, False)   # not canonical
    assert pool.failures() == [5]


def test_close_stops_the_workers(small_leaves: Leaves, forced: None) -> None:
    pool = sigpool.SignaturePool(len(small_leaves))
    pool.presubmit(small_leaves, _key_map(small_leaves), SIG_DOMAIN)
    shared = pool._shared
    assert shared is not None and shared.procs
    pool.close()
    assert all(not p.is_alive() for p in shared.procs)
