"""Standings as a format declares them: columns as data, rows of values (issue 17, ADR 0021).

Owns: ``Show`` (how a value prints), ``Align``, ``Column`` (key, header, how it prints,
alignment, whether a phone keeps it), ``Revoked`` (a disqualified player's mark: the
revocation and prize policy, BR-PEN-RANK-9), ``Row``, ``OpenRound`` (the round in
progress a view was computed over) and ``StandingsView`` — what
the ``views`` facet's ``standings(state)`` returns and every output (``tourney standings`` text,
``--json``, ``--csv``, ``--html`` and the published site) renders generically.

The JSON convention (docs/STANDINGS.md): a row keeps the format's normative fields
(docs/DESIGN.md §8/§11, unchanged: they are what ``report_published`` signs) and adds
``figures``: for every fraction-valued column ``{"exact": "num/den", "display": "…"}``.
Percentages display truncated (never rounded) to two decimals, e.g. ``"47.75%"``.

May import: the standard library only.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import Enum
from fractions import Fraction
from functools import cached_property
from typing import Any

Value = int | str | Fraction | None


class Show(str, Enum):
    """How a column's values print."""

    TEXT = "text"          # as is
    NUMBER = "number"      # an integer
    PERCENT = "percent"    # a fraction of 1 as a percentage, truncated to 2 decimals
    DECIMAL = "decimal"    # an exact fraction printed by the format's own ``decimal`` text


class Align(str, Enum):
    LEFT = "left"
    RIGHT = "right"


def fraction_text(value: Fraction) -> str:
    """"num/den" in lowest terms (docs/DESIGN.md §4), "1/1" and "0/1" included."""
    g = math.gcd(value.numerator, value.denominator) or 1
    return f"{value.numerator // g}/{value.denominator // g}"


def percent_text(value: Fraction) -> str:
    """A fraction of 1 as a percentage truncated (never rounded) to 2 decimals: "47.75%"."""
    hundredths = (value.numerator * 10_000) // value.denominator
    return f"{hundredths // 100}.{hundredths % 100:02d}%"


@dataclass(frozen=True)
class Column:
    """One standings column: ``key`` in the rows, ``header`` as printed, how it prints.

    ``phone``: kept on a narrow screen (the rest collapse below 40rem, never in print).
    ``decimal``: for ``Show.DECIMAL``, the format's text of an exact value (e.g. WoT TBP).
    """

    key: str
    header: str
    show: Show = Show.TEXT
    align: Align = Align.LEFT
    phone: bool = False
    decimal: Any = None  # Callable[[Fraction], str] for Show.DECIMAL
    title: str = ""      # what the header means (a tooltip on pages)
    #: a player's words (the live pages, issue 32): the header and what it means, with
    #: no rule id or option name; ``header``/``title`` stay the CLI's and the sheets'
    player_label: str = ""
    player_help: str = ""

    def text(self, value: Value) -> str:
        """The value as players read it ("—" for none)."""
        kind = type(value)
        if kind is str:        # the common cells first: an ABC check of Fraction is slow
            return value  # type: ignore[return-value]
        if kind is int:
            return str(value)
        if value is None:
            return "—"
        if isinstance(value, Fraction):
            if self.show is Show.PERCENT:
                return percent_text(value)
            if self.show is Show.DECIMAL and self.decimal is not None:
                return str(self.decimal(value))
            return fraction_text(value)
        return str(value)

    def exact(self, value: Value) -> str | None:
        """The exact fraction behind a fraction-valued cell ("num/den"), else None."""
        return fraction_text(value) if isinstance(value, Fraction) else None


@dataclass(frozen=True)
class Revoked:
    """A disqualified player's standing (BR-PEN-RANK-9(b)-(d), AMB-B24): shown, unranked."""

    seq: int
    round: int
    prize_policy: str      # "void" (the place stays empty) or "pass_down"

    def text(self) -> str:
        prize = ("prize passes down" if self.prize_policy == "pass_down"
                 else "prize void, place left empty")
        return f"disqualified (seq {self.seq}, round {self.round}): standing revoked, {prize}"

    def json(self) -> dict[str, Any]:
        return {"seq": self.seq, "round": self.round, "standing_revoked": True,
                "prize_policy": self.prize_policy}


@dataclass
class Row:
    """One player's line: ``values`` the cells by column key; ``doc`` makes the format's
    normative JSON row (docs/DESIGN.md §8/§11, what the signed report states), ``document``,
    built on first use only: the printed table never reads it (issue 22, ADR 0025).
    Not frozen (a frozen dataclass sets each field through ``object.__setattr__``: 4 ms
    of 4,096 rows, ADR 0025 sixth pass); nothing assigns to a row once built: a page
    that changes one makes a new row (``dataclasses.replace``)."""

    number: int
    name: str
    rank: int | None
    status: str
    values: dict[str, Value]
    doc: Callable[[], dict[str, Any]] = field(compare=False, repr=False)
    revoked: Revoked | None = None
    #: a team's members by position, as (number, name) (issue 32: ``standings --json``
    #: states them as data, not only inside the team's name); None: one player
    members: tuple[tuple[int, str], ...] | None = None

    @cached_property
    def document(self) -> dict[str, Any]:
        """The row's JSON; a revoked standing has no rank (``rank: null``, issue 27 item
        7): the place it held is the format's ``revoke`` (passed down or left empty)."""
        doc = self.doc()
        if self.revoked is not None and doc.get("rank") is not None:
            doc = {**doc, "rank": None}
        return doc


@dataclass(frozen=True)
class OpenRound:
    """The round (a Game in Wheel of Time) paired at ``paired_seq`` whose results are not
    all in: standings mid-round are those before it (defect 5)."""

    number: int
    paired_seq: int
    noun: str = "round"


@dataclass(frozen=True)
class StandingsView:
    """A format's standings: heading, columns, rows best first (revoked players last).

    ``summary`` is the format's normative JSON document without its rows, in its key order
    (the rows, ``report_rows``, go where it has a ``"players"`` key, else first):
    ``document`` is built from it on first use; ``csv_columns`` the CSV header;
    ``open_round`` the round in progress, if any;
    ``as_of`` set when the view was computed over the state before that round."""

    heading: str
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]
    summary: dict[str, Any]
    csv_columns: tuple[str, ...]
    notes: tuple[str, ...] = ()
    open_round: OpenRound | None = None
    as_of: str | None = field(default=None)
    #: the figures every format states (``report_published``): champion, cut, rounds
    champion: int | None = None
    cut: list[int] | None = None
    rounds: int = 0
    #: what a round is called ("round"; "Game" in Wheel of Time)
    round_noun: str = "round"
    #: how the top cut's bracket was seeded, in words (bracket page), if it has one
    seeding: str | None = None

    @cached_property
    def document(self) -> dict[str, Any]:
        """The format's normative document (``players``: ``report_rows``)."""
        return self._with_players(self.report_rows())

    def _with_players(self, players: list[dict[str, Any]]) -> dict[str, Any]:
        if "players" in self.summary:
            return {**self.summary, "players": players}
        return {"players": players, **self.summary}

    def report_rows(self) -> list[dict[str, Any]]:
        """The normative rows without revoked players: what ``report_published`` signs."""
        return [r.document for r in self.rows if r.revoked is None]

    def figures(self, row: Row) -> dict[str, dict[str, str]]:
        return {c.key: {"exact": exact, "display": c.text(row.values.get(c.key))}
                for c in self.columns
                if (exact := c.exact(row.values.get(c.key))) is not None}

    def json(self) -> dict[str, Any]:
        """``standings --json``: the normative document, every row with its ``figures``,
        revoked players included with ``revoked``; ``as_of`` when mid-round."""
        players = []
        for r in self.rows:
            doc = {**r.document, "figures": self.figures(r)}
            if r.revoked is not None:
                doc["revoked"] = r.revoked.json()
            if r.members is not None:
                doc["members"] = [{"number": n, "name": name} for n, name in r.members]
            players.append(doc)
        return {**self._with_players(players), "as_of": self.as_of,
                "columns": [{"key": c.key, "header": c.header, "show": c.show.value}
                            for c in self.columns]}

    def csv_rows(self) -> list[list[str]]:
        """Header and one line per row (revoked players marked in ``revoked``)."""
        head = [*self.csv_columns, "revoked"]
        out = [head]
        for r in self.rows:
            doc = r.document
            out.append(["" if doc.get(c) is None else str(doc.get(c))
                        for c in self.csv_columns]
                       + ["" if r.revoked is None else r.revoked.prize_policy])
        return out

    def with_as_of(self, as_of: str, open_round: OpenRound) -> StandingsView:
        return replace(self, open_round=open_round, as_of=as_of)
