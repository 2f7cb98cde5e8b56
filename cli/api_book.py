"""The desk's commands as ``CommandSpec``s, read off the click tree typer builds from the
CLI's own signatures (issue 29 item 3; ADR "api-core").

Owns: ``DESK`` (the official's commands the HTTP API and the console run, by path, in the
console's groups: each spec's ``group``, ``GROUP_OF``), ``EXCLUDED`` (every other command of the tree, with why it is not
there: a test asserts that the two cover the whole tree), ``HIDDEN`` (the options no API
caller gives: the global ones and a command's own ``--key``/``--json`` — the signer is
the authenticated official), ``FILE_PARAMS`` (parameters the CLI reads a file from
although typer types them as text), ``spec_of`` / ``desk_specs`` (the specs, a result
command's outcome options being those of the followed event's format, read from its
``Vocabulary``), and ``command_at`` (the click command at a path).

The typer signatures stay the one definition of each command's parameters: nothing here
restates a parameter, it is read from the click objects.  A spec's ``summary`` is the
help's first paragraph; its ``roles``, ``steps`` and ``kinds`` come from
``cli.api_kinds`` (the roles from the one roles table); a parameter the command writes
to (``cli.api_kinds.SUPPLIED``) is left out: the server supplies it.

May import: ``typer``, ``cli.main``, ``cli.api_kinds``, ``usecases.command_specs``,
``ledger.core.vocabulary``, ``ledger.core.format_socket``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import typer

from cli.api_kinds import STEPS, SUPPLIED, alternatives, roles_of
from usecases.command_specs import CommandSpec, Param, ParamKind, Steps

if TYPE_CHECKING:
    from ledger.core.format_plugin import FormatPlugin
    from ledger.core.vocabulary import ResultField, Vocabulary

#: the desk's commands by console group (``POST /api/v1/<path>``); ``signed`` unless in
#: ``READS``
DESK: dict[str, tuple[str, ...]] = {
    "registration": ("player/add", "player/import", "player/late", "player/rename",
                     "player/withdraw", "team/add", "team/import", "team/late",
                     "registration/close", "deck/register", "deck/check", "deck/correct",
                     "deck/deadline", "official/bind"),
    "rounds": ("round/pair", "round/post", "round/start", "round/time", "round/extend",
               "round/void", "round/override", "announce", "seed/record", "seed/import-random-org",
               "seed/import-drand", "seed/commit", "seed/reveal", "pages/set"),
    "results": ("result/record", "result/correct", "result/amend", "result/import",
                "result/eom", "result/wrong-table", "report/accept", "report/reject",
                "result/codes"),
    "officiating": ("penalty/issue", "penalty/reissue-sheet", "penalty/offer",
                    "penalty/guide", "disqualify", "slowplay/call", "slowplay/rule",
                    "ruling", "appeal/raise", "appeal/decide", "deck/draw", "deck/start",
                    "deck/end", "drop", "undrop", "level",
                    "forfeit", "tbp-override", "call/open", "call/claim", "call/close",
                    "call/list", "call/show", "floor/stats"),
    "cut": ("cut", "bracket", "deck/publish", "checkpoint", "publish"),
}
#: each desk command's group (the console's panel, the OpenAPI tag): ``DESK`` read back
GROUP_OF: dict[str, str] = {p: g for g, paths in DESK.items() for p in paths}
#: desk commands that only read (no signer needed, nothing written)
READS = frozenset({"result/codes", "penalty/offer", "penalty/guide", "call/list", "call/show",
                   "floor/stats"})

#: every other command of the tree, and why the API does not run it
EXCLUDED: dict[str, str] = {
    "keys/new": "makes a private key: keys never travel over HTTP",
    "keys/show": "reads a key file on the server's disk",
    "init": "creates the event: done once at the terminal, before any server runs",
    "official/add": "binds a key file's public key as an official: the organizer's step "
                    "at the terminal (a browser's key: official/bind, a desk command)",
    "official/revoke": "revokes an official's key: the organizer's step at the terminal",
    "official/list": "a read: GET /api/v1/event",
    "official/card": "writes printable card files on the server's disk",
    "player/list": "a read: GET /api/v1/players",
    "player/cards": "writes printable card files on the server's disk",
    "player/card": "writes a printable card file on the server's disk",
    "team/list": "a read: GET /api/v1/event",
    "draw": "a free-standing verifiable draw, not a step of the event",
    "deck/verify": "reads a list file on the caller's disk against the log: anyone's check, "
                   "offline",
    "round/show": "a read: GET /api/v1/rounds/{n}",
    "standings": "a read: GET /api/v1/standings",
    "penalty/list": "a read: GET /api/v1/players/{n}",
    "report/list": "a read: the round's tables (GET /api/v1/rounds/{n})",
    "pages/show": "a read: GET /api/v1/event",
    "simulate": "writes a whole simulated event to a new ledger",
    "log": "a read: GET /api/v1/log",
    "info": "a read: GET /api/v1/event",
    "proof": "writes a proof file; GET /api/v1/log serves the leaves",
    "consistency": "a read of two checkpoints by the auditor, at the terminal",
    "export": "writes a bundle directory on the server's disk",
    "backup": "writes a copy of the ledger on the server's disk",
    "serve": "runs the server itself",
    "audit/verify": "the auditor's, on a copy of the log (GET /api/v1/log)",
    "audit/report": "the auditor's, at the terminal",
    "audit/proof": "the auditor's, at the terminal",
    "witness/cosign": "a witness's own key and state file",
    "witness/attach": "reads witness files from the server's disk",
    "witness/show": "reads a witness's state file",
}

#: the options an API caller never gives: the root's, and a command's own signer/output
HIDDEN = frozenset({"--ledger", "--key", "--tournament", "--checkpoints", "--json",
                    "--version", "--help"})
#: (command, parameter) the API does not offer: a folder on the terminal's disk (over the
#: API ``deck publish --top`` finds the lists on the log and in the station's own store)
TERMINAL_ONLY = frozenset({("deck/publish", "folder")})
#: parameters the CLI reads a file from although typer types them as text
FILE_PARAMS = {("result/import", "file")}
#: the commands that take the event's format's outcome options after their own
OUTCOME_COMMANDS = frozenset({"result/record", "result/correct", "result/amend"})


def desk_paths() -> tuple[str, ...]:
    return tuple(p for group in DESK.values() for p in group)


def whole_tree() -> Any:
    """The click command of the whole ``tourney`` tree."""
    from cli.main import build_app

    return typer.main.get_command(build_app())


def command_at(tree: Any, words: Sequence[str]) -> Any:
    cmd = tree
    for w in words:
        cmd = cmd.commands[w]
    return cmd


def all_paths(tree: Any) -> list[str]:
    """Every leaf command of the tree, as an API path (``result/record``)."""
    out: list[str] = []

    def walk(cmd: Any, words: list[str]) -> None:
        subs = getattr(cmd, "commands", None)
        if subs is None:
            out.append("/".join(words))
            return
        for name, sub in subs.items():
            walk(sub, [*words, name])
    walk(tree, [])
    return out


def _kind(path: str, p: Any) -> tuple[ParamKind, tuple[str, ...]]:
    tname = type(p.type).__name__
    if (path, p.name) in FILE_PARAMS or tname == "TyperPath":
        return ParamKind.FILE, ()
    if getattr(p, "is_flag", False) or tname == "BoolParamType":
        return ParamKind.FLAG, ()
    if hasattr(p.type, "choices"):
        return ParamKind.CHOICE, tuple(str(c) for c in p.type.choices)
    if tname in ("IntRange", "IntParamType"):
        return ParamKind.INTEGER, ()
    if tname in ("FloatRange", "FloatParamType"):
        return ParamKind.NUMBER, ()
    return ParamKind.TEXT, ()


def _param(path: str, p: Any) -> Param | None:
    positional = p.param_type_name == "argument"
    if (path, p.name) in SUPPLIED or (path, p.name) in TERMINAL_ONLY:
        return None       # the command writes there (the server says where), or a folder
    if positional:
        name = p.name
        opts: tuple[str, ...] = ()
    else:
        longs = [o for o in p.opts if o.startswith("--")]
        if not longs or longs[0] in HIDDEN:
            return None
        name = longs[0][2:].replace("-", "_")
        opts = (longs[0], *[o for o in p.opts if o != longs[0]])
    off = next(iter(getattr(p, "secondary_opts", ()) or ()), "")
    kind, choices = _kind(path, p)
    default = p.default if not callable(p.default) else None
    if isinstance(default, (list, tuple)):
        default = list(default) or None
    multiple = bool(getattr(p, "multiple", False)) or (positional and p.nargs == -1)
    return Param(name=name, kind=kind, required=bool(p.required), default=default,
                 help=(getattr(p, "help", None) or "").strip(), choices=choices,
                 positional=positional, multiple=multiple,
                 metavar=p.metavar or "", opts=opts, off=off)


def _field_param(f: ResultField) -> Param:
    """One outcome option of a format's vocabulary as a parameter (never required: the
    format says which combination an outcome needs)."""
    from ledger.core.vocabulary import FieldKind

    kind = {FieldKind.FLAG: ParamKind.FLAG, FieldKind.SWITCH: ParamKind.FLAG,
            FieldKind.PLAYER: ParamKind.INTEGER, FieldKind.COUNT: ParamKind.INTEGER,
            FieldKind.CODE: ParamKind.CHOICE}.get(f.kind, ParamKind.TEXT)
    return Param(name=f.name, kind=kind, help=f.help, choices=tuple(f.choices),
                 metavar=f.metavar, opts=(f.option,), off="--" + f.off if f.off else "")


def spec_of(tree: Any, path: str, vocabulary: Vocabulary | None = None,
            plugin: FormatPlugin | None = None) -> CommandSpec:
    """The spec of the command at ``path`` (its outcome options from ``vocabulary`` for a
    result command; its roles from the roles table, with ``plugin``'s kinds)."""
    words = tuple(path.split("/"))
    cmd = command_at(tree, words)
    params = [q for q in (_param(path, p) for p in cmd.params) if q is not None]
    if path in OUTCOME_COMMANDS and vocabulary is not None:
        own = {q.name for q in params}
        params += [_field_param(f) for f in vocabulary.fields if f.name not in own]
    text = (cmd.help or "").strip()
    return CommandSpec(path=path, words=words, summary=summary_of(text), help=text,
                       params=tuple(params), signed=path not in READS,
                       group=GROUP_OF.get(path, ""),
                       roles=roles_of(path, plugin) if path not in READS else (),
                       steps=STEPS.get(path, Steps.ONE),
                       kinds=tuple(k for alt in alternatives(path) for k in alt))


def summary_of(help_text: str) -> str:
    """The command's first paragraph as one line (click wraps help at any word: the
    first line alone may stop mid-sentence)."""
    first = help_text.strip().split("\n\n", 1)[0]
    return " ".join(first.split())


def desk_specs(tree: Any, format_id: str | None) -> list[CommandSpec]:
    """Every desk command's spec for an event of ``format_id`` (None: no outcome
    options; roles from the core's table only)."""
    from ledger.core.format_socket import plugin_for

    vocab = vocabulary_of(format_id)
    plugin = plugin_for(format_id)
    return [spec_of(tree, p, vocab, plugin) for p in desk_paths()]


def vocabulary_of(format_id: str | None) -> Vocabulary | None:
    import ledger.formats.registry  # noqa: F401  (plugs the formats into the core)
    from ledger.core.format_socket import plugin_for
    from ledger.errors import RuleError

    plugin = plugin_for(format_id)
    if plugin is None:
        return None
    try:
        return plugin.entry.result_vocabulary()
    except RuleError:     # a format that records no results
        return None
