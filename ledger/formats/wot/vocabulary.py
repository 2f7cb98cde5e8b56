"""The Wheel of Time result vocabularies (issue 17): a Game's result is an outcome code
(``wot-classic``: O1–O8, WOTOLD-SCORE-3; ``wot-2001``: Q1–Q5, WOT01-SCORE-9) with the
amounts that code needs, as data, each code explained where a judge enters it.

Owns: ``CLASSIC`` and ``Y2001`` (the vocabularies), ``result_kwargs`` (the keywords of
``commands.record_result``) and ``slip_given`` (slip columns named after the options).
Which amounts a code needs is checked by ``ledger.formats.wot.results.validate_result``.

May import: ``ledger.core.vocabulary``, ``ledger.formats.wot.*``.
"""

from __future__ import annotations

from typing import Any

from ledger.core.vocabulary import FieldKind, Given, ResultEntry, ResultField, Vocabulary
from ledger.formats.wot.model import Revision

WINNER = ResultField("winner", FieldKind.PLAYER, "The player who won the Game.", "NUMBER",
                     player_label="Winner", player_help="Who won the Game.")
SUPPORT = ResultField("support", FieldKind.AMOUNTS,
                      "Final support/opposition per player, e.g. 3=6,8=2.", "N=V[,N=V]",
                      player_label="Support or opposition",
                      player_help="Each player's final support or opposition.")
PATTERN = ResultField("pattern", FieldKind.AMOUNTS,
                      "Each player's own Pattern, e.g. 3=9,8=4.", "N=V,N=V",
                      player_label="Pattern", player_help="Each player's own Pattern.")
NEUTRAL = ResultField("neutral", FieldKind.COUNT, "The Neutral Pattern N (Q4/Q5).", "N",
                      player_label="Neutral Pattern",
                      player_help="The Neutral Pattern when the Game ended.")
CONCEDED = ResultField("conceded_by", FieldKind.PLAYER,
                       "The player who conceded or was declared forfeit.", "NUMBER",
                       player_label="Who conceded",
                       player_help="The player who conceded or was declared forfeit.")
LAST_BATTLE = ResultField("last_battle", FieldKind.SWITCH,
                          "When the Game ended (only Q3/Q5 need it; other codes fix it).",
                          off="before-last-battle",
                          player_label="When the Game ended",
                          player_help="Whether the Game ended during the Last Battle.",
                          switch_words=("in the Last Battle", "before the Last Battle"))

_CLASSIC_CODES = (
    ("O1", "win in the Last Battle by reaching 5+ support/opposition (GP 2/0)",
     ("winner", "support"), "--outcome O1 --winner 3 --support 3=6,8=2"),
    ("O2", "win by killing the opponent's Ta'veren/Forsaken during the Last Battle (GP 2/0)",
     ("winner", "support"), "--outcome O2 --winner 3 --support 3=2"),
    ("O3", "the opponent conceded or was declared forfeit during the Last Battle (GP 2/0)",
     ("winner", "support", "conceded_by"),
     "--outcome O3 --winner 3 --support 3=2 --conceded-by 8"),
    ("O4", "win by a kill before the Last Battle (GP 2/-1)", ("winner",),
     "--outcome O4 --winner 3"),
    ("O5", "the opponent conceded or was declared forfeit before the Last Battle (GP 2/-1)",
     ("winner", "conceded_by"), "--outcome O5 --winner 3 --conceded-by 8"),
    ("O6", "both killed in the same Last Battle game-turn (GP 0 each)", ("support",),
     "--outcome O6 --support 3=3,8=4"),
    ("O7", "both killed in the same game-turn before the Last Battle (GP -1 each)", (),
     "--outcome O7"),
    ("O8", "tie: the final Last Battle game-turn was completed and nobody won (GP 1 each)",
     (), "--outcome O8"),
)
_2001_CODES = (
    ("Q1", "decided in the Last Battle (support/opposition, or a kill during it) (GP 2/0)",
     ("winner", "pattern"), "--outcome Q1 --winner 3 --pattern 3=9,8=4"),
    ("Q2", "tie: the final Last Battle game-turn completed without a winner (GP 1 each)",
     ("pattern",), "--outcome Q2 --pattern 3=7,8=7"),
    ("Q3", "both lose, outside the pre-Last Battle kill case (GP 0 each); say when: "
     "--last-battle or --before-last-battle", ("pattern", "last_battle"),
     "--outcome Q3 --pattern 3=5,8=6 --last-battle"),
    ("Q4", "starting character or Ta'veren killed before the Last Battle (GP 2/0; no "
     "winner when both were killed, AMB-W4)", ("winner", "pattern", "neutral"),
     "--outcome Q4 --winner 3 --pattern 3=4,8=6 --neutral 5"),
    ("Q5", "the opponent conceded or was declared forfeit, any time (GP 2/0; the "
     "conceder's TBP is 0); say when: --last-battle or --before-last-battle",
     ("winner", "pattern", "neutral", "conceded_by", "last_battle"),
     "--outcome Q5 --winner 3 --pattern 3=4,8=6 --neutral 5 --conceded-by 8 "
     "--before-last-battle"),
)

#: a player's words for each code (the live pages; issue 32): no code id, no rule id
PLAYER_WORDS = {
    "O1": ("Won in the Last Battle on support",
           "A player reached 5 or more support or opposition in the Last Battle."),
    "O2": ("Won by a kill in the Last Battle",
           "A player killed the opponent's Ta'veren or Forsaken during the Last Battle."),
    "O3": ("Conceded in the Last Battle",
           "A player conceded or was declared forfeit during the Last Battle."),
    "O4": ("Won by a kill before the Last Battle", "A player won by a kill before the "
           "Last Battle."),
    "O5": ("Conceded before the Last Battle",
           "A player conceded or was declared forfeit before the Last Battle."),
    "O6": ("Both killed in the Last Battle",
           "Both players were killed in the same game-turn of the Last Battle."),
    "O7": ("Both killed before the Last Battle",
           "Both players were killed in the same game-turn before the Last Battle."),
    "O8": ("A tie", "The final game-turn of the Last Battle was completed and nobody won."),
    "Q1": ("Decided in the Last Battle",
           "The Game was decided in the Last Battle (support, opposition or a kill)."),
    "Q2": ("A tie", "The final game-turn of the Last Battle was completed and nobody won."),
    "Q3": ("Both lost", "Both players lost; say whether it was in the Last Battle."),
    "Q4": ("A kill before the Last Battle",
           "A starting character or Ta'veren was killed before the Last Battle."),
    "Q5": ("One of us conceded",
           "A player conceded or was declared forfeit; say whether it was in the Last "
           "Battle."),
}


def _vocabulary(title: str, rule: str,
                codes: tuple[tuple[str, str, tuple[str, ...], str], ...],
                amounts: ResultField) -> Vocabulary:
    outcome = ResultField("outcome", FieldKind.CODE, f"The outcome code ({rule}).", "CODE",
                          choices=tuple(c for c, *_ in codes), rule=rule,
                          player_label="What happened", player_help="How the Game ended.")
    return Vocabulary(
        title=title,
        fields=(outcome, WINNER, amounts, *((NEUTRAL,) if amounts is PATTERN else ()),
                CONCEDED, LAST_BATTLE),
        entries=tuple(ResultEntry(code, "outcome", f"{code}: {words} ({rule})",
                                  takes=tuple(t for t in takes if t != "last_battle"),
                                  needs=("last_battle",) if "last_battle" in takes else (),
                                  example=example, value=code,
                                  player_label=PLAYER_WORDS[code][0],
                                  player_help=PLAYER_WORDS[code][1])
                      for code, words, takes, example in codes),
        slip_columns=tuple(f.name for f in (WINNER, amounts, CONCEDED, LAST_BATTLE))
        + (("neutral",) if amounts is PATTERN else ()),
        slip_required=("outcome",),
        notes=("A bye is scored by the standings (O9/Q6) and is never entered.",),
    )


CLASSIC = _vocabulary("Wheel of Time classic (wot-classic)", "WOTOLD-SCORE-3",
                      _CLASSIC_CODES, SUPPORT)
Y2001 = _vocabulary("Wheel of Time 2001 (wot-2001)", "WOT01-SCORE-9", _2001_CODES, PATTERN)
VOCABULARIES = {Revision.WOT_OLD: CLASSIC, Revision.WOT_2001: Y2001}


def result_kwargs(entry: ResultEntry, given: Given, *, round_no: int,
                  table: int) -> dict[str, Any]:
    return {"round_no": round_no, "table": table, "wot_outcome": entry.value,
            "winner": given.get("winner"), "support": given.get("support"),
            "pattern": given.get("pattern"), "neutral": given.get("neutral"),
            "conceded_by": given.get("conceded_by"),
            "last_battle": given.get("last_battle")}
