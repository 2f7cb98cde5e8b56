"""The outcome options of ``tourney result record|correct|amend``, read from the format.

Owns: the options every result command declares itself (``--round``, ``--table``), the
``Outcome`` settings that let a result command take the options of the event's format
(``OUTCOME_SETTINGS``, ``ResultCommand`` whose ``--help`` lists every format's
vocabulary), ``entry_kwargs`` (the command line's outcome options → the format's
``record_result`` keywords, through its declared ``Vocabulary`` and ``result_kwargs``)
and ``vocabulary_help``.  Which outcomes exist, which options they take, in which phase,
and what they mean is the format's declaration (issue 17, ADR 0015), never decided here.

May import: ``typer``, ``ledger.errors``, ``ledger.core.format_socket``, ``ledger.core.format_plugin``, ``ledger.core.vocabulary``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Annotated, Any, cast

import typer
from typer.core import TyperCommand

if TYPE_CHECKING:
    from ledger.core.aggregate import Tournament
    from ledger.core.entry_facet import ResultFields
    from ledger.core.vocabulary import Vocabulary

_Opt = typer.Option
RoundOpt = Annotated[int, _Opt("--round", metavar="N", min=1, help="Round number.")]
TableOpt = Annotated[int, _Opt("--table", metavar="T", min=1, help="Table number.")]

#: a result command takes the event's format's outcome options after its own
OUTCOME_SETTINGS: dict[str, Any] = {"allow_extra_args": True,
                                    "ignore_unknown_options": True}


def vocabularies() -> list[Vocabulary]:
    """Every registered format's vocabulary, each once (formats may share one)."""
    import ledger.formats.registry  # noqa: F401  (plugs the formats into the core)
    from ledger.core.format_socket import registered_formats
    from ledger.errors import RuleError

    out: list[Vocabulary] = []
    for plugin in registered_formats():
        try:
            v = plugin.entry.result_vocabulary()
        except RuleError:       # a format that records no results
            continue
        if all(v is not o for o in out):
            out.append(v)
    return out


def vocabulary_help(vocabs: Iterable[Vocabulary]) -> list[str]:
    lines: list[str] = []
    for v in vocabs:
        lines += [*v.help_lines(), ""]
    return lines


class ResultCommand(TyperCommand):
    """A result command whose ``--help`` ends with the outcome options of every format
    (read from the formats' declarations only when help is asked for)."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        lines = ["Outcome options, by format (exactly one outcome; 'tourney result codes' "
                 "prints the event's own):", *vocabulary_help(vocabularies())]
        # rich help joins the lines of a paragraph: one paragraph per line
        self.epilog = "\n\n".join(
            "\u00a0" * (len(line) - len(line.lstrip())) + line.lstrip()
            for line in lines if line)
        super().format_help(ctx, formatter)


def entry_kwargs(t: Tournament, args: list[str], round_no: int,
                 table: int) -> ResultFields:
    """The outcome options on the command line (the ones the command did not declare)
    → the keywords of the format's ``record_result`` / ``correct_result``."""
    plugin = t.plugin
    vocab = plugin.entry.result_vocabulary()
    given = vocab.parse(args)
    entry = vocab.entry_for(given, plugin.entry.round_phase(t.state, round_no))
    return plugin.entry.result_kwargs(t.state, entry, given, round_no=round_no, table=table)


def parse_games(text: str | None, option: str = "--games") -> list[int] | None:
    """``--games 2-1`` or ``2-1-1`` → [2, 1] / [2, 1, 1] (an end-of-match decision's
    score; a result's is read by the format's vocabulary)."""
    from ledger.core.vocabulary import FieldKind, ResultField, read_value

    if text is None:
        return None
    field = ResultField(option.removeprefix("--").replace("-", "_"), FieldKind.GAMES,
                        "Game wins of the first and second player [and drawn games].",
                        "A-B[-D]")
    return cast("list[int]", read_value(field, text))
