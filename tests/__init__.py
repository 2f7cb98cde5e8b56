"""The test suite (a package: ``tests.helpers`` holds the shared test code).

Bytecode (issue 33): where ``PYTHONDONTWRITEBYTECODE=1`` is set (these machines, and so CI),
every pytest-xdist worker parsed, assertion-rewrote and compiled every test module again as
it collected the suite (12.9 s of CPU a worker; 3.9 s with the rewritten modules cached),
and every ``tourney`` subprocess a test starts compiled the project again.  This package is
imported before any test module, conftest or project module, so from here on the suite
writes the (git-ignored) ``__pycache__`` files anyway: pytest writes its rewritten modules
atomically and Python its own, so workers running side by side are safe.  A test that is
about the variable sets it in its subprocess's environment (tests/test_bytecode_remedy.py).
"""

import sys

sys.dont_write_bytecode = False
