"""The console's command words for translators (issue 31): every string the desk's
command forms show, from the desk specs of every format, as a gettext template.

Owns: ``every_spec`` (the desk specs of an event of each format, and of none: a result
command's options differ by format) and ``main`` — ``python -m cli.command_words --pot
[FILE]`` writes ``commands.pot`` (stdout without FILE); ``--check LANG`` lists the
strings ``server/locale/LANG/LC_MESSAGES/commands.po`` lacks (exit 1 when any).
The message ids are the specs' English texts (``server.command_words.messages``).

May import: ``cli.api_book``, ``server.command_words``, ``server.desk_forms``,
``ledger.formats.registry``, ``babel``, the standard library.
"""

from __future__ import annotations

import io
import sys

from usecases.command_specs import CommandSpec


def every_spec() -> list[CommandSpec]:
    from cli.api_book import desk_specs, whole_tree
    from ledger.formats.registry import FORMAT_IDS

    tree = whole_tree()
    return [s for fmt in (None, *FORMAT_IDS) for s in desk_specs(tree, fmt)]


def every_message() -> dict[str, str]:
    from server.command_words import messages
    from server.desk_forms import OTHER, PANELS

    return messages(every_spec(), [p.title for p in (*PANELS, OTHER)])


def pot() -> bytes:
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    cat = Catalog(project="tourney", domain="commands", charset="utf-8")
    for msgid, where in every_message().items():
        cat.add(msgid, auto_comments=[where])
    buf = io.BytesIO()
    write_po(buf, cat, width=0, omit_header=False)
    return buf.getvalue()


def missing(lang: str) -> list[str]:
    from babel.messages.pofile import read_po

    from server.command_words import commands_path
    from server.i18n import parse

    language = parse(lang)
    if language is None:
        return sorted(every_message())
    path = commands_path(language)
    if not path.exists():
        return sorted(every_message())
    with path.open("rb") as f:
        cat = read_po(f, locale=language.value)
    return sorted(m for m in every_message()
                  if m not in cat or not cat[m].string or cat[m].fuzzy)


def main(argv: list[str]) -> int:
    if argv[:1] == ["--pot"]:
        body = pot()
        if len(argv) > 1:
            with open(argv[1], "wb") as f:
                f.write(body)
        else:
            sys.stdout.buffer.write(body)
        return 0
    if argv[:1] == ["--check"] and len(argv) == 2:
        gaps = missing(argv[1])
        for m in gaps:
            print(m)
        return 1 if gaps else 0
    print("usage: python -m cli.command_words --pot [FILE] | --check LANG", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
