"""How a team event's round reads (issue 20): each team table with its seats.

Owns: ``team_round_display`` — the printable lines and the JSON of ``round show`` /
``round pair`` in a team event (``FormatPlugin.round_display``): each team table (the
teams by name and members), its derived team result, and its seats, position k against
position k (BR-TEAM-2), each with its own result (a seat lost by penalty says whose:
the member's own or the team's, ``whose_penalty``); the bye team; the event's
``team_communication`` (BR-TEAM-5) — and a "find your table" list by member name.

May import: ``ledger.core.state``, ``ledger.formats.match.*``,
``ledger.formats.bushiroad.teams``, ``ledger.formats.match.history``.
"""

from __future__ import annotations

from typing import Any

from ledger.core.state import TournamentState
from ledger.formats.bushiroad.teams import POSITIONS, team_label, teams_of
from ledger.formats.match import history
from ledger.formats.match.apply import find_round
from ledger.formats.match.model import MatchState, ResultState
from ledger.formats.match.team_model import SeatResult, seat_key
from ledger.formats.match.words import result_words


def _seat_words(r: SeatResult | None) -> str:
    if r is None:
        return "-"
    return result_words(ResultState(seq=r.seq, winner=r.winner, losers=list(r.losers),
                                    loss_reasons=[], outcome=_outcome(r),
                                    games=None if r.games is None else list(r.games)))


def whose_penalty(state: TournamentState, round_no: int, r: SeatResult | None) -> str:
    """A seat lost by penalty says whose (issue 20): `` — #4's own penalty (seq 31)`` for
    a member's own Loss of Match (or Loss of Game), `` — team #6's penalty (seq 31)`` for
    the team's applied to the seat (BR-TEAM-6); empty otherwise."""
    if r is None or r.decided_by != "penalty":
        return ""
    h: MatchState = state.fmt
    team_of = teams_of(state).member_of
    notes: list[str] = []
    for p in r.losers:
        x = next((x for x in h.officiating.pending if x.round == round_no and (
            x.member and x.number == p or not x.member and x.number == team_of.get(p))),
            None)
        if x is not None:
            notes.append(f"#{p}'s own penalty (seq {x.seq})" if x.member else
                         f"team #{x.number}'s penalty (seq {x.seq})")
    return "".join(f" — {n}" for n in notes)


def _outcome(r: SeatResult) -> Any:
    from ledger.formats.match.model import Outcome

    if r.winner is None:
        return Outcome.DRAW if not r.losers else Outcome.DOUBLE_LOSS
    return {"concession": Outcome.CONCESSION, "drop": Outcome.DROP,
            "penalty": Outcome.PENALTY, "timeout": Outcome.TIMEOUT}.get(r.decided_by,
                                                                         Outcome.WIN)


def _name(state: TournamentState, n: int) -> str:
    p = state.players.get(n)
    return f"#{n} {p.name}" if p is not None else f"#{n}"


def team_round_display(state: TournamentState,
                       round_no: int | None) -> tuple[list[str], dict[str, Any]] | None:
    """Round ``round_no`` (None: the latest) of a team event: the newest round's tables
    from the state, an earlier round's from the table history (as played)."""
    h: MatchState = state.fmt
    if not h.rounds:
        return None
    rnd = h.rounds[-1] if round_no is None else find_round(h, round_no)
    if rnd is None:
        return None
    if rnd.tables:
        played = [(t.table, list(t.players), t.result) for t in rnd.tables]
    else:
        played = [(n, list(row.players), history.result_of(row)) for n, row in
                  sorted(history.round_rows(h.officiating, rnd.number).items())]
    ts = teams_of(state)
    comm = str(state.format.params.get("team_communication", "not_allowed")
               if state.format else "not_allowed")
    done = sum(r is not None for _, _, r in played)
    phase = "Swiss" if rnd.phase.value == "swiss" else "top cut"
    lines = [f"Round {rnd.number} ({phase}): {len(played)} team tables, {done} results "
             f"in, {'closed' if rnd.closed_seq is not None else 'open'}",
             f"teams of {ts.size}; teammates may {'' if comm == 'allowed' else 'not '}"
             "communicate (BR-TEAM-5)"]
    if rnd.bye is not None:
        lines.append(f"bye: {team_label(state, rnd.bye)}")
    tables: list[dict[str, Any]] = []
    finder: list[tuple[str, int, int]] = []
    for table, (a, b), result in played:
        seats = {r.seat: r for r in ts.seats.get(seat_key(rnd.number, table), [])}
        lines.append(f"TABLE {table}: {team_label(state, a)}  v  {team_label(state, b)}"
                     f"  —  {result_words(result)}")
        rows = []
        for k in range(1, ts.size + 1):
            fa = ts.teams[a].members[k - 1] if a in ts.teams else 0
            fb = ts.teams[b].members[k - 1] if b in ts.teams else 0
            res = seats.get(k)
            words = _seat_words(res) + whose_penalty(state, rnd.number, res)
            lines.append(f"  seat {k} ({POSITIONS[k - 1]}): {_name(state, fa)} v "
                         f"{_name(state, fb)}  {words}")
            rows.append({"seat": k, "players": [fa, fb],
                         "result": None if res is None else words,
                         "seq": None if res is None else res.seq})
            finder += [(state.players[f].name, table, k) for f in (fa, fb)
                       if f in state.players]
        tables.append({"table": table, "players": [a, b],
                       "teams": [team_label(state, a), team_label(state, b)],
                       "result": None if result is None else result_words(result),
                       "seats": rows})
    lines.append("find your table: " + "; ".join(
        f"{n} T{t}/S{k}" for n, t, k in sorted(finder, key=lambda x: x[0].casefold())))
    return lines, {"round": rnd.number, "phase": rnd.phase.value, "team_size": ts.size,
                   "team_communication": comm, "bye": rnd.bye, "tables": tables,
                   "closed": rnd.closed_seq is not None}


def table_seats(state: TournamentState, round_no: int,
                table: int) -> list[dict[str, Any]] | None:
    """The seats of one team table, as the pages and slips show them."""
    from ledger.formats.match.vocab import seat as table_players

    found = table_players(state, round_no, table)
    ts = teams_of(state)
    if found is None or any(n not in ts.teams for n in found[1]):
        return None
    a, b = found[1]
    done = {r.seat: r for r in ts.seats.get(seat_key(round_no, table), [])}
    return [{"seat": k, "players": [ts.teams[a].members[k - 1], ts.teams[b].members[k - 1]],
             "result": None if k not in done else _seat_words(done[k])
             + whose_penalty(state, round_no, done[k])}
            for k in range(1, ts.size + 1)]
