"""The seed and draw rules plug into the core from above it (docs/adr/0039-layering-layers-and-
rule-ids.md): loaded on the first check that needs them, refused — never skipped — when
nothing named them.  Each case runs in a fresh interpreter (what is imported is the point)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(code: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)


def test_unplugged_seed_and_draw_rules_refuse() -> None:
    done = _run("""
        import sys
        from ledger.core import rule_plugins, rules
        from ledger.wire.events import SeedCommitted, SeedRecorded
        assert "ledger.randomness.rules" not in sys.modules
        for kind in (SeedRecorded, SeedCommitted):
            try:
                rules._CHECKS[kind](None, None, "k")
            except rule_plugins.RulesNotLoaded as e:
                print("refused", kind.KIND.value, "|", e)
        try:
            rule_plugins.plugged_draw_checks()
        except rule_plugins.RulesNotLoaded:
            print("refused draw_made")
        """)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "refused seed_recorded | the rules of seed_recorded are not plugged in: import "
        "ledger.formats.registry (it names ledger.randomness.rules)",
        "refused seed_committed | the rules of seed_committed are not plugged in: import "
        "ledger.formats.registry (it names ledger.randomness.rules)",
        "refused draw_made"]


def test_the_registry_names_them_and_the_first_check_loads_them() -> None:
    done = _run("""
        import sys
        import ledger.formats.registry
        from ledger.core import rule_plugins, rules
        from ledger.wire.events import SeedCommitted, SeedRecorded
        print("before", "ledger.randomness.rules" in sys.modules)
        draw = rule_plugins.plugged_draw_checks()
        print("after", "ledger.randomness.rules" in sys.modules)
        print([f.__module__ + "." + f.__name__ for f in draw])
        print(rules._CHECKS[SeedRecorded].__module__, rules._CHECKS[SeedCommitted].__module__)
        """)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "before False", "after True",
        # every draw's hygiene (DESIGN-6), and what a …/deck-checks draw is (DECK-DRAW-1)
        "['ledger.randomness.rules.check_draw_hygiene', "
        "'ledger.formats.officiating.deck_rules.check_deck_draw']",
        "ledger.randomness.rules ledger.randomness.rules"]
