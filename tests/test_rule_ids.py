"""Rule ids as a checked table (issue 28 item 4, docs/adr/0039-layering-layers-and-rule-ids.md).

docs/rule-ids.txt lists every id the rules digest (RULES.md) defines, with the path and SHA-256
of the digest it was generated from (``python docs/rule_ids.py > docs/rule-ids.txt``).  Every
id of the digest's families (LEDGER-, HOTC-, EOM-, BR-, WOTOLD-, WOT01-, AMB-, TC-) that a
string of the code names — a ``RuleError``'s rule, a finding's, a docstring's citation — is
in the table, or is a family of ids in it (``BR-SE`` for ``BR-SE-1`` …), or a case of a test
case (``TC-24a``: TC-24 (a)), or is listed below as known, with its reason.  A WoT topic
(``rule_id(revision, "FORF-2")``, ``rid(state, "ORDER-1")``) exists in a revision (some are
named for one revision only: ``"SCORE-5" if revision is WOT_OLD else "SCORE-10"``).  The
project's own ids (DESIGN-n, REPORT-n, PAGES-n …) are defined in docs/ instead.
Where RULES.md and a seed (/work/shared/seeds) disagree the seed wins (DEVELOPERS.md); no
id below rests on such a disagreement.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
import re
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "docs" / "rule-ids.txt"
PACKAGES = ("ledger", "cli", "server", "audit", "projections", "usecases")


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rule_ids", ROOT / "docs" / "rule_ids.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GEN = _generator()
META, IDS = GEN.read_table(TABLE.read_text())
DEFINED = frozenset(IDS)
ID = re.compile(rf"(?<![A-Za-z0-9_.-])({GEN.ID})(?![A-Za-z0-9_-])")
WOT_TOPIC = re.compile(r"^[A-Z]+-[0-9]+$")
#: the project's own families, which cite its docs, not the digest (docs/DESIGN.md §n,
#: RULES.md §n, docs/LIVE.md REPORT-n, docs/AUDIT.md PAGES-n)
OWN = ("DESIGN", "RULES", "REPORT", "PAGES")

#: Ids the code names that the digest does not define, each with why it stays.  They are the
#: ledger's own rules (docs/AUDIT.md, docs/TEAMS.md), not a source document's: the command
#: side prints them in its refusals ("LEDGER-REG-1: …", exit 3), so renaming one would change
#: CLI output; the digest's LEDGER- rules are only LEDGER-RAND-* and LEDGER-RES-*.
KNOWN: dict[str, str] = {
    "LEDGER-REG-1": "registration: numbers and names (docs/TEAMS.md); printed in refusals",
    "LEDGER-REG-2": "registration closed / enough players (docs/TEAMS.md); printed in refusals",
    "LEDGER-TIME-1": "the claimed-time rule (docs/AUDIT.md §2 step 10); printed in refusals",
    "LEDGER-POLICY-1": "the genesis policy's ranges (ADR 0022); printed in refusals",
    "LEDGER-TEXT-1": "text and size of a body (docs/AUDIT.md step 9a); printed in refusals",
}


#: The project's own ids that no doc defines as a row, a bullet or a range, with why.
KNOWN_OWN: dict[str, str] = {
    "RULES-1.3": "RULES.md §1.3 (who may sign what): a section of the digest, not an id; "
                 "printed in refusals",
    "RULES-8": "RULES.md §8 (event configuration parameters): a section, not an id; printed "
               "in refusals",
    "WITNESS-1": "the witness's own rule (only a declared, active witness cosigns, "
                 "ledger/proofs/witness.py): no doc names it yet; printed in its refusal",
}


def _strings(tree: ast.AST) -> Iterator[ast.Constant]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node


@functools.cache
def _code_ids() -> tuple[tuple[str, str], ...]:
    """Every id-shaped word in a string of the code, with where (path:line), read once."""
    found: list[tuple[str, str]] = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT)
            for node in _strings(ast.parse(path.read_text())):
                found.extend((rule, f"{rel}:{node.lineno}") for rule in ID.findall(node.value))
    return tuple(found)


def _named_ids(families: tuple[str, ...] = GEN.FAMILIES) -> dict[str, set[str]]:
    """Every id of ``families`` in a string of the code → where."""
    found: dict[str, set[str]] = {}
    for rule, where in _code_ids():
        if rule.split("-")[0] in families:
            found.setdefault(rule, set()).add(where)
    return found


def _wot_topics() -> dict[str, set[str]]:
    """The topics the WoT format turns into an id of its revision (``WOTOLD-``/``WOT01-``)."""
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / "ledger" / "formats" / "wot").rglob("*.py")):
        for node in _strings(ast.parse(path.read_text())):
            if WOT_TOPIC.match(node.value) and \
                    node.value.split("-")[0] not in (*GEN.FAMILIES, *OWN):
                found.setdefault(node.value, set()).add(f"{path.name}:{node.lineno}")
    return found


def _known_to_digest(rule: str) -> bool:
    if rule in DEFINED:
        return True
    if any(d.startswith(rule + "-") or d.startswith(rule + ".") for d in DEFINED):
        return True                                   # a family: BR-SE, BR-PEN-RANK
    case = re.fullmatch(r"(TC-[0-9]+)[a-z]", rule)    # a case of a test case: TC-24a
    return case is not None and case.group(1) in DEFINED


def test_the_table_names_its_source() -> None:
    assert META["source"].endswith("RULES.md")
    assert re.fullmatch(r"[0-9a-f]{64}", META["sha256"])
    assert int(META["ids"]) == len(IDS) == len(DEFINED) > 400
    assert IDS == sorted(IDS)


def test_the_table_is_what_the_digest_defines() -> None:
    """Regenerated from the digest it names, the table is the same, byte for byte (a changed
    digest fails here: regenerate the table)."""
    source = Path(META["source"])
    if not source.exists():
        pytest.skip(f"{source} is not on this machine")
    assert GEN.render(source, source.read_bytes()) == TABLE.read_text()


def test_the_table_reads_every_form_of_definition() -> None:
    text = "\n".join([
        "- **HOTC-PAIR-4 (Rule B).** Once Rule A …",
        "- **WOT01-GAME-1 / WOT01-CYCLE-2.** As WOTOLD-GAME-1 (not defined here).",
        "- **WOT01-FORF-1 … WOT01-FORF-3.** As WOTOLD-FORF-1 … WOTOLD-FORF-3.",
        "| BR-PEN-3.10.2 | 3.10.2 | Played the wrong match | C ~ W |",
        "### TC-02b: Head-to-head (BR-SWISS-TB-6)",
        "- **Record `w-l`.** \"X-0\" means a player with no losses (SHA-256, BR-DE-1).",
    ])
    assert GEN.defined_ids(text) == sorted([
        "HOTC-PAIR-4", "WOT01-GAME-1", "WOT01-CYCLE-2", "WOT01-FORF-1", "WOT01-FORF-2",
        "WOT01-FORF-3", "BR-PEN-3.10.2", "TC-02b"])


def test_every_rule_id_the_code_names_is_in_the_digest() -> None:
    named = _named_ids()
    assert len(named) > 200      # the scan reads the code (about 400 distinct ids today)
    missing = {rule: sorted(where)[:3] for rule, where in named.items()
               if not _known_to_digest(rule) and rule not in KNOWN}
    assert missing == {}


def test_every_wot_topic_is_in_the_digest() -> None:
    topics = _wot_topics()
    assert {"FORF-2", "SCORE-10"} <= set(topics)
    missing = {t: sorted(w)[:2] for t, w in topics.items()
               if not {f"WOTOLD-{t}", f"WOT01-{t}"} & DEFINED}
    assert missing == {}


def _defined_in_docs() -> set[str]:
    """The project's own ids its docs define: a table row's first cell (``| PAGES-1 |``), a
    bullet's lead (``* REPORT-21 (…)``), a range (``REPORT-16..20``); DESIGN-n is docs/DESIGN.md
    §n."""
    docs = "\n".join(p.read_text() for p in sorted((ROOT / "docs").rglob("*.md")))
    found = set(re.findall(r"^\|\s*\**([A-Z]+-[0-9]+)\**\s*\|", docs, re.M))
    found |= set(re.findall(r"^\s*[-*]\s+\**([A-Z]+-[0-9]+)\b", docs, re.M))
    for prefix, first, last in re.findall(r"\b([A-Z]+)-([0-9]+)\s*(?:\.\.|…)\s*([0-9]+)\b",
                                          docs):
        found.update(f"{prefix}-{n}" for n in range(int(first), int(last) + 1))
    design = (ROOT / "docs/DESIGN.md").read_text()
    found.update(f"DESIGN-{n}" for n in re.findall(r"^## ([0-9]+)\.", design, re.M))
    return found


def test_every_own_id_is_defined_in_the_docs() -> None:
    """DESIGN-, REPORT-, PAGES- … are the project's own rules: each id the code names is
    defined in docs/ (or known above, with its reason)."""
    named = _named_ids((*OWN, "WITNESS"))
    assert {"DESIGN-5", "REPORT-21", "PAGES-1"} <= set(named)
    defined = _defined_in_docs()
    missing = {rule: sorted(where)[:2] for rule, where in named.items()
               if rule not in defined and rule not in KNOWN_OWN}
    assert missing == {}
    assert {rule for rule in KNOWN_OWN if rule in named and rule not in defined} \
        == set(KNOWN_OWN)


def test_known_ids_are_still_named_and_still_missing() -> None:
    """The known list only shrinks: an id the digest now defines, or the code no longer
    names, is taken off it."""
    named = _named_ids()
    assert {rule for rule in KNOWN if rule in named and not _known_to_digest(rule)} \
        == set(KNOWN)
