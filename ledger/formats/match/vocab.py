"""What the formats on the shared match layer share of their result vocabularies.

Owns: the fields a match result may name (``WINNER``, ``CONCESSION``, ``TIMEOUT`` …, each
a ``ledger.core.vocabulary.ResultField``), ``round_phase`` (the phase of a round, for
``ResultEntry.phases``), ``slip_given`` (the slip columns of docs/DESIGN.md §8 —
``winner[,games,decided_by]`` — read as the same fields the command line gives) and
``table_players`` (who sits at a table, for the slip reading).  Which entries a format
has, and what each means, is the format's own vocabulary module.

May import: ``ledger.core.vocabulary``, ``ledger.errors``, ``ledger.formats.match.*``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ledger.core.state import TournamentState
from ledger.core.vocabulary import FieldKind, Given, ResultField
from ledger.errors import UsageError
from ledger.formats.match.apply import find_round, find_table
from ledger.formats.match.model import MatchState, Phase

WINNER = ResultField("winner", FieldKind.PLAYER, "The player who won.", "NUMBER",
                     player_label="Winner", player_help="Who won the match.")
CONCESSION = ResultField("concession", FieldKind.PLAYER,
                         "The player who conceded: the opponent wins.", "NUMBER",
                         player_label="Who conceded",
                         player_help="The player who conceded; the opponent wins.")
TIMEOUT = ResultField("timeout", FieldKind.FLAG, "Time ran out.",
                      player_label="Time ran out", player_help="Time was called before the "
                      "match ended.")
GAMES = ResultField("games", FieldKind.GAMES,
                    "Game wins of the first and second player at the table [and drawn "
                    "games], e.g. 2-1 or 1-1-1.", "A-B[-D]",
                    player_label="Game score",
                    player_help="Games won by the first player, then by the second player "
                    "at the table (and drawn games), e.g. 2-1 or 1-1-1.")
DRAW = ResultField("draw", FieldKind.FLAG, "The match ended with equal game wins.",
                   player_label="Draw", player_help="Both players won the same number of "
                   "games.")

SLIP_DECIDED_BY = ("play", "concession", "slow-play", "timeout", "tie", "draw")
DOUBLE_LOSS_WORD = "double-loss"
NO_WINNER_WORD = "none"


def round_phase(state: TournamentState, round_no: int) -> str | None:
    fmt = state.fmt
    if not isinstance(fmt, MatchState):
        return None
    rnd = find_round(fmt, round_no)
    return None if rnd is None else rnd.phase.value


def table_players(state: TournamentState, round_no: int, table: int) -> list[int]:
    tab = find_table(state.fmt, round_no, table) if isinstance(state.fmt, MatchState) \
        else None
    return [] if tab is None else list(tab.players)


def seat(state: TournamentState, round_no: int, table: int) -> tuple[Phase, list[int]] | None:
    """The phase and players of a table of any round: the open round's from the rounds
    kept in the state, an earlier round's from the table history (as played: an
    override's tables, not the engine's)."""
    from ledger.formats.match import history

    fmt = state.fmt
    if not isinstance(fmt, MatchState):
        return None
    rnd = find_round(fmt, round_no)
    tab = find_table(fmt, round_no, table)
    if rnd is not None and tab is not None:
        return rnd.phase, list(tab.players)
    row = history.get(fmt.officiating, round_no, table)
    if row is None:
        return None
    return (Phase.SWISS if row.swiss else Phase.TOP_CUT), list(row.players)


def table_at(state: TournamentState, round_no: int,
             table: int) -> tuple[list[int], Any] | None:
    tab = find_table(state.fmt, round_no, table) if isinstance(state.fmt, MatchState) \
        else None
    return None if tab is None else (list(tab.players), tab.result)


def slip_given(state: TournamentState, row: Mapping[str, str], *, games_recorded: bool,
               turn_player_timeout: bool) -> tuple[Given, str]:
    """A docs/DESIGN.md §8 slip — ``winner`` (a number, ``double-loss`` or ``none``),
    ``decided_by`` (play, concession, slow-play, timeout, tie, draw) and ``games`` —
    read as the fields of ``result record``.  ``games_recorded``: the format records
    game scores (else they are kept in the note); ``turn_player_timeout``: a timeout
    with a winner means the other player was the turn player (else the games decide)."""
    win = (row.get("winner") or "").strip().lower()
    how = (row.get("decided_by") or "").strip().lower() or "play"
    games_text = (row.get("games") or "").strip()
    if how not in SLIP_DECIDED_BY:
        raise UsageError(f"decided_by {row.get('decided_by')!r} is not one of "
                         f"{', '.join(SLIP_DECIDED_BY)}")
    if win in (DOUBLE_LOSS_WORD, NO_WINNER_WORD):
        winner = None
    elif win.isascii() and win.isdigit() and int(win) >= 1:
        winner = int(win)
    else:
        raise UsageError(f"winner {row.get('winner')!r} is not a player number in ASCII "
                         f"digits, {DOUBLE_LOSS_WORD} or {NO_WINNER_WORD}")
    if win == DOUBLE_LOSS_WORD and how not in ("play", "timeout", "tie"):
        raise UsageError(f"{DOUBLE_LOSS_WORD} goes with decided_by timeout or tie, not {how}")
    if win == NO_WINNER_WORD and how not in ("draw", "timeout"):
        raise UsageError(f"{NO_WINNER_WORD} goes with decided_by draw or timeout, not {how}")
    if how == "tie" and win != DOUBLE_LOSS_WORD:
        raise UsageError(f"decided_by tie means both lose: winner must be {DOUBLE_LOSS_WORD}")
    if how == "draw" and win != NO_WINNER_WORD:
        raise UsageError(f"decided_by draw means nobody won: winner must be {NO_WINNER_WORD}")
    given: Given = {}
    if games_text and games_recorded:
        from ledger.core.vocabulary import read_value
        given["games"] = read_value(GAMES, games_text)
    note = f"games {games_text}" if games_text and not games_recorded else ""
    players = table_players(state, _int(row, "round"), _int(row, "table"))
    other = [p for p in players if p != winner]
    loser = other[0] if winner is not None and len(other) == 1 else None
    if winner is not None and how != "play" and loser is None:
        raise UsageError(f"#{winner} is not at this table"
                         + (f" ({players[0]} v {players[1]})" if len(players) == 2 else ""),
                         hint="the winner column names one of the table's players")
    if winner is None:
        given[{"tie": "tie", "draw": "draw"}.get(how, "timeout")] = True
    elif how == "concession":
        given["concession"] = loser
    elif how == "slow-play":
        given["slow_play"] = loser
    elif how == "timeout":
        given["timeout"] = True
        if turn_player_timeout:
            given["turn_player"] = loser
    else:
        given["winner"] = winner
    return given, note


def _int(row: Mapping[str, str], col: str) -> int:
    text = (row.get(col) or "").strip()
    return int(text) if text.isascii() and text.isdigit() else 0
