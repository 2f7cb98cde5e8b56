"""The HotC standings read model (RULES.md AMB-H15, BR-DE-TB-1..5, AMB-B1/B3/B6/B11).

Owns: ``Standing``, ``mw_de``, ``effective_rounds``, ``standings``, ``standings_json`` and
``standings_csv`` — the ranking shown by ``tourney standings`` and recomputed by the audit.

Rules implemented (ADR 0005, AMB-H15):

* Everything below the cut is double-elimination standings over the **Swiss phase only**:
  ``wins``/``losses``/``byes`` count Swiss rounds (a bye is a win, AMB-B1, also in the own
  MW%); opponents are the Swiss tables' opponents (byes add none, top-cut rounds add none);
  R_total = ``state.fmt.swiss_rounds``.
* MW% = floor(100·p / (E·M)) / 100, floored at 0.33 (BR-DE-TB-3), with E the effective rounds
  of BR-DE-TB-4.  OMW% and OOMW% are exact means (AMB-B3), 0 without opponents (AMB-B6).
  The arithmetic of all three is ``ledger.formats.match.percent``, the one implementation
  the Bushiroad formats use too; this module reads the HotC records into it.
* Order: champion; the other cut players by top-cut finishing round (knocked out later =
  better; still in the bracket = best); everyone else (dropped players included); the
  disqualified last.  Within each of those groups: Swiss wins, OMW%, OOMW%, all descending.
  Exact ties share a rank (competition ranking 1, 2, 2, 4) and are listed by player number.

Drops are counted from the player's side: one who drops after their own result (or holding
the bye) of a still-open round has completed that round (``_completed_at_drop``).

Pure functions of a ``TournamentState``; exact integer / ``fractions.Fraction`` arithmetic,
no floats.  One pass over the Swiss tables, then MW% once per player, OMW% once, OOMW% once
(``percent.opponent_keys``: integer numerators over 100·L and 100·L², L = lcm of the
opponent counts, so sorting compares ints): linear in players + matches, plus the sort
(docs/DESIGN.md §9: 4,096 players < 100 ms).

May import: ``ledger.*`` (and ``msgspec``); nothing from ``audit`` or ``cli``.
"""

from __future__ import annotations

import csv
import io
import math
from fractions import Fraction
from functools import lru_cache
from typing import Any, NamedTuple

import msgspec

import ledger.formats.match.percent as percent
from ledger.core.state import TournamentState
from ledger.formats.match.model import HotcState, PlayerRecord, Status
from ledger.formats.match.revocation import revoke, revoked_marks

#: The MW% floor of BR-SWISS-TB-3 / BR-DE-TB-3, in hundredths.
MW_FLOOR_HUNDREDTHS = percent.FLOOR_HUNDREDTHS

#: Column order of ``standings_csv`` and of each ``standings_json`` player row.
COLUMNS = ("number", "name", "rank", "wins", "losses", "status", "byes", "pair_downs",
           "cut_finish", "mw", "omw", "oomw", "mw_percent", "omw_percent", "oomw_percent",
           "top_cut_wins", "top_cut_losses")

_ALIVE = 1 << 62  # finishing-round key of a cut player still in the bracket


class Standing(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One line of the standings (wins/losses/byes over the Swiss phase)."""

    number: int
    name: str
    rank: int
    wins: int
    losses: int
    byes: int
    pair_downs: int
    status: str
    mw: Fraction
    omw: Fraction
    oomw: Fraction
    cut_finish: int | None


def mw_de(points: int, effective_rounds: int, m: int = 1) -> Fraction:
    """BR-DE-TB-3: ``max(floor(100·p / (E·M)) / 100, 0.33)`` by integer arithmetic.

    Truncated (never rounded) to two decimals, then floored at 33/100.  E == 0 (a player with
    no round counted, e.g. standings before round 1) has no defined ratio and gets the floor,
    33/100; so does a non-positive M.  The arithmetic is ``percent.mw_hundredths``.
    """
    max_points = effective_rounds * m if effective_rounds > 0 and m > 0 else 0
    return Fraction(percent.mw_hundredths(points, max_points), 100)


def effective_rounds(rec: PlayerRecord, r_total: int) -> int:
    """BR-DE-TB-4: E(f) = min(r2, rd, R_total).

    r2 = the round of the 2nd loss (∞ if none).  rd = d + (2 − L) for a player who dropped
    after d completed Swiss rounds holding L ∈ {0, 1} losses (∞ otherwise).  A drop after
    pairings (TC-06, AMB-B11) is a forced loss in the paired round: with L = 1 it is the 2nd
    loss (r2 = d + 1 = rd), with L = 0 rd = d + 2; both readings give the same E.  The
    arithmetic is ``percent.effective_rounds``; this reads r2, d and L from the record.
    """
    d, held = rec.dropped_after_rounds, rec.dropped_losses
    drop = [(d, held)] if d is not None and held is not None else []
    return percent.effective_rounds(r_total, rec.second_loss_round, drop)


class Line(NamedTuple):
    """One ranked line in integers: MW% = mw/100, OMW% and OOMW% as (num, den)."""

    number: int
    rank: int
    wins: int
    losses: int
    byes: int
    rec: PlayerRecord
    cut_finish: int | None
    mw: int
    omw: tuple[int, int]
    oomw: tuple[int, int]


def ranked_lines(state: TournamentState, *, keep_revoked: bool = False) -> list[Line]:
    """The ranking, computed once in integers: linear in players + Swiss matches.

    ``keep_revoked``: players whose standing was revoked follow, with the rank they held
    (the standings view shows them marked, defect 4)."""
    h = state.fmt if isinstance(state.fmt, HotcState) else HotcState()
    r_total = h.swiss_rounds
    records = h.records
    numbers = sorted(set(state.players) | set(records))
    recs = {n: records.get(n) or PlayerRecord(number=n) for n in numbers}

    # Swiss-phase facts from the folded records (top-cut matches are counted apart), and
    # MW% in hundredths (BR-DE-TB-3/4), in one pass over the players.
    wins: dict[int, int] = {}
    losses: dict[int, int] = {}
    byes: dict[int, int] = {}
    opps: dict[int, list[int]] = {}
    mw: dict[int, int] = {}
    for n in numbers:
        rec = recs[n]
        wins[n] = won = rec.wins - rec.top_wins
        losses[n] = rec.losses - rec.top_losses
        byes[n] = rec.byes
        opps[n] = [o for o in rec.opponents if o in recs]
        if rec.second_loss_round is None and rec.dropped_after_rounds is None:
            e = r_total
        else:
            e = effective_rounds(rec, r_total)
        mw[n] = percent.mw_hundredths(won, e)
    # top cut: the round in which each player went out (still in: after the last round)
    still_in = len(h.rounds) + 1
    cut_seen: dict[int, int] = {}
    for n in h.cut or []:
        if n in recs:
            knocked_out = recs[n].cut_finish
            cut_seen[n] = still_in if knocked_out is None else knocked_out

    # OMW% = omw_key / (100·L) and OOMW% = oomw_key / (100·L²), L = lcm of the Swiss
    # opponent counts (AMB-B3, AMB-B6): one common denominator, so comparisons are integer.
    omw_list, oomw_list, common = percent.opponent_keys(
        numbers, [mw[n] for n in numbers], [opps[n] for n in numbers])
    omw_key = dict(zip(numbers, omw_list, strict=True))
    oomw_key = dict(zip(numbers, oomw_list, strict=True))
    omw_den, oomw_den = 100 * common, 100 * common * common

    cut = set(h.cut or ())
    finish: dict[int, int | None] = {}
    ranked: list[tuple[int, int, int, int, int, int]] = []
    for n in numbers:
        rec = recs[n]
        status = rec.status
        fin = rec.cut_finish
        if n == h.champion or status is Status.CHAMPION:
            tier, place = 0, 0
        elif n in cut or status is Status.CUT:
            tier = 1
            if fin is None and status is Status.DROPPED:
                fin = cut_seen.get(n)  # dropped in the bracket: out when last seen
                place = -(fin or 0)
            else:
                place = -fin if fin is not None else -_ALIVE
        else:
            tier, place = 2, 0
        finish[n] = fin
        ranked.append((tier, place, -wins[n], -omw_key[n], -oomw_key[n], n))

    ranked.sort()
    out: list[Line] = []
    rank = 0
    prev: tuple[int, ...] = ()
    for i, row in enumerate(ranked):
        key, n = row[:5], row[5]
        if key != prev:
            rank, prev = i + 1, key
        out.append(Line(n, rank, wins[n], losses[n], byes[n], recs[n], finish[n], mw[n],
                         (omw_key[n], omw_den), (oomw_key[n], oomw_den)))
    revoked = revoke([(x.number, x.rank, x) for x in out], h.officiating.dq)
    gone = revoked_marks(h.officiating.dq) if keep_revoked else {}
    return [x if x.rank == rank else x._replace(rank=rank) for rank, x in revoked] + \
        [x for x in out if x.number in gone]


def standings(state: TournamentState) -> list[Standing]:
    """The ranked standings of a HotC tournament (AMB-H15), best first."""
    players = state.players
    cache: dict[tuple[int, int], Fraction] = {}

    def frac(pair: tuple[int, int]) -> Fraction:
        f = cache.get(pair)
        if f is None:
            f = cache[pair] = Fraction(*pair)
        return f

    return [Standing(
        number=x.number, name=players[x.number].name if x.number in players else "",
        rank=x.rank, wins=x.wins, losses=x.losses, byes=x.byes, pair_downs=x.rec.pair_downs,
        status=Status(x.rec.status).value, mw=frac((x.mw, 100)), omw=frac(x.omw),
        oomw=frac(x.oomw), cut_finish=x.cut_finish) for x in ranked_lines(state)]


@lru_cache(maxsize=8192)   # pure; a field shares few distinct values (issue 22)
def _fraction_text(num: int, den: int) -> str:
    """"num/den" in lowest terms (docs/DESIGN.md §4), "1/1" and "0/1" included."""
    g = math.gcd(num, den)
    return f"{num // g}/{den // g}"


@lru_cache(maxsize=8192)
def _truncated(num: int, den: int, places: int) -> str:
    """num/den (≥ 0) truncated to ``places`` decimals, e.g. 199/300, 4 → "0.6633"."""
    whole, frac = divmod((num * 10 ** places) // den, 10 ** places)
    return f"{whole}.{frac:0{places}d}"


def _rows(state: TournamentState) -> list[dict[str, Any]]:
    return [row_document(state, x) for x in ranked_lines(state)]


def row_document(state: TournamentState, x: Line) -> dict[str, Any]:
    """One line's normative JSON row (docs/DESIGN.md §8; what the signed report states)."""
    players = state.players
    return {
        "number": x.number, "name": players[x.number].name if x.number in players else "",
        "rank": x.rank, "wins": x.wins, "losses": x.losses,
        "status": Status(x.rec.status).value, "byes": x.byes,
        "pair_downs": x.rec.pair_downs, "cut_finish": x.cut_finish,
        "mw": _fraction_text(x.mw, 100), "omw": _fraction_text(*x.omw),
        "oomw": _fraction_text(*x.oomw), "mw_percent": _truncated(x.mw, 100, 4),
        "omw_percent": _truncated(*x.omw, 4), "oomw_percent": _truncated(*x.oomw, 4),
        "top_cut_wins": x.rec.top_wins, "top_cut_losses": x.rec.top_losses,
    }


def standings_json(state: TournamentState) -> dict[str, Any]:
    """``tourney standings --json``: fractions as "num/den", displays truncated (no floats).

    ``mw_percent``, ``omw_percent`` and ``oomw_percent`` are truncated to 4 decimals,
    all three alike, as fractions of 1 ("0.6600", not "66").  ``wins``/``losses`` are the
    Swiss record (what the tiebreakers use); ``top_cut_wins``/``top_cut_losses`` the top
    cut's.
    """
    h = state.fmt if isinstance(state.fmt, HotcState) else HotcState()
    return {"players": _rows(state), "rounds": h.swiss_rounds, "champion": h.champion}


def standings_csv(state: TournamentState) -> str:
    """The same rows as ``standings_json`` as CSV (header first; empty cell for null)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in _rows(state):
        writer.writerow(["" if row[c] is None else row[c] for c in COLUMNS])
    return buf.getvalue()


__all__ = ["COLUMNS", "MW_FLOOR_HUNDREDTHS", "Standing", "effective_rounds", "mw_de",
           "standings", "standings_csv", "standings_json"]
