"""A real full disk for storage-failure tests: a small tmpfs mounted for one test.

Owns: ``small_disk`` — a context manager mounting a tmpfs of a given size (needs root, or
CAP_SYS_ADMIN) and unmounting it afterwards; ``disk_skip_reason`` says why a test cannot
have one here (the test is then skipped with that reason, never faked).

May import: the standard library.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def disk_skip_reason() -> str | None:
    if os.geteuid() != 0:
        return "mounting a small tmpfs (a real full disk) needs root"
    return None


@contextmanager
def small_disk(where: Path, size: str) -> Iterator[Path]:
    """``where`` (created) with a tmpfs of ``size`` (e.g. ``"256k"``) mounted on it."""
    where.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        import pytest
        pytest.skip(f"cannot mount a tmpfs here: {proc.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def fill(disk: Path, leave: int = 0) -> None:
    """Fill ``disk`` until at most ``leave`` bytes are free."""
    n = 0
    while True:
        st = os.statvfs(disk)
        free = st.f_bavail * st.f_frsize
        if free <= leave:
            return
        chunk = min(free - leave, 1 << 16)
        try:
            with open(disk / f"filler-{n}", "wb") as fh:
                fh.write(b"\0" * chunk)
        except OSError:
            return
        n += 1
