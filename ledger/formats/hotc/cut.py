"""End of the Swiss phase, top-cut selection and the bracket (RULES.md §2.6–2.7).

Owns: ``undefeated`` and ``stop_rule`` (HOTC-STOP-1), ``eligible_pool`` (HOTC-CUT-2,
AMB-H8) with ``slow_play_penalty_losers`` (AMB-H8(c): a Swiss match lost to a slow-play
penalty, issue 27 item 6), ``cut_spots`` (HOTC-CUT-1, AMB-H6/H7/H9).  The bracket itself
is the match layer's (``ledger.formats.match.bracket``).  Pure functions shared by
commands, projections and the audit.

May import: ``ledger.formats.match.model``, ``ledger.formats.match.history``.
"""

from __future__ import annotations

from collections.abc import Iterable

from ledger.formats.match.history import round_rows
from ledger.formats.match.model import TIME_LOSSES, MatchState, Phase, PlayerRecord, Status

# enum members read as module constants: a member read through its enum class is a
# metaclass lookup on every use, and these are read for every event the audit
# folds (issue 28)
_PHASE_SWISS = Phase.SWISS
_STATUS_ACTIVE = Status.ACTIVE


#: BR-PEN-3.19.x, slow play: a match lost to such a penalty is a "loss due to Slow
#: Play/Time" (000 §7(2), HOTC-CUT-2(c), AMB-H8(c))
SLOW_PLAY_SECTION = "3.19"


def active(records: Iterable[PlayerRecord]) -> list[PlayerRecord]:
    return [r for r in records if r.status is _STATUS_ACTIVE]


def undefeated(records: Iterable[PlayerRecord]) -> list[int]:
    """Active players with no losses (X-0), by number."""
    return sorted(r.number for r in active(records) if r.losses == 0)


def stop_rule(undefeated_count: int, cut_size: int) -> bool:
    """HOTC-STOP-1: the Swiss phase ends when strictly fewer X-0 players than cut spots."""
    return undefeated_count < cut_size


def eligible_pool(records: Iterable[PlayerRecord],
                  penalised: frozenset[int] | set[int] = frozenset()) -> list[int]:
    """HOTC-CUT-2: not eliminated, not dropped, no loss due to slow play or time — a
    timeout loss (AMB-H8(a)/(b)) or a match lost to a slow-play penalty (``penalised``,
    AMB-H8(c)); the X-0 players are admitted already, so the pool is the rest
    (pre-ordered by number).  The one rule of the ``cut`` command and the audit."""
    return sorted(r.number for r in active(records)
                  if 0 < r.losses < 2 and not TIME_LOSSES.intersection(r.loss_reasons)
                  and r.number not in penalised)


def _slow_play(section: str) -> bool:
    return section == SLOW_PLAY_SECTION or section.startswith(SLOW_PLAY_SECTION + ".")


def slow_play_penalty_losers(h: MatchState) -> set[int]:
    """AMB-H8(c): the players who lost a Swiss match to a penalty for slow play — a Loss
    of Match (or the Loss of Game of a one-game match) under BR-PEN-3.19.x bound to a Swiss
    round in which they lost their match or their bye, however the loss was recorded
    (``outcome: penalty`` citing it, or a concession before ``penalty_results=cited``)."""
    o = h.officiating
    slow = {p.seq for p in o.penalties if _slow_play(p.section) and not p.member}
    if not slow:
        return set()
    swiss = {r.number: r for r in h.rounds if r.phase is _PHASE_SWISS}
    out: set[int] = set()
    for x in o.pending:
        rnd = swiss.get(x.round) if x.round is not None else None
        if x.seq not in slow or not x.match or x.member or rnd is None:
            continue
        rec = h.records.get(x.number)
        lost_bye = rnd.bye == x.number and rec is not None and \
            rec.played[rnd.number - 1:rnd.number] == "N"
        # the round's tables, kept packed once the round is over (match.history)
        lost = any(x.number in row.players and x.number in row.losers
                   for row in round_rows(o, rnd.number).values())
        if lost or lost_bye:
            out.add(x.number)
    return out


def cut_spots(cut_size: int, undefeated_count: int) -> int:
    """R = N_cut − X-0 (AMB-H6: R = N_cut when none is left undefeated)."""
    return max(cut_size - undefeated_count, 0)
