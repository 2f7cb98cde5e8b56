"""Player words apart from CLI words (issue 32 item 2).

Owns: ``JARGON`` (what never appears in the main text of a player page: an option name,
a rule id, ``RULES.md``, an ``AMB-`` ruling, a placeholder such as ``NUMBER``),
``jargon`` (the jargon a text holds), ``plain`` (a CLI sentence with its rule citations
taken out, for free text a format writes once for both audiences: standings headings,
notes, seeding lines), ``REFUSALS`` and ``refusal`` (a refused report or act as a player
reads it, the rule id kept apart for a "why?" detail) and ``format_title`` (the format
as players name it: "Bushiroad Swiss, best of three, top 8").

The player words of each result field and outcome (``ResultField``/``ResultEntry``
``player_label``/``player_help``), of each standings column (``Column``) and the name of
each format (``FormatPlugin.player_name``) are declared by the format beside its CLI help;
this module only holds what is shared.  Nothing here changes a CLI output or a byte of
the log.

May import: ``ledger.errors``, the standard library.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ledger.errors import RuleError, TourneyError

#: an option (``--timeout``), a rule id (``HOTC-TIME-3``, ``BR-SWISS-TB-3``, ``REPORT-6``,
#: a family such as ``BR-SE``),
#: the rulebook's file, a ruling, a CLI placeholder, a refusal's bracketed rule id
JARGON = re.compile(r"--\w|\b[A-Z]{2,}[0-9]*-(?:[A-Z0-9-]*\d|[A-Z]{2,}\b)|RULES\.md|\bAMB-"
                    r"|\bNUMBER\b"
                    r"|\[[A-Z]+-[A-Z0-9-]+\]")

#: a citation in CLI text: "(BR-FIN-5)", ", AMB-B31", "(RULES.md §3.4–3.5)",
#: "(HOTC-TIME-2; a time loss)" keeps "(a time loss)"
_RULE = r"(?:[A-Z]{2,}[0-9]*-(?:[A-Z0-9-]*\d|[A-Z]{2,}\b)|RULES\.md(?: §[\d.–-]+)?)"
_ONLY = re.compile(rf"\s*\({_RULE}(?:[,;/ ]+{_RULE})*\)")
_LEAD = re.compile(rf"\((?:{_RULE}[;,]\s*)+")
_TAIL = re.compile(rf"(?:[,;]\s*{_RULE})+(?=\))")
_BRACKET = re.compile(rf"\s*\[{_RULE}\]")


def jargon(text: str) -> list[str]:
    """The jargon ``text`` holds (empty: a player may read it)."""
    return [m.group(0) for m in JARGON.finditer(text)]


def plain(text: str) -> str:
    """``text`` without its rule citations (the CLI and the log keep them)."""
    text = _BRACKET.sub("", text)
    text = _ONLY.sub("", text)
    text = _LEAD.sub("(", text)
    return _TAIL.sub("", text)


@dataclass(frozen=True)
class Refusal:
    """A refusal as a player reads it; ``why`` is the CLI's sentence with its rule id, for
    a "why?" detail."""

    text: str
    why: str


#: rule id → what a player reads when a report or an act of theirs is refused
REFUSALS: dict[str, str] = {
    "REPORT-1": "This player card is not valid here: see the scorekeeper's desk.",
    "REPORT-2": "This player card was replaced: use your newest card, or see the desk.",
    "REPORT-3": "This player card was already withdrawn: see the scorekeeper's desk.",
    "REPORT-4": "This player card is not yours or was withdrawn: scan your own card, "
                "or ask the desk for a new one.",
    "REPORT-5": "You do not play at that table: report the result of your own table.",
    "REPORT-6": "This result is already recorded, or the round is over: if it is wrong, "
                "see a judge at the scorekeeper's desk.",
    "REPORT-7": "That is not a result this table can have: check what you chose and try "
                "again.",
    "REPORT-8": "You already reported exactly this: nothing changed.",
    "REPORT-14": "That report can no longer be set aside: its result is recorded.",
    "REPORT-15": "This player card is not yours or was withdrawn: scan your own card, "
                 "or ask the desk for a new one.",
    "REPORT-16": "This phone's key could not be linked to your card: see the desk.",
    "REPORT-17": "Your card reports only from the phone that holds its key: use that "
                 "phone, or see the desk.",
    "REPORT-18": "Your card's key is already held by another phone: only that phone can "
                 "hand it over. Lost it? Ask the head judge for a new card.",
    "REPORT-19": "This signed request was already used: send it again from your phone, "
                 "which signs a fresh one.",
    "REPORT-20": "Your card drops only from the phone that holds its key: use that phone, "
                 "or see the desk.",
}
#: any other refusal
REFUSED = "This could not be recorded: see a judge at the scorekeeper's desk."


def refusal(err: TourneyError) -> Refusal:
    """A refused request in a player's words; the CLI's sentence (rule id and all) stays
    in ``why``."""
    why = err.message + (f" ({err.hint})" if err.hint else "")
    said = plain(why)
    rule = err.rule if isinstance(err, RuleError) else None
    # a refusal written for the player (a rule's plain finding, no jargon: "your match has
    # no result yet: report it first") keeps its own words; the others read the rule's
    finding = getattr(err, "finding", "rule_violation")
    if rule is not None and rule in REFUSALS and (finding != "rule_violation"
                                                  or jargon(said)):
        return Refusal(REFUSALS[rule], why)
    return Refusal(said if not jargon(said) else REFUSALS.get(rule or "", REFUSED), why)


def format_title(name: str, *, cut: int | None, extras: tuple[str, ...] = ()) -> str:
    """"Bushiroad Swiss, best of three, top 8": the format's ``player_name``, what the
    format says of this event (``extras``) and its top cut."""
    parts = [name, *extras]
    if cut:
        parts.append(f"top {cut}")
    return ", ".join(p for p in parts if p)
