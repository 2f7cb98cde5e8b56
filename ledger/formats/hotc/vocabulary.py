"""The HotC result vocabulary (issue 17): what a HotC match can end in, as data, and what
each outcome means for ``record_result``.

Owns: ``VOCABULARY`` (the entries: a played win, a concession, a timeout — a double loss
in the Swiss phase (HOTC-TIME-2), the turn player's loss in the top cut (HOTC-TOP-2) —,
a slow-play timeout (HOTC-TIME-2), the Swiss double loss and tie (AMB-H14), a win after
both players' slow-play calls (HOTC-TIME-3)), ``result_kwargs`` and ``slip_given``.

May import: ``ledger.core.vocabulary``, ``ledger.formats.match.*``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ledger.core.state import TournamentState
from ledger.core.vocabulary import FieldKind, Given, ResultEntry, ResultField, Vocabulary
from ledger.formats.match import vocab
from ledger.formats.match.model import Outcome

SWISS, TOP = "swiss", "top_cut"

SLOW_PLAY = ResultField("slow_play", FieldKind.PLAYER,
                        "Time ran out after an upheld slow-play call against NUMBER.",
                        "NUMBER", player_label="Called for slow play",
                        player_help="The player a judge's slow-play call was upheld "
                        "against.")
DOUBLE_LOSS = ResultField("double_loss", FieldKind.FLAG,
                          "Swiss: time ran out with no upheld call, both lose.",
                          player_label="Both lose on time",
                          player_help="Time ran out and no slow-play call was upheld.")
TIE = ResultField("tie", FieldKind.FLAG,
                  "Swiss: both met a losing condition at once, both lose.",
                  player_label="Both lost at once",
                  player_help="Both players met a losing condition at the same moment.")
TURN_PLAYER = ResultField("turn_player", FieldKind.PLAYER,
                          "Top cut: whose turn it was when time ran out (that player loses).",
                          "NUMBER", player_label="Whose turn it was",
                          player_help="The player whose turn it was when time was called "
                          "(that player loses).")
BOTH_SLOW = ResultField("both_slow_play", FieldKind.FLAG,
                        "Both players were called for slow play; the match was supervised "
                        "to its natural result.", player_label="Both were called for slow play",
                        player_help="A judge supervised the match to its end after "
                        "slow-play calls against both players.")

VOCABULARY = Vocabulary(
    title="HotC (hotc-swiss-de)",
    fields=(vocab.WINNER, vocab.CONCESSION, vocab.TIMEOUT, SLOW_PLAY, DOUBLE_LOSS, TIE,
            TURN_PLAYER, BOTH_SLOW),
    entries=(
        ResultEntry("win", "winner", "NUMBER won the game (played out, or supervised to its "
                    "end after both slow-play calls: add --both-slow-play, HOTC-TIME-3)",
                    takes=("both_slow_play",), example="--winner 3",
                    player_label="One of us won",
                    player_help="The game was played to its end (also when a judge "
                    "supervised it after slow-play calls against both players)."),
        ResultEntry("concession", "concession", "NUMBER conceded: the opponent wins",
                    example="--concession 3", player_label="One of us conceded",
                    player_help="The player who conceded loses; the opponent wins."),
        ResultEntry("timeout", "timeout", "time ran out with no upheld slow-play call: "
                    "both lose (HOTC-TIME-2; a time loss)", phases=(SWISS,),
                    example="--timeout", player_label="Time ran out",
                    player_help="Time was called with no slow-play call upheld: in the "
                    "Swiss rounds both players lose."),
        ResultEntry("timeout", "timeout", "time ran out: the turn player loses "
                    "(HOTC-TOP-2)", needs=("turn_player",), phases=(TOP,),
                    example="--timeout --turn-player 3", player_label="Time ran out",
                    player_help="Time was called: the player whose turn it was loses."),
        ResultEntry("slow_play", "slow_play", "time ran out after an upheld slow-play call "
                    "against NUMBER: NUMBER loses (HOTC-TIME-2)", example="--slow-play 3",
                    player_label="Time ran out after a slow-play call",
                    player_help="Time was called after a judge upheld a slow-play call: "
                    "the player called loses."),
        ResultEntry("double_loss", "double_loss", "the Swiss timeout double loss, as "
                    "--timeout (HOTC-TIME-2)", phases=(SWISS,), example="--double-loss",
                    player_label="Both lose on time",
                    player_help="Time was called with no slow-play call upheld: both "
                    "players lose."),
        ResultEntry("tie", "tie", "both met a losing condition at once: both lose, not a "
                    "time loss (AMB-H14)", phases=(SWISS,), example="--tie",
                    player_label="Both lost at once",
                    player_help="Both players met a losing condition at the same moment: "
                    "both lose."),
    ),
    notes=("Top cut: no ties; when both meet a losing condition the turn player loses "
           "(AMB-H14): record --winner with the other player.",),
)


def result_kwargs(state: TournamentState, entry: ResultEntry, given: Given, *,
                  round_no: int, table: int) -> dict[str, Any]:
    players = vocab.table_players(state, round_no, table)
    kw: dict[str, Any] = {"round_no": round_no, "table": table, "winner": None,
                          "loser": None, "turn_player": None, "slow_play": []}
    if entry.key == "win":
        kw.update(outcome=Outcome.WIN, winner=given["winner"])
        if given.get("both_slow_play"):
            kw["slow_play"] = players
    elif entry.key == "concession":
        kw.update(outcome=Outcome.CONCESSION, loser=given["concession"])
    elif entry.key == "slow_play":
        kw.update(outcome=Outcome.SLOW_PLAY, slow_play=[given["slow_play"]])
    elif entry.key in ("timeout", "double_loss"):
        kw.update(outcome=Outcome.TIMEOUT, turn_player=given.get("turn_player"))
    else:
        kw.update(outcome=Outcome.TIE)
    return kw


def slip_given(state: TournamentState, row: Mapping[str, str]) -> tuple[Given, str]:
    """HotC slips: a game score is kept in the note; a timeout with a winner means the
    other player was the turn player (HOTC-TOP-2; in the Swiss phase it is refused: a
    Swiss timeout is a double loss whoever's turn it was)."""
    return vocab.slip_given(state, row, games_recorded=False, turn_player_timeout=True)
