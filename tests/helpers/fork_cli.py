"""``tourney`` commands as real processes without an interpreter's start-up each: a fork
server (issue 33).

While a server runs in the test process (``cli_runner.serving``), a test's ``tourney``
commands must be processes of their own: a command in the test process would share the
server thread's environment, working directory, std streams and module state, and closing
its SQLite connection would drop the server's POSIX locks on the file (they are per
process).  A fresh interpreter costs 0.7–1 s a command (start-up and imports).  This
module is both ends of a cheaper way:

* the **server** (``python -m tests.helpers.fork_cli``, one per test process, started on
  first use): imports ``cli.main`` and every ``cli`` module once, then for each request
  forks; the child sets the command's working directory, environment, ``sys.argv``, and
  files as its fds 0/1/2, and calls ``cli.main.run`` — the console script's entry point —
  whose ``SystemExit`` ends the child as it ends a real ``tourney`` process (exit code,
  ``atexit`` handlers and stream flushes).  The server answers with the exit status
  (negative for a signal, as ``subprocess``) and the two outputs;
* the **client** (``run_forked``): one request at a time per server; a second thread
  asking meanwhile gets a fresh process (``fallback``), so concurrent commands stay
  concurrent.  A command over its timeout kills the server (and its child) and raises
  ``subprocess.TimeoutExpired``, as ``subprocess.run`` does.

Each command is its own process (own pid, own file locks, module state copied from a
pristine parent, never shared); what differs from a fresh interpreter is only what
start-up does: imports are already done, and the hash seed is the server's.  The process
contract itself (start-up, imports, ``--version``, exit codes of a real ``tourney``) stays
with ``Cli(..., subprocess=True)``; ``TOURNEY_TEST_SUBPROCESS=1`` makes every command a
fresh process again.

May import: ``cli.*`` (in the server only), the standard library.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

ROOT = Path(__file__).resolve().parents[2]

# ---------------------------------------------------------------- the server (child side)


#: what the commands import, lazily or not (``server`` only for ``tourney serve``, which
#: always runs as a fresh process)
PACKAGES = ("cli", "ledger", "projections", "audit", "usecases")


def _preimport() -> None:
    import gc
    import importlib
    import pkgutil

    for top in PACKAGES:
        pkg = importlib.import_module(top)
        for mod in pkgutil.walk_packages(pkg.__path__, top + "."):
            if mod.name.endswith("__main__"):
                continue
            try:
                importlib.import_module(mod.name)
            except Exception:  # noqa: BLE001  (a module that cannot load: the child says so)
                pass
    gc.freeze()   # the children share these objects' pages instead of copying them


def _child(req: dict[str, Any], work: Path, proto: tuple[int, int]) -> NoReturn:
    """In the forked child: become ``tourney <args>``, and end with its exit code
    (``os._exit`` after the ``atexit`` handlers and the flushes an interpreter's exit does:
    nothing of the server's own code runs in the child)."""
    for fd in proto:
        os.close(fd)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    enc, errs = sys.__stdout__.encoding if sys.__stdout__ else "utf-8", "strict"
    stdin = os.open(work / "in" if req["input"] is not None else os.devnull, os.O_RDONLY)
    out = os.open(work / "out", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    err = os.open(work / "err", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    for src, dst in ((stdin, 0), (out, 1), (err, 2)):
        os.dup2(src, dst)
        os.close(src)
    sys.stdin = open(0, encoding=enc, closefd=False)  # noqa: SIM115
    sys.stdout = open(1, "w", encoding=enc, errors=errs, closefd=False)  # noqa: SIM115
    sys.stderr = open(2, "w", encoding=enc, errors="backslashreplace",  # noqa: SIM115
                      closefd=False)
    os.chdir(req["cwd"])
    os.environ.clear()
    os.environ.update(req["env"])
    sys.argv = [req["argv0"], *req["args"]]
    code = 0
    try:
        from cli.main import run

        run(list(req["args"]))
    except SystemExit as exc:   # as the interpreter reads it at a process's exit
        if exc.code is None or isinstance(exc.code, int):
            code = exc.code or 0
        else:
            print(exc.code, file=sys.stderr)
            code = 1
    except BaseException:  # noqa: BLE001  (as an uncaught exception ends a process)
        import traceback

        traceback.print_exc()
        code = 1
    import atexit

    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


def _serve() -> None:
    # the protocol moves off fds 0/1, which each child takes for the command's streams
    rd, wr = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)
    _preimport()
    work = Path(tempfile.mkdtemp(prefix="tourney-fork-"))
    reader = os.fdopen(rd, "r", encoding="utf-8")
    writer = os.fdopen(wr, "w", encoding="utf-8")
    try:
        writer.write("ready\n")
        writer.flush()
        for line in reader:
            req = json.loads(line)
            if req["input"] is not None:
                (work / "in").write_text(req["input"], encoding="utf-8")
            pid = os.fork()
            if pid == 0:
                _child(req, work, (rd, wr))   # never returns
            _, status = os.waitpid(pid, 0)
            code = os.waitstatus_to_exitcode(status)
            answer = {"code": code, "pid": pid,
                      "out": (work / "out").read_bytes().decode("utf-8", "replace"),
                      "err": (work / "err").read_bytes().decode("utf-8", "replace")}
            writer.write(json.dumps(answer) + "\n")
            writer.flush()
    finally:
        shutil.rmtree(work, ignore_errors=True)


# ---------------------------------------------------------------- the client (test side)


class _Server:
    def __init__(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen([sys.executable, "-m", "tests.helpers.fork_cli"],
                                     cwd=ROOT, env=env, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, encoding="utf-8",
                                     start_new_session=True)
        self.lock = threading.Lock()
        if self._line(60) != "ready":
            self.kill()
            raise RuntimeError("the tourney fork server did not start")

    def _line(self, timeout: float) -> str | None:
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        if not ready:
            return None
        return self.proc.stdout.readline().rstrip("\n")

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait(10)

    def run(self, req: dict[str, Any], timeout: float) -> tuple[int, str, str] | None:
        """The command's (code, stdout, stderr); None when it timed out (server killed).
        The child's pid is kept in ``LAST_PID`` (for the runner's own tests)."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        end = time.monotonic() + timeout
        line = self._line(timeout)
        if line is None or time.monotonic() > end + 1:
            self.kill()
            return None
        if not line:
            raise RuntimeError("the tourney fork server exited")
        doc = json.loads(line)
        LAST_PID[0] = int(doc["pid"])
        return int(doc["code"]), str(doc["out"]), str(doc["err"])


_SERVER: list[_Server] = []
#: the pid of the last command's process (0: none yet)
LAST_PID = [0]
_START = threading.Lock()


def _server() -> _Server:
    with _START:
        if not _SERVER or not _SERVER[0].alive():
            _SERVER[:] = [_Server()]
        return _SERVER[0]


def run_forked(args: list[str], *, cwd: Path, env: dict[str, str], input: str | None,
               timeout: float, argv0: str,
               fallback: Callable[[], tuple[int, str, str]]) -> tuple[int, str, str]:
    """``tourney args`` as a process forked from the server: (code, stdout, stderr).
    ``fallback`` (a fresh process) runs it when the server is busy with another thread's
    command."""
    server = _server()
    if not server.lock.acquire(blocking=False):
        return fallback()
    try:
        req = {"args": args, "cwd": str(cwd), "env": env, "input": input, "argv0": argv0}
        got = server.run(req, timeout)
    finally:
        server.lock.release()
    if got is None:
        raise subprocess.TimeoutExpired(["tourney", *args], timeout)
    return got


if __name__ == "__main__":
    _serve()
