"""Every command and command group has ``--help`` that exits 0 and shows an example.

The whole command tree is walked from the Typer app, so a new command is covered
automatically; the sweep runs in one subprocess (the click command tree that
``cli.main.run`` builds) to keep the suite fast.  The installed ``tourney`` script is
exercised for the root help, a bad option and a bare group.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SWEEP = r"""
import contextlib, io, json, sys
import typer
from cli.main import app

root = typer.main.get_command(app)  # built once: the same tree run() builds per process

def walk(cmd, path):
    yield path
    for name, sub in sorted(getattr(cmd, "commands", {}).items()):
        yield from walk(sub, path + [name])

results = {}
for path in walk(root, []):
    buf = io.StringIO()
    code = None
    with contextlib.redirect_stdout(buf):
        code = root.main(args=path + ["--help"], prog_name="tourney",
                         standalone_mode=False)
    results[" ".join(path)] = [code, buf.getvalue()]
sys.__stdout__.write(json.dumps(results))
"""


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TOURNEY_")}
    env.update(PYTHONPATH=str(ROOT), COLUMNS="100")
    return env


def test_every_command_has_help_with_an_example() -> None:
    proc = subprocess.run([sys.executable, "-c", SWEEP], capture_output=True, text=True,
                          env=_env(), cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    results = json.loads(proc.stdout)
    expected = {"", "keys", "keys new", "keys show", "init", "official", "official add",
                "official revoke", "official list", "player", "player add",
                "player import", "player list", "registration", "registration close",
                "seed", "seed record", "draw", "checkpoint", "proof", "consistency", "log",
                "info", "export", "audit", "audit verify"}
    assert expected <= set(results), expected - set(results)
    for path, (code, text) in results.items():
        assert code == 0, f"tourney {path} --help exited {code}"
        assert "Example" in text, f"tourney {path} --help has no example"
        assert "Usage" in text


def test_installed_script_help_and_bare_group() -> None:
    exe = shutil.which("tourney") or shutil.which(
        "tourney", path=str(Path(sys.executable).parent))
    cmd = [exe] if exe else [sys.executable, "-m", "cli.main"]
    proc = subprocess.run([*cmd, "--help"], capture_output=True, text=True, env=_env(),
                          timeout=60)
    assert proc.returncode == 0 and "Example" in proc.stdout
    for noun in ("keys", "official", "player", "audit", "seed", "registration"):
        assert noun in proc.stdout
    bad = subprocess.run([*cmd, "--no-such-option"], capture_output=True, text=True,
                         env=_env(), timeout=60)
    assert bad.returncode == 2 and bad.stdout == ""
    assert len(bad.stderr.strip().splitlines()) == 1 and "--no-such-option" in bad.stderr
    bare = subprocess.run([*cmd, "player"], capture_output=True, text=True, env=_env(),
                          timeout=60)
    assert bare.returncode == 2 and "import" in bare.stdout and "list" in bare.stdout
