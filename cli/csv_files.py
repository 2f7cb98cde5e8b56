"""The file-level diagnosis of a CSV file the desk imports (players, result slips).

Owns: ``delimiter_hint`` — a header that is not comma-separated (a spreadsheet's
semicolon CSV, a tab- or pipe-separated export) is named by its delimiter, so the
one-line error says what to change instead of listing unknown columns (issue 17,
defect 24).  Used where ``players_cmd`` and ``result_import`` check a file's header.
``csv_text`` decodes a file (one message for a file that is not UTF-8) and ``at_line``
names a refused row's file and line (players and teams imports).

May import: the standard library, ``ledger.errors``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

#: delimiters other programs write, by the name the error uses
OTHER_DELIMITERS: dict[str, str] = {";": "semicolon", "\t": "tab", "|": "pipe"}


def delimiter_hint(header: Sequence[str]) -> str | None:
    """The hint for a header read as comma-separated whose fields hold another delimiter
    (``round;table;winner``), or None when the header is not that."""
    for delimiter, name in OTHER_DELIMITERS.items():
        if any(delimiter in field for field in header):
            shown = "\\t" if delimiter == "\t" else delimiter
            return (f"the file is {name}-separated ('{shown}'), not comma-separated: save it "
                    "as CSV with commas (a spreadsheet's 'CSV UTF-8 (comma delimited)'); "
                    "nothing was written")
    return None


@contextmanager
def at_line(file: object, line: int) -> Iterator[None]:
    """A refusal while writing one row of a CSV file names the file and line, and says
    nothing was written (the rows of one import are one transaction)."""
    from ledger.errors import TourneyError

    try:
        yield
    except TourneyError as err:
        err.message = f"{file} line {line}: {err.message}"
        err.hint = (err.hint + "; nothing was written") if err.hint else \
            "nothing was written"
        raise


def csv_text(data: bytes, name: object) -> str:
    """A CSV file's text (UTF-8, a spreadsheet's byte-order mark dropped), or the usage
    error that says it is not UTF-8."""
    from ledger.errors import UsageError

    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UsageError(f"{name} is not UTF-8 (byte {exc.start})",
                         hint="save the file as UTF-8 CSV; nothing was written") from None
