"""The README's tour is copy-paste runnable: its code block, run line by line as written
in an empty directory (with the ``samples/tour/`` files it names), exits 0 everywhere and
ends with a clean audit of the exported bundle."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def tour_lines() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## A short tour"):]
    block = section[section.index("```\n") + 4:]
    block = block[:block.index("```")]
    lines = []
    for line in block.splitlines():
        code = re.split(r"\s{2,}#", line)[0].strip()  # comments start after two spaces
        if code:
            lines.append(code)
    return lines


def test_readme_tour_runs_as_written(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "samples" / "tour", tmp_path / "samples" / "tour")
    env = {k: v for k, v in os.environ.items() if not k.startswith("TOURNEY_")}
    env["PYTHONPATH"] = str(ROOT)
    bindir = Path(shutil.which("tourney") or "").parent
    env["PATH"] = f"{bindir}{os.pathsep}{env.get('PATH', '')}"
    lines = tour_lines()
    exports = [i for i, line in enumerate(lines) if line.startswith("tourney export")]
    assert len(lines) >= 20 and exports
    outputs = []
    for line in lines:
        proc = subprocess.run(["bash", "-c", line], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, f"{line}\n{proc.stdout}\n{proc.stderr}"
        outputs.append(proc)
    proc = outputs[exports[-1]]
    assert proc.stdout.startswith("exported ") and "\nOK: spring-open:" in proc.stdout
    assert "unsealed_tail" not in proc.stdout
