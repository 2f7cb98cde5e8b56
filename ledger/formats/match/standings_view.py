"""What the standings views of the match formats (HotC, Bushiroad) share: the leading
columns, the round in progress, a top-cut finish in words, the status shown.

Owns: ``RANK``, ``NUMBER``, ``NAME`` (the first columns of every match format, in that
order, ADR 0021), ``percent_column``, ``open_round`` (the last round while a table of it
has no result: defect 5), ``finish_words`` (a bracket finish as players say it: champion,
finalist, semi-finalist … — defect 6) and ``shown_status`` (a finished event's players
are "finished", never "active" — defect 10).

May import: ``ledger.standings_view``, ``ledger.formats.match.model``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ledger.formats.match.model import MatchState, PlayerRecord, Status
from ledger.standings_view import Align, Column, OpenRound, Row, Show

RANK = Column("rank", "RANK", Show.NUMBER, Align.RIGHT, phone=True, player_label="Rank",
              player_help="Place in the standings; equal players share a place.")
NUMBER = Column("number", "#", Show.NUMBER, Align.RIGHT, phone=True,
                title="player number", player_label="#", player_help="Player number.")
NAME = Column("name", "NAME", phone=True, player_label="Name", player_help="Player name.")
STATUS = Column("status", "STATUS", player_label="Status",
                player_help="Still playing, dropped, out, or how far they went.")


def percent_column(key: str, header: str, title: str, player_help: str = "") -> Column:
    return Column(key, header, Show.PERCENT, Align.RIGHT, title=title,
                  player_label=header, player_help=player_help)


def open_round(h: MatchState) -> OpenRound | None:
    """The newest round while any of its tables has no result (None otherwise)."""
    if not h.rounds:
        return None
    last = h.rounds[-1]
    if any(t.result is None for t in last.tables):
        return OpenRound(last.number, last.paired_seq)
    return None


_NAMED = {1: "finalist", 2: "semi-finalist", 3: "quarter-finalist"}


def bracket_rounds(h: MatchState) -> int:
    """Rounds of the top cut's bracket (log2 of its slots; 0 without a bracket)."""
    return max(len(h.slots or ()) - 1, 0).bit_length()


def finish_words(h: MatchState, rec: PlayerRecord) -> str:
    """A top-cut player's bracket finish: "champion", "finalist", "semi-finalist",
    "quarter-finalist", "out in bracket round N", or "in the bracket" while still in."""
    if rec.status is Status.CHAMPION or h.champion == rec.number:
        return "champion"
    if rec.cut_finish is None:
        return "in the bracket" if rec.status is Status.CUT else str(rec.status.value)
    first = next((r.number for r in h.rounds if r.phase.value == "top_cut"), None)
    if first is None:
        return str(rec.status.value)
    reached = rec.cut_finish - first + 1          # the bracket round they lost in
    from_end = bracket_rounds(h) - reached + 1    # 1 = the final
    return _NAMED.get(from_end, f"out in bracket round {reached}")


_STAGES = {1: "Final", 2: "Semifinal", 3: "Quarterfinal"}


def stage_words(h: MatchState, round_no: int) -> str | None:
    """A top-cut round as players name it: "Final", "Semifinal", "Quarterfinal", "Top-cut
    round N" further out; None outside the top cut."""
    first = next((r.number for r in h.rounds if r.phase.value == "top_cut"), None)
    if first is None or round_no < first or not h.slots:
        return None
    reached = round_no - first + 1
    from_end = bracket_rounds(h) - reached + 1
    return _STAGES.get(from_end, f"Top-cut round {reached}")


def shown_status(h: MatchState, rec: PlayerRecord, over: bool) -> str:
    """The status a standings line shows: a top-cut player's bracket finish; a finished
    event's remaining players "finished" (not "active")."""
    if h.cut is not None and rec.number in h.cut and rec.status in (
            Status.CUT, Status.CHAMPION, Status.ELIMINATED):
        return finish_words(h, rec)
    if rec.status is Status.CHAMPION:
        return "champion"
    if over and rec.status is Status.ACTIVE:
        return "finished"
    return str(rec.status.value)


def champion_shown(h: MatchState, rows: Sequence[Row]) -> tuple[int | None, str]:
    """The champion of record (a champion whose standing a disqualification revoked is
    none: ``pass_down`` gives the title to the fighter now ranked first, ``void`` leaves
    it vacant; BR-PEN-RANK-9(e), issue 21 item 21) and how the heading says it."""
    from ledger.formats.match.revocation import champion_of_record

    first = next((r.number for r in rows if r.revoked is None and r.rank == 1), None)
    champ = champion_of_record(h.champion, h.officiating.dq, first)
    if h.champion is None or champ == h.champion:
        return champ, "" if champ is None else f"; champion #{champ}"
    if champ is None:
        return None, f"; no champion (#{h.champion} disqualified, title void)"
    return champ, f"; champion #{champ} (passed down: #{h.champion} disqualified)"
