"""Running ``tourney`` from a test: in this process (the default) or as a real subprocess.

Owns: ``Cli`` (a ledger, a working directory and an environment; ``cli(*args, code=…)``
runs one command line and checks its exit code, that a failure says so in one line on
stderr and that no private key is printed), ``Run`` (exit code, stdout, stderr;
``.doc`` parses stdout as exactly one JSON document), ``run_in_process`` (the in-process
runner), ``snapshot``/``raw_bytes`` (a ledger's bytes, to show a refusal wrote nothing),
``remember_secret`` (a key file whose private lines no output may contain), ``CLOCK`` and
``TOURNEY`` (the command of a real process).

In-process runs call ``cli.main.run`` — the console script's entry point and the CLI's one
catch point — with the command line, with the working directory, the environment
(``TOURNEY_LEDGER``, ``TOURNEY_FIXED_CLOCK``, …) and stdin/stdout/stderr of that command
swapped in for the call and restored after it, and ``SystemExit`` read as the exit code.
An interpreter's start-up and imports are what a subprocess costs (0.7–1 s a command);
the process contract itself — exit codes and output of a real process, start-up, signals,
pipes — is tested with ``Cli(..., subprocess=True)`` (tests/test_cli_contract.py and the
tests that time or kill a process).  ``TOURNEY_TEST_SUBPROCESS=1`` runs every command as a
subprocess (to check that the two ways agree).  ``tourney serve`` always runs as a process,
and so does every command while a server runs in the test process (``serving``): a process
forked from a server that imported the CLI once (tests/helpers/fork_cli.py), not a fresh
interpreter.

May import: ``cli.main`` and ``tests.helpers.fork_cli`` (lazily), the standard library.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CLOCK = "2026-03-01T09:00:00.000000Z"
ROOT = Path(__file__).resolve().parents[2]
SUBPROCESS_ENV = "TOURNEY_TEST_SUBPROCESS"
_SECRETS: list[str] = []  # base64 lines of every private key file created by a test
_LOCK = threading.RLock()  # one in-process command at a time (cwd, env, std streams)
#: commands that always run as a process (they serve until stopped, or set up logging)
_PROCESS_ONLY = frozenset({"serve"})
#: servers running in this process (tests/helpers/live.py): while one runs, commands run as
#: processes — a command in this process would share its environment, working directory,
#: std streams and module state with the server's thread
_SERVING = [0]


@contextmanager
def serving() -> Iterator[None]:
    """While a server runs in this process, ``tourney`` commands run as processes."""
    _SERVING[0] += 1
    try:
        yield
    finally:
        _SERVING[0] -= 1


def _command() -> list[str]:
    found = shutil.which("tourney") or shutil.which(
        "tourney", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-m", "cli.main"]


TOURNEY = _command()


@dataclass
class Run:
    code: int
    out: str
    err: str

    @property
    def doc(self) -> Any:
        """stdout as exactly one JSON document (json.loads refuses trailing data)."""
        assert self.out.endswith("\n") and self.out.count("\n") == 1, self.out
        return json.loads(self.out)


def _stream(data: bytes = b"") -> io.TextIOWrapper:
    """A text stream over bytes, with ``.buffer`` as a real one has (line-buffered)."""
    return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="replace",
                            line_buffering=True, write_through=True)


def _text(stream: io.TextIOWrapper) -> str:
    stream.flush()
    raw = stream.buffer
    assert isinstance(raw, io.BytesIO)
    # as subprocess.run(text=True): universal newlines
    return raw.getvalue().decode("utf-8", errors="replace").replace("\r\n", "\n")


def _reset_cli_state() -> None:
    """Module state of the CLI that one command sets and a process would lose."""
    import cli.common

    cli.common._json_seen = False


def run_in_process(args: list[str], *, cwd: Path, env: dict[str, str],
                   input: str | None = None) -> Run:
    """``tourney args`` through ``cli.main.run`` in this process (see the module doc)."""
    from cli.main import run

    with _LOCK:
        saved_env = dict(os.environ)
        saved_cwd = os.getcwd()
        saved = sys.stdin, sys.stdout, sys.stderr, sys.argv
        out, err = _stream(), _stream()
        code: int
        try:
            for k in [k for k in os.environ if k not in env]:
                del os.environ[k]
            os.environ.update(env)
            os.chdir(cwd)
            sys.stdin = _stream((input or "").encode())
            sys.stdout, sys.stderr = out, err
            sys.argv = ["tourney", *args]
            _reset_cli_state()
            try:
                run(list(args))
                code = 0  # pragma: no cover - run() always exits
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None
                                                                   else 1)
        finally:
            sys.stdin, sys.stdout, sys.stderr, sys.argv = saved
            os.chdir(saved_cwd)
            os.environ.clear()
            os.environ.update(saved_env)
            _reset_cli_state()
        return Run(code, _text(out), _text(err))


def run_process(args: list[str], *, cwd: Path, env: dict[str, str],
                input: str | None = None, timeout: float = 60) -> Run:
    proc = subprocess.run([*TOURNEY, *args], cwd=cwd, capture_output=True, text=True,
                          env=env, timeout=timeout, input=input,
                          stdin=None if input is not None else subprocess.DEVNULL)
    return Run(proc.returncode, proc.stdout, proc.stderr)


def tourney(*args: str, cwd: Path, env: dict[str, str], input: str | None = None,
            process: bool = False) -> Run:
    """``tourney args`` with exactly this environment, unchecked: in this process unless
    ``process`` (or ``TOURNEY_TEST_SUBPROCESS=1``, or a command that serves)."""
    if process or os.environ.get(SUBPROCESS_ENV) == "1" or _PROCESS_ONLY.intersection(args):
        return run_process(list(args), cwd=cwd, env=env, input=input)
    if _SERVING[0]:
        return run_forked_process(list(args), cwd=cwd, env=env, input=input)
    return run_in_process(list(args), cwd=cwd, env=env, input=input)


def run_forked_process(args: list[str], *, cwd: Path, env: dict[str, str],
                       input: str | None = None, timeout: float = 60) -> Run:
    """``tourney args`` as a process of its own, forked from a server that has imported
    the CLI once (tests/helpers/fork_cli.py): what ``serving`` needs — another process —
    without an interpreter's start-up each command."""
    from tests.helpers.fork_cli import run_forked

    def fresh() -> tuple[int, str, str]:
        r = run_process(args, cwd=cwd, env=env, input=input, timeout=timeout)
        return r.code, r.out, r.err

    code, out, err = run_forked(args, cwd=cwd, env=env, input=input, timeout=timeout,
                                argv0=TOURNEY[0], fallback=fresh)
    return Run(code, out.replace("\r\n", "\n"), err.replace("\r\n", "\n"))


class Cli:
    """``tourney`` against one ledger from one directory (see the module doc)."""

    def __init__(self, cwd: Path, ledger: Path, *, subprocess: bool = False) -> None:
        self.cwd = cwd
        self.ledger = ledger
        self.subprocess = subprocess or os.environ.get(SUBPROCESS_ENV) == "1"
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("TOURNEY_")}
        self.env.update(TOURNEY_LEDGER=str(ledger), TOURNEY_FIXED_CLOCK=CLOCK,
                        PYTHONPATH=str(ROOT))

    def as_process(self) -> Cli:
        """The same CLI (directory, ledger, environment) run as real processes."""
        other = Cli(self.cwd, self.ledger, subprocess=True)
        other.env = self.env
        return other

    def plain(self, *args: str, env: dict[str, str] | None = None,
              input: str | None = None) -> Run:
        """Run ``tourney args`` with no check but that no private key is printed."""
        return no_secret_in(tourney(*args, cwd=self.cwd, env={**self.env, **(env or {})},
                                    input=input, process=self.subprocess))

    def __call__(self, *args: str, code: int | None = 0,
                 env: dict[str, str] | None = None, input: str | None = None) -> Run:
        """Run ``tourney args``; the exit code must be ``code`` (None: any code)."""
        run = self.plain(*args, env=env, input=input)
        both = run.out + run.err
        assert code is None or run.code == code, \
            f"tourney {' '.join(args)} -> {run.code}\n{both}"
        if run.code != 0:  # a failure says what went wrong in one line on stderr
            assert run.err.strip() and len(run.err.strip().splitlines()) == 1, run.err
        return run


def no_secret_in(run: Run) -> Run:
    both = run.out + run.err
    assert "PRIVATE KEY" not in both
    for secret in _SECRETS:
        assert secret not in both, "a private key was printed"
    return run


def remember_secret(pem_file: Path) -> None:
    for line in pem_file.read_text().splitlines():
        if line and not line.startswith(("#", "-----")):
            _SECRETS.append(line)


def snapshot(db: Path) -> tuple[bytes, bytes]:
    """The ledger's bytes after folding any WAL into the main file."""
    with closing(sqlite3.connect(db)) as con:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return raw_bytes(db)


def raw_bytes(db: Path) -> tuple[bytes, bytes]:
    wal = db.with_name(db.name + "-wal")
    return db.read_bytes(), wal.read_bytes() if wal.exists() else b""
