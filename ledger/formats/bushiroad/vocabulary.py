"""The Bushiroad result vocabulary (issue 17), shared by ``bushiroad-swiss``,
``bushiroad-de``, ``single-elim`` and ``round-robin``: what a fight can end in, as data,
and what each outcome means for ``record_result``.

Owns: ``VOCABULARY`` — a win with its game score (BR-MATCH-1), a draw (Swiss / round
robin: worth 0, BR-SWISS-4; double elimination: a tie both lose, BR-DE-3), a time-up the
game wins decide (the unfinished game is drawn: BR-SWISS-5, BR-DE-6, BR-SE-3), a
concession, and the Annex A values when Annex A was announced (BR-ANNEXA-*) —,
``result_kwargs`` and ``slip_given``.  Who won and why is decided by
``ledger.formats.bushiroad.commands.result_body``, never here.

May import: ``ledger.core.vocabulary``, ``ledger.formats.match.*``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ledger.core.state import TournamentState
from ledger.core.vocabulary import FieldKind, Given, ResultEntry, ResultField, Vocabulary
from ledger.errors import RuleError
from ledger.formats.match import vocab
from ledger.formats.match.model import Outcome

ANNEX = ResultField("annex_a", FieldKind.ANNEX,
                    "Annex A values compared at time-up (and at later checkpoints), first "
                    "player / second player: VG damage; WS level,clock; BF life.",
                    "A/B[;A/B…]", player_label="Values at time",
                    player_help="What each player had when time was called (first player / "
                    "second player): damage, level and clock, or life.")

#: team events (issue 20): the seat of a team table a result is for (BR-TEAM-2)
SEAT = ResultField("seat", FieldKind.COUNT, "Team events: the seat (position k of each team, "
                   "BR-TEAM-2) this result is for.", "K", player_label="Seat",
                   player_help="Your seat at the team table.", team_seat=True)
_S = ("seat",)

VOCABULARY = Vocabulary(
    title="Bushiroad (bushiroad-swiss, bushiroad-de, single-elim, round-robin)",
    fields=(vocab.WINNER, vocab.DRAW, vocab.TIMEOUT, vocab.CONCESSION, ANNEX, vocab.GAMES,
            SEAT),
    entries=(
        ResultEntry("win", "winner", "NUMBER won; --games A-B gives the game score (BO1: "
                    "1-0 by default; BO3: required unless 2-0, BR-MATCH-1)",
                    takes=("games", *_S), example="--winner 3 --games 2-1",
                    player_label="One of us won",
                    player_help="The match was played to its end; give the game score."),
        ResultEntry("draw", "draw", "equal game wins: Swiss and round robin a draw worth 0 "
                    "(BR-SWISS-4), double elimination a tie both lose (BR-DE-3); BO3 gives "
                    "the score", takes=("games", *_S), example="--draw --games 1-1-1",
                    player_label="A draw",
                    player_help="Both players won the same number of games."),
        ResultEntry("timeout", "timeout", "time ran out: the unfinished game is drawn and "
                    "the game wins decide (BR-SWISS-5, BR-DE-6, BR-SE-3)",
                    needs=("games",), takes=_S, example="--timeout --games 1-0-1",
                    player_label="Time ran out",
                    player_help="Time was called: the game in progress is drawn and the "
                    "games won decide."),
        ResultEntry("concession", "concession", "NUMBER conceded: the opponent wins",
                    takes=("games", *_S), example="--concession 3",
                    player_label="One of us conceded",
                    player_help="The player who conceded loses; the opponent wins."),
        ResultEntry("annex_a", "annex_a", "Annex A announced: the values at time-up decide "
                    "the game in progress (BR-ANNEXA-0); --games counts the games before it",
                    takes=("games", *_S), example="--annex-a 2,4/2,5 --games 1-0",
                    player_label="Time ran out and the judge compared values",
                    player_help="A judge compared what each player had when time was "
                    "called; the games before it count too."),
    ),
    slip_columns=("games", "decided_by", "seat"),
    notes=("--games: the first number is the first player at the table (round show).",
           "--seat K: team events, position K of each team (BR-TEAM-2); the team result "
           "is derived (AMB-B30)."),
)


def result_kwargs(state: TournamentState, entry: ResultEntry, given: Given, *,
                  round_no: int, table: int) -> dict[str, Any]:
    kw: dict[str, Any] = {"round_no": round_no, "table": table, "winner": None,
                          "loser": None}
    if "games" in given:
        kw["games"] = given["games"]
    if "seat" in given:
        kw["seat"] = given["seat"]
    if entry.key == "win":
        kw.update(outcome=Outcome.WIN, winner=given["winner"])
    elif entry.key == "draw":
        # BO1: one drawn game, played out.  BO3 has no played-out draw (the first to two
        # game wins takes it): equal game wins are a draw at time-up (BR-MATCH-1,
        # BR-SWISS-5), decided by the game wins like any time-up.
        bo3 = state.format is not None and state.format.params.get("match_format") == "BO3"
        games = given.get("games")
        if bo3 or (isinstance(games, list) and games[:2] != [0, 0]):
            if not isinstance(games, list) or games[0] != games[1] or games[2:3] in ([], [0]):
                raise RuleError("BR-MATCH-1", "a BO3 draw is equal game wins at time-up, "
                                "the unfinished game drawn (BR-SWISS-5)",
                                hint="e.g. --draw --games 1-1-1 (or 0-0-1); an unfinished "
                                     "match ahead on games is --timeout --games A-B-D")
            kw.update(outcome=Outcome.TIMEOUT)
        else:
            kw.update(outcome=Outcome.DRAW)
    elif entry.key == "timeout":
        kw.update(outcome=Outcome.TIMEOUT)
    elif entry.key == "concession":
        kw.update(outcome=Outcome.CONCESSION, loser=given["concession"])
    else:
        kw.update(outcome=Outcome.WIN, annex_values=given["annex_a"])
        kw.setdefault("games", [0, 0])
    return kw


def slip_given(state: TournamentState, row: Mapping[str, str]) -> tuple[Given, str]:
    """Bushiroad slips record the game score; at a time-up the game wins decide.  A team
    event's slip names its seat (column ``seat``, BR-TEAM-2): read over the seat's two
    fighters (``teams.seat_slip``)."""
    if (row.get("seat") or "").strip():
        from ledger.formats.bushiroad.teams import seat_slip

        return seat_slip(state, row, vocab.slip_given)
    return vocab.slip_given(state, row, games_recorded=True, turn_player_timeout=False)
