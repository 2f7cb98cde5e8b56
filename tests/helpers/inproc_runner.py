"""A ``CommandRunner`` in the server's process for the browser-key tests, until the
server's own (branch ``api-core``) is merged: the real CLI, run in this process through
``cli.main.run`` (``tests.helpers.cli_runner.run_in_process``), signed by the signer it is
handed (``cli.common.signing_with``) — a ``usecases.prepared.BrowserSigner`` holds no
private key, so nothing is imitated: the decision, the signatures and the write are the
CLI's own.

Owns: ``InProcessRunner`` (``specs`` read off the typer tree: path, words, options;
``run``: the command line from the arguments by name, its exit code mapped to the API's
status and error kind).

May import: ``cli.*``, ``usecases.command_specs``, ``tests.helpers.cli_runner``, the
standard library.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from usecases.command_specs import CommandSpec, Outcome, Param, ParamKind

STATUS = {2: 400, 3: 409, 4: 422, 5: 503}
KIND = {2: "usage", 3: "rule", 4: "verification", 5: "storage"}


class InProcessRunner:
    """Runs ``tourney --ledger L <words> <options> --json`` in this process."""

    def __init__(self, ledger: Path, cwd: Path, env: Mapping[str, str]) -> None:
        self.ledger, self.cwd, self.env = ledger, cwd, dict(env)
        self._specs: list[CommandSpec] | None = None

    def specs(self) -> Sequence[CommandSpec]:
        if self._specs is None:
            import typer

            from cli.main import build_app

            out: list[CommandSpec] = []

            def walk(cmd: Any, words: tuple[str, ...]) -> None:
                if hasattr(cmd, "commands"):
                    for name, sub in cmd.commands.items():
                        walk(sub, (*words, name))
                    return
                params = tuple(Param(p.name, ParamKind.FLAG if getattr(p, "is_flag", False)
                                     else ParamKind.TEXT, positional=p.param_type_name ==
                                     "argument", opts=tuple(p.opts)) for p in cmd.params)
                out.append(CommandSpec("/".join(words), words, cmd.help or "",
                                       cmd.help or "", params))
            walk(typer.main.get_command(build_app()), ())
            self._specs = out
        return self._specs

    def run(self, path: str, args: Mapping[str, Any], signer: Any) -> Outcome:
        from cli.common import signing_with
        from tests.helpers.cli_runner import run_in_process

        spec = next(s for s in self.specs() if s.path == path)
        argv: list[str] = []
        tail: list[str] = []
        for name, value in args.items():
            p = spec.param(name)
            if p is not None and p.positional:
                tail.append(str(value))
            elif value is True:
                argv.append(f"--{name.replace('_', '-')}")
            elif value is not False and value is not None:
                argv += [f"--{name.replace('_', '-')}", str(value)]
        with signing_with(signer):
            run = run_in_process(["--ledger", str(self.ledger), *spec.words, *argv, *tail,
                                  "--json"], cwd=self.cwd, env=self.env)
        if run.code == 0:
            try:
                doc = json.loads(run.out)
            except ValueError:
                doc = {}
            return Outcome(ok=True, status=200, seq=doc.get("seq"),
                           events=doc.get("events", []), text=run.err.strip(), data=doc)
        try:
            err = json.loads(run.out)["error"]
        except (ValueError, KeyError, TypeError):
            err = {"message": run.err.strip()}
        return Outcome(ok=False, status=STATUS.get(run.code, 500),
                       error={"kind": KIND.get(run.code, "storage"),
                              "message": err.get("message"), "hint": err.get("hint"),
                              "rule": None})
