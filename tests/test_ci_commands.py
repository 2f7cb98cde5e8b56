"""CI runs what the README tells a developer to run (issue 33).

``.ci/run`` installs, checks the code and runs the tests with the README's command lines,
character for character; the install compiles the bytecode (``PYTHONDONTWRITEBYTECODE=1``
would otherwise make every ``tourney`` subprocess compile the project again); the checks are
``ruff`` (with flake8-bugbear, ``B``) and ``mypy --strict`` over the packages; the tests run
on every core with pytest-xdist, and the tools come with the ``[test]`` extra.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _readme_lines() -> set[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```\n(.*?)^```", text, flags=re.S | re.M)
    return {line.strip() for block in blocks for line in block.splitlines() if line.strip()}


def _ci_commands() -> list[str]:
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.startswith(("python3 -m venv", ". .venv/bin/"))]


def test_ci_runs_the_readme_commands_verbatim() -> None:
    commands = _ci_commands()
    assert len(commands) == 2, commands          # install + main job; checks + tests
    readme = _readme_lines()
    for line in commands:
        assert line in readme, f".ci/run runs a line the README does not show: {line}"
    install, tests = commands
    check = tests.split("python -m pytest")[0]
    assert "pip install -e '.[test]'" in install
    assert "python -m compileall -q ledger cli audit projections server usecases" in install
    assert "ruff check ." in check
    assert "mypy --strict ledger cli server projections audit usecases" in check
    assert "python -m pytest" in tests and "-n " in tests


def test_the_test_extra_installs_the_checkers_and_xdist() -> None:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    extra = " ".join(meta["project"]["optional-dependencies"]["test"])
    for tool in ("pytest-xdist", "ruff", "mypy"):
        assert tool in extra, tool
    assert "B" in meta["tool"]["ruff"]["lint"]["select"]


def test_ci_installs_both_browsers_the_page_tests_use() -> None:
    """The page tests drive the headless shell and the binaries test the full browser too
    (ADR 0077): a CI machine without them would skip every page test."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    install = next(line for line in ci.splitlines() if "apt-get install" in line)
    assert "chromium chromium-headless-shell" in install, install
