"""Reading the product's English sentences out of its source, for the translation tests
(tests/test_i18n_python_sentences.py, tests/test_i18n_ledger_refusals.py).

Owns: ``literal_text`` (a string literal, f-string or ``+`` of them as it reads) and
``ENGLISH`` (two lowercase words in a row: English left in a translation).  Imports only
the standard library."""

from __future__ import annotations

import ast
import re


def literal_text(node: ast.expr) -> str | None:
    """A string literal as it reads with every ``{…}`` value set to 7."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "7" for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        a, b = literal_text(node.left), literal_text(node.right)
        return None if a is None and b is None else (a or "") + (b if b is not None else
                                                                  "7")
    return None


#: English words left in a translation (two lowercase words in a row)
ENGLISH = re.compile(r"\b[a-z]{3,} [a-z]{2,}\b")
