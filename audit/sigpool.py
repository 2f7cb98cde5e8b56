"""Batch Ed25519 verification on every core.

Owns: ``verify_batch`` (one process) and ``SignaturePool``; re-exports ``presumed_job`` (a
leaf's signature job read straight from its bytes, as if the leaf were canonical) and
``reads_as`` (the fold's cheap confirmation that it does) of ``audit.leaf_shape``.  For a large
log the pool forks worker processes — one fewer than the cores, since the audit's own
process is busy with the fold — as soon as the log and its keys are read; they inherit the
leaves, take blocks of them through one shared counter, read each leaf's presumed job and
write its verdict into shared memory (nothing is pickled, nothing waits for the busy
parent).  When the fold is over the
parent takes blocks from the same counter until none is left, then verifies the jobs the
fold added (leaves that were not canonical) on every core the same way.  The audit is
judged by its rate against the machine's raw verify rate (docs/DESIGN.md §9); this is where
that rate is spent.

A presumed verdict counts only for a leaf the fold *confirms*: canonical, with the same
actor and signature the fold decoded — then the presumed signing input is exactly the
fold's (``ledger.wire.events.parse_leaf`` slices a canonical leaf the same way).  Any other leaf
gets the fold's own job and the presumed verdict is ignored.

Before any signature the workers run the stateless checks of every leaf for the fold
(``audit.prechecks``, issue 22 item 9): the fold then does only state transitions and
rule re-derivation for the leaves they cleared.

May import: ``cryptography``, the standard library, ``audit.leaf_shape``, ``audit.prechecks``
(lazily, once workers are started).
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from functools import lru_cache
from multiprocessing.process import BaseProcess
from typing import TYPE_CHECKING, Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from audit.leaf_shape import Job as Job
from audit.leaf_shape import presumed_job as presumed_job
from audit.leaf_shape import reads_as as reads_as

if TYPE_CHECKING:
    from audit.prechecks import Prechecks

#: jobs one process claims at a time (a few milliseconds of work)
BLOCK = 64
PARALLEL_THRESHOLD = 4096


def usable_cores() -> int:
    """The cores this process may run on (``taskset`` and cgroups included)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


@lru_cache(maxsize=256)
def _key(raw: bytes) -> Ed25519PublicKey:
    return Ed25519PublicKey.from_public_bytes(raw)


def verify_batch(jobs: Sequence[Job]) -> list[bool]:
    out = []
    for pub, sig, msg in jobs:
        try:
            _key(pub).verify(sig, msg)
            out.append(True)
        except (InvalidSignature, ValueError):
            out.append(False)
    return out


#: verdict bytes in shared memory
_PENDING, _VALID, _INVALID, _NO_JOB = 0, 1, 2, 3


class _Shared:
    """``count`` jobs (``job(i)``, or ``None`` when there is none) verified by several
    processes: a claim counter under a lock and one verdict byte per job in shared memory.
    The workers are forked at once and inherit everything ``job`` needs."""

    def __init__(self, job: Callable[[int], Job | None], count: int, workers: int,
                 first: Callable[[Any, Any], Prechecks] | None = None) -> None:
        ctx = multiprocessing.get_context("fork")
        self.job, self.count = job, count
        self.next: Any = ctx.RawValue("q", 0)
        self.lock = ctx.Lock()
        #: the stateless pass the workers run before any signature (``audit.prechecks``)
        self.first = first(ctx, self.lock) if first is not None else None
        self.verdicts: Any = ctx.RawArray("b", count)
        self.procs: list[BaseProcess] = [ctx.Process(target=self._worker, daemon=True)
                                         for _ in range(workers)]
        for p in self.procs:
            p.start()

    def _worker(self) -> None:
        """A forked worker: verify, then leave at once — no flushing of the parent's
        streams or exit handlers, whose locks another thread may have held at the fork."""
        code = 0
        try:
            if self.first is not None:
                self.first.work()
            self.work()
        except BaseException:   # noqa: BLE001 - the parent verifies what is left
            code = 1
        os._exit(code)

    def work(self) -> None:
        """Claim blocks until none is left (the workers; the parent once its fold is over)."""
        while True:
            with self.lock:
                start = self.next.value
                if start >= self.count:
                    return
                self.next.value = start + BLOCK
            for k in range(start, min(start + BLOCK, self.count)):
                self.verdicts[k] = self._verdict(k)

    def _verdict(self, k: int) -> int:
        job = self.job(k)
        if job is None:
            return _NO_JOB
        return _VALID if verify_batch([job])[0] else _INVALID

    def results(self) -> list[int]:
        """Join in, wait for the workers; what a worker left (it died) is verified here."""
        self.work()
        for p in self.procs:
            p.join()
        return [v or self._verdict(k) for k, v in enumerate(self.verdicts)]

    def stop(self) -> None:
        with self.lock:
            self.next.value = self.count
            if self.first is not None:
                self.first.stop()
        for p in self.procs:
            p.join()


class SignaturePool:
    """Collect jobs; verify them on every core (or inline for small logs)."""

    def __init__(self, expected: int, workers: int | None = None) -> None:
        cores = usable_cores() if workers is None else workers + 1
        self._workers = cores - 1 if expected >= PARALLEL_THRESHOLD and cores > 1 else 0
        self._log: str | None = None
        self._presume: Callable[[int], Job | None] | None = None
        self._confirmed: list[int] = []
        self._shared: _Shared | None = None
        self._tags: list[int] = []
        self._jobs: list[Job] = []

    def presubmit(self, leaves: Sequence[tuple[int, bytes]], keys: dict[str, bytes],
                  domain: bytes, log: str | None = None) -> None:
        """Start worker processes right away, before the fold has parsed anything: they
        run the stateless checks of every leaf of tournament ``log`` (``prechecks``),
        then verify the presumed job of every leaf (tag = position, from 1).  Without
        workers (a small log, one core) nothing is presumed: the fold adds every job."""
        if not self._workers or not leaves:
            return
        from audit.prechecks import Prechecks

        def job(i: int) -> Job | None:
            got = presumed_job(leaves[i][1], keys, domain)
            return None if got is None else got[1]

        self._presume, self._log = job, log
        self._shared = _Shared(job, len(leaves), self._workers,
                               lambda ctx, lock: Prechecks(ctx, lock, leaves, log, keys))

    def prechecks(self, log: str | None) -> Prechecks | None:
        """The workers' stateless pass over these leaves, if they run one for ``log``."""
        shared = self._shared
        return shared.first if shared is not None and self._log == log else None

    def counted(self, tag: int) -> None:
        """Leaf ``tag`` was cleared by the stateless pass: its presumed verdict counts."""
        self._confirmed.append(tag)

    def confirm(self, tag: int, leaf: bytes, actor: str, sig: bytes, canonical: bool) -> bool:
        """Whether the presumed job of leaf ``tag`` is the job the fold would submit, so
        its verdict counts: the leaf is canonical and begins with its actor as the first
        field and ends with its signature as the last (``presumed_job`` then reads exactly
        that actor and signature, and the signing input ``parse_leaf`` slices)."""
        if self._presume is None or not canonical or not reads_as(leaf, actor, sig):
            return False
        self._confirmed.append(tag)
        return True

    def add(self, tag: int, job: Job) -> None:
        """A job of the fold's own (always counted)."""
        self._tags.append(tag)
        self._jobs.append(job)

    def failures(self) -> list[int]:
        """Tags of every counted job whose signature did not verify (waits for all): the
        fold's own jobs, and presumed jobs the fold confirmed."""
        bad: list[int] = []
        if self._shared is not None:
            verdicts = self._shared.results()
            self._shared = None
            bad.extend(tag for tag in self._confirmed if verdicts[tag - 1] != _VALID)
        if len(self._jobs) >= PARALLEL_THRESHOLD and self._workers:
            ok = [v == _VALID for v in
                  _Shared(self._jobs.__getitem__, len(self._jobs), self._workers).results()]
        else:
            ok = verify_batch(self._jobs)
        bad.extend(tag for tag, good in zip(self._tags, ok, strict=True) if not good)
        return sorted(bad)

    def close(self) -> None:
        """Stop early (the audit did not finish): the workers end after their block."""
        if self._shared is not None:
            self._shared.stop()
            self._shared = None
