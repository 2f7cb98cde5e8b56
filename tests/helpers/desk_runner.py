"""A ``CommandRunner`` for the console's tests until the server's own (branch ``api-core``)
is merged: the real CLI, one ``tourney`` process per command, signed with the official's
own key file.  Nothing is imitated: specs are read off the real typer tree, commands run
the real CLI on the real ledger, and its exit code, lines and refusal are passed on.

Owns: ``CliRunner`` (``specs`` from ``cli.main.build_app``; ``run`` spawns ``tourney
--ledger L --key PEM words… args`` — FILE parameters through a temporary file).

May import: ``cli.main``, ``typer``, ``usecases.command_specs``, the standard library.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from usecases.command_specs import CommandSpec, Outcome, Param, ParamKind

ROOT = Path(__file__).resolve().parents[2]
STATUS = {2: 400, 3: 409, 4: 422, 5: 503}
KIND = {2: "usage", 3: "rule", 4: "verification", 5: "storage"}
GLOBAL = {"ledger", "key", "tournament", "checkpoints", "json", "help", "version"}


def _kind(t: Any) -> ParamKind:
    name = type(t).__name__
    return {"Choice": ParamKind.CHOICE, "IntParamType": ParamKind.INTEGER,
            "IntRange": ParamKind.INTEGER, "FloatParamType": ParamKind.NUMBER,
            "FloatRange": ParamKind.NUMBER, "Path": ParamKind.FILE,
            "File": ParamKind.FILE}.get(name, ParamKind.TEXT)


def _param(p: Any) -> Param | None:
    """A parameter of typer's click (vendored: read by its attributes)."""
    name = p.name or ""
    if name in GLOBAL:
        return None
    if p.param_type_name == "argument":
        kind = _kind(p.type)
        if "FILE" in (p.metavar or "") or name == "file":
            kind = ParamKind.FILE
        return Param(name, kind, required=p.required, positional=True,
                     metavar=(p.metavar or name).lower(), multiple=p.nargs == -1)
    kind = ParamKind.FLAG if p.is_flag else _kind(p.type)
    choices = tuple(str(c) for c in p.type.choices) if kind is ParamKind.CHOICE else ()
    default = p.default if isinstance(p.default, (str, int, float, bool)) else None
    return Param(name, kind, required=p.required, default=default, help=p.help or "",
                 choices=choices, multiple=p.multiple, opts=tuple(p.opts))


class CliRunner:
    """Runs commands as the desk does, one process each (see the module docstring)."""

    def __init__(self, ledger: Path, keys: Mapping[str, Path], cwd: Path,
                 env: Mapping[str, str] | None = None) -> None:
        self.ledger, self.keys, self.cwd = ledger, dict(keys), cwd
        self.env = dict(env or os.environ)
        self._specs: list[CommandSpec] | None = None

    def specs(self) -> Sequence[CommandSpec]:
        if self._specs is None:
            import typer

            from cli.main import build_app

            tree: Any = typer.main.get_command(build_app())
            out: list[CommandSpec] = []

            def walk(cmd: Any, words: tuple[str, ...]) -> None:
                if hasattr(cmd, "commands"):
                    for name, sub in cmd.commands.items():
                        walk(sub, (*words, name))
                    return
                params = tuple(p for p in (_param(x) for x in cmd.params) if p is not None)
                out.append(CommandSpec(path="/".join(words), words=words,
                                       summary=(cmd.short_help or cmd.help or "")
                                       .split("\n")[0][:120],
                                       help=cmd.help or "", params=params))
            walk(tree, ())
            self._specs = out
        return self._specs

    def _argv(self, spec: CommandSpec, args: Mapping[str, Any], tmp: Path) -> list[str]:
        argv: list[str] = []
        tail: list[str] = []
        for p in spec.params:
            if p.name not in args:
                continue
            v = args[p.name]
            if p.kind is ParamKind.FILE:
                f = tmp / f"{p.name}.csv"
                f.write_text(str(v))
                v = str(f)
            values = v if isinstance(v, list) else [v]
            if p.positional:
                tail += [str(x) for x in values]
                continue
            opt = next(o for o in p.opts if o.startswith("--"))
            if p.kind is ParamKind.FLAG:
                if v:
                    argv.append(opt)
                continue
            for x in values:
                argv += [opt, str(x)]
        known = {p.name for p in spec.params}
        for name, v in args.items():     # the format's own options (a result's outcome)
            if name not in known and v is not False:
                argv += [f"--{name.replace('_', '-')}"] + ([] if v is True else [str(v)])
        return [*spec.words, *argv, *tail]

    def run(self, path: str, args: Mapping[str, Any], signer: Any) -> Outcome:
        spec = next(s for s in self.specs() if s.path == path)
        key = self.keys.get(signer.key_id) if signer is not None else None
        with tempfile.TemporaryDirectory() as tmp:
            argv = [sys.executable, "-m", "cli.main", "--ledger", str(self.ledger),
                    *(["--key", str(key)] if key else []),
                    *self._argv(spec, args, Path(tmp))]
            proc = subprocess.run(argv, cwd=self.cwd, capture_output=True, text=True,
                                  env={**self.env, "PYTHONPATH": str(ROOT)}, timeout=120)
        if proc.returncode == 0:
            return Outcome(ok=True, status=200, text=proc.stdout.strip())
        line = proc.stderr.strip().splitlines()
        msg = line[0] if line else "refused"
        hint = " ".join(x for x in line[1:])
        return Outcome(ok=False, status=STATUS.get(proc.returncode, 500),
                       error={"kind": KIND.get(proc.returncode, "storage"),
                              "message": msg, "hint": hint, "rule": None})
