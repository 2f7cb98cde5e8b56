"""Reading a page's sentences from the source (issue 31, ADR 0063 and 0065): the shared
part of the catalogue tests (``tests/test_i18n_python_sentences.py``,
``tests/test_i18n_ledger_refusals.py``, ``tests/test_i18n_desk_refusals.py``).

Owns: ``_text`` (a string literal or f-string as it reads with its values set to 7),
``ENGLISH`` (two lowercase English words in a row: what a translation may not leave),
``COMMAND`` (what stays as it is in every language: a ``tourney …`` command, an option),
``PLAYER`` and ``STAFF`` (module → the rule functions whose refusals a player's act or a
staff decision meets) and ``_refusals`` (each ``RuleError(...)`` of such functions, with
the module's functions they call, values set to 7).

May import: ``ledger.errors``, the standard library.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from ledger.errors import RuleError

#: English words left in a translation (two lowercase words in a row)
ENGLISH = re.compile(r"\b[a-z]{3,} [a-z]{2,}\b")
#: what stays as it is in every language: a CLI command ("tourney call close 7") and an
#: option ("--outcome TEXT")
COMMAND = re.compile(r"tourney(?: [a-z-]+)+|--\w+ [A-Z]+")


def _text(node: ast.expr) -> str | None:
    """A string literal as it reads with every ``{…}`` value set to 7."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(str(v.value) if isinstance(v, ast.Constant) else "7" for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        a, b = _text(node.left), _text(node.right)
        return None if a is None and b is None else (a or "") + (b if b is not None else
                                                                  "7")
    return None


ROOT = Path(__file__).resolve().parents[2]
FMT = "hotc-swiss-de"
#: every write: who may sign it, the station's clock (``ledger.core.rules``)
EVERY_WRITE = ("authorize", "authorize_roles", "check_claimed_time")
#: module → the functions whose refusals a player's own act meets (``None``: all of it)
PLAYER: dict[str, tuple[str, ...] | None] = {
    "ledger/core/rules.py": EVERY_WRITE,
    "ledger/core/report_rules.py": ("parse_report", "check_reported", "check_own_act"),
    "ledger/core/device_rules.py": None,
    "ledger/core/seat_reports.py": ("check_seat_report",),
    "ledger/core/call_rules.py": ("check_opened",),
    "ledger/formats/officiating/deck_submit_rules.py": ("_submitted",),
    "ledger/formats/hotc/checks.py": ("_dropped",),
    "ledger/formats/bushiroad/checks.py": ("_dropped",),
    "usecases/calls.py": ("own_call",),
    "usecases/decklists.py": ("submit_own_deck",),
    "usecases/reports.py": ("own_drop",),
}
#: module → the functions whose refusals a staff decision of /staff meets
STAFF: dict[str, tuple[str, ...] | None] = {
    "ledger/core/rules.py": EVERY_WRITE,
    "ledger/core/report_rules.py": ("check_rejected", "check_citation",
                                    "check_station_result"),
    "ledger/core/call_rules.py": ("check_claimed", "check_closed"),
    "usecases/reports.py": ("accept_matching", "record_report", "reject_report"),
    "usecases/calls.py": ("claim_call", "close_call"),
    # the format's checks of the result an accepted report records (branch jswords2)
    "ledger/formats/match/plan.py": ("open_table",),
    "ledger/formats/hotc/checks.py": ("_decided",),
    "ledger/formats/bushiroad/checks.py": ("_decided",),
}


def _functions(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    return {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}


def _reached(tree: ast.Module, names: tuple[str, ...] | None) -> list[ast.AST]:
    """The functions ``names`` of ``tree`` and the module's functions they call, at any
    depth (the whole module for ``None``)."""
    if names is None:
        return [tree]
    defs = _functions(tree)
    missing = [n for n in names if n not in defs]
    assert missing == [], missing          # a function renamed: say where the rules went
    seen: list[str] = []
    todo = list(names)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.append(name)
        todo += [c.func.id for c in ast.walk(defs[name]) if isinstance(c, ast.Call)
                 and isinstance(c.func, ast.Name) and c.func.id in defs]
    return [defs[n] for n in seen]


def _refusals(where: dict[str, tuple[str, ...] | None]) -> list[RuleError]:
    """Each ``RuleError(...)`` of ``where`` with a literal (or f-string) sentence, its
    values set to 7."""
    out: list[RuleError] = []
    for rel, names in where.items():
        tree = ast.parse((ROOT / rel).read_text(encoding="utf-8"))
        for fn in _reached(tree, names):
            for c in ast.walk(fn):
                if not (isinstance(c, ast.Call) and getattr(c.func, "id", "") == "RuleError"
                        and len(c.args) >= 2 and isinstance(c.args[0], ast.Constant)):
                    continue
                msg = _text(c.args[1])
                if msg is None:         # a sentence made elsewhere (the scans of ADR 0063)
                    continue
                kw = {k.arg: k.value for k in c.keywords}
                hint = _text(kw["hint"]) if "hint" in kw else None
                finding = kw.get("finding")
                out.append(RuleError(str(c.args[0].value), msg, hint=hint,
                                     finding=str(finding.value)
                                     if isinstance(finding, ast.Constant)
                                     else "rule_violation"))
    return out
