"""Issue 17, defect 23: with PYTHONDONTWRITEBYTECODE=1 an editable install compiles the
project on every command; the README's one-time remedy makes later runs load bytecode.

Runs the command the README documents, verbatim, on a private copy of the source tree,
then a real interpreter with PYTHONDONTWRITEBYTECODE=1 and ``-v`` (which names the file
each module's code object came from).  Timings are bench/bench_bytecode.py's, not here.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _loaded_from_bytecode(tree: Path) -> bool:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONPATH": str(tree)}
    proc = subprocess.run([sys.executable, "-v", "-c", "import cli.main"], cwd=tree,
                          env=env, capture_output=True, text=True, timeout=120, check=True)
    main = str(tree / "cli" / "__pycache__" / "main.")
    return any(line.startswith("# code object from") and main in line
               for line in proc.stderr.splitlines())


def test_defect_23_readme_remedy_makes_commands_load_bytecode(tmp_path: Path) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "PYTHONDONTWRITEBYTECODE=1" in readme
    found = re.search(r"`(python -m compileall [^`]+)`", readme)
    assert found, "the README names no compileall command"
    for pkg in ("ledger", "cli", "audit", "projections", "server", "usecases"):
        shutil.copytree(ROOT / pkg, tmp_path / pkg,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    assert not _loaded_from_bytecode(tmp_path)          # the defect: compiled every time
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    args = shlex.split(found.group(1))
    subprocess.run([sys.executable, *args[1:]], cwd=tmp_path, env=env, check=True,
                   timeout=300)
    assert _loaded_from_bytecode(tmp_path)              # the README's remedy works
