"""Batch Ed25519 verification on every core.

Owns: ``verify_batch`` (one process) and ``SignaturePool`` (a process pool fed in chunks,
so the audit's sequential checks overlap with signature checks).  The audit is judged by
its rate against the machine's raw verify rate (DESIGN.md §9); this is where that rate is
spent.

May import: ``cryptography``, the standard library.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from functools import lru_cache

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

Job = tuple[bytes, bytes, bytes]  # (raw public key, signature, message)
#: jobs per submission: small enough that the last chunks (verified after the fold has
#: finished, one core each) end together, large enough that submitting costs nothing
CHUNK = 256
PARALLEL_THRESHOLD = 4096


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


class SignaturePool:
    """Collect jobs; verify them in worker processes (or inline for small logs)."""

    def __init__(self, expected: int) -> None:
        workers = self._workers = os.cpu_count() or 1
        self._parallel = expected >= PARALLEL_THRESHOLD and workers > 1
        self._executor: ProcessPoolExecutor | None = None
        if self._parallel:
            ctx = multiprocessing.get_context("fork")
            self._executor = ProcessPoolExecutor(max_workers=workers, mp_context=ctx)
        self._pending: list[Job] = []
        self._tags: list[int] = []
        self._futures: list[tuple[list[int], Future[list[bool]]]] = []
        self._inline: list[tuple[int, bool]] = []

    def add(self, tag: int, job: Job) -> None:
        self._pending.append(job)
        self._tags.append(tag)
        if len(self._pending) >= CHUNK:
            self._flush()

    def _flush(self, parts: int = 1) -> None:
        if not self._pending:
            return
        jobs, tags = self._pending, self._tags
        self._pending, self._tags = [], []
        if self._executor is not None:
            step = -(-len(jobs) // parts)
            for i in range(0, len(jobs), step):
                self._futures.append((tags[i:i + step],
                                      self._executor.submit(verify_batch, jobs[i:i + step])))
        else:
            self._inline.extend(zip(tags, verify_batch(jobs), strict=True))

    def failures(self) -> list[int]:
        """Tags of every job whose signature did not verify (waits for all)."""
        self._flush(parts=self._workers)   # the last jobs shared by every worker
        bad = [tag for tag, ok in self._inline if not ok]
        for tags, fut in self._futures:
            bad.extend(tag for tag, ok in zip(tags, fut.result(), strict=True) if not ok)
        if self._executor is not None:
            self._executor.shutdown()
        return sorted(bad)
