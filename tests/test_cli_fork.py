"""The fork runner (tests/helpers/fork_cli.py): while a server runs in the test process,
a test's ``tourney`` command is a process of its own, forked from a server that imported
the CLI once, and says what a fresh ``tourney`` process says (issue 33).

Each test compares the forked command with the same command as a fresh process
(``Cli.as_process``): exit code, stdout and stderr, for a success, a refusal (the ledger's
bytes unchanged), a usage error and a command reading stdin; and checks that each command
is a process of its own (not the test's, not the last command's), whose module state does
not reach the next command.
"""

from __future__ import annotations

import os
import threading

import pytest

from tests.helpers import fork_cli
from tests.helpers.cli_runner import Cli, Run, remember_secret, serving, snapshot


@pytest.fixture(scope="module")
def cli(tmp_path_factory: pytest.TempPathFactory) -> Cli:
    d = tmp_path_factory.mktemp("fork")
    c = Cli(d, d / "t.db")
    c("keys", "new", "--name", "Head Judge", "--out", "hj.pem")
    remember_secret(d / "hj.pem")
    c("init", "--name", "Fork Open", "--format", "hotc-swiss-de", "--key", "hj.pem")
    c("player", "add", "Ana Alves", "--key", "hj.pem")
    return c


def both(cli: Cli, *args: str, code: int | None = 0, input: str | None = None
         ) -> tuple[Run, Run]:
    """(forked, fresh process) of the same command line."""
    with serving():
        forked = cli(*args, code=code, input=input)
    return forked, cli.as_process()(*args, code=code, input=input)


def same(a: Run, b: Run) -> None:
    assert (a.code, a.out, a.err) == (b.code, b.out, b.err), (a, b)


def test_a_forked_command_says_what_a_fresh_process_says(cli: Cli) -> None:
    forked, fresh = both(cli, "standings", "--json")
    same(forked, fresh)
    assert forked.doc["players"][0]["name"] == "Ana Alves"
    same(*both(cli, "info"))


def test_a_refusal_forked_is_the_fresh_refusal_and_writes_nothing(cli: Cli) -> None:
    before = snapshot(cli.ledger)
    forked, fresh = both(cli, "player", "add", "Bo Berg", "--key", "nobody.pem", code=None)
    same(forked, fresh)
    assert forked.code != 0 and forked.err.startswith("error: ")
    assert len(forked.err.strip().splitlines()) == 1
    assert snapshot(cli.ledger) == before
    usage, fresh_usage = both(cli, "frobnicate", code=2)
    same(usage, fresh_usage)


def test_a_forked_command_reads_its_stdin(cli: Cli) -> None:
    before = snapshot(cli.ledger)
    forked, fresh = both(cli, "result", "import", "-", "--key", "hj.pem", code=3,
                         input="round,table,winner\n1,1,1\n")
    same(forked, fresh)
    assert "stdin line 2" in forked.err          # the row it read from stdin, refused
    wrong, fresh_wrong = both(cli, "result", "import", "-", "--key", "hj.pem", code=2,
                              input="round;table;winner\n")
    same(wrong, fresh_wrong)
    assert "semicolon-separated" in wrong.err
    assert snapshot(cli.ledger) == before


def test_each_forked_command_is_a_process_of_its_own(cli: Cli) -> None:
    pids = []
    with serving():
        for _ in range(3):
            cli("info", "--json")      # --json sets the CLI's module state in its process
            pids.append(fork_cli.LAST_PID[0])
        # a command after a --json one prints text: the state did not carry over
        assert not cli("info").out.lstrip().startswith("{")
    assert os.getpid() not in pids and len(set(pids)) == 3, pids


def test_a_second_thread_meanwhile_gets_a_fresh_process(cli: Cli) -> None:
    server = fork_cli._server()
    runs: list[Run] = []
    with serving():
        assert server.lock.acquire()       # as if another thread's command were running
        last = fork_cli.LAST_PID[0]
        try:
            t = threading.Thread(target=lambda: runs.append(cli("info", "--json")))
            t.start()
            t.join(60)
        finally:
            server.lock.release()
        assert fork_cli.LAST_PID[0] == last      # not forked: a fresh process ran it
        same(runs[0], cli("info", "--json"))
