"""Commands of the corrections (issue 9 §7): decide the events, record them.

Owns: ``amend_result`` (an earlier round's result, with the report of its effect on the
rounds paired since), ``override_pairing``, ``void_pairing`` (ADR 0012), ``undrop``,
``add_late``, ``amend_level`` (BR-LEVEL-2) and ``wrong_table`` (BR-PEN-3.10.2: the
3.10.2 penalty of every fighter involved, then the amended results — corrections of the
newest round before the next pairing, head-judge amendments after it; a table neither
assigned fighter showed at is a double loss with no game, AMB-B25).

May import: ``ledger.core.aggregate`` (type hints), ``ledger.errors``, ``ledger.wire.events``,
``ledger.wire.keys``, ``ledger.formats.match.*``, ``ledger.formats.officiating.*``.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

import msgspec

from ledger.core.plugin import plugin_of
from ledger.errors import RuleError
from ledger.formats.match import history
from ledger.formats.match.model import LossReason, Outcome
from ledger.formats.match.plan import current_round_number, open_round
from ledger.formats.officiating.amend import Played, amend
from ledger.formats.officiating.catalogue import Penalty
from ledger.formats.officiating.commands import issue_penalty
from ledger.formats.officiating.corrections import amendable, drop_forfeit, manual_tables
from ledger.formats.officiating.events import (
    LevelAmended,
    PairingOverridden,
    PairingVoided,
    PlayerAddedLate,
    PlayerUndropped,
    ResultAmended,
)
from ledger.formats.officiating.rules import WRONG_TABLE, level, ms
from ledger.wire.events import SignedEvent
from ledger.wire.keys import Signer

if TYPE_CHECKING:
    from ledger.core.aggregate import Tournament


def _shape(players: list[int], winner: int | None,
           losers: list[int]) -> tuple[Outcome, list[LossReason]]:
    if winner is not None:
        return Outcome.WIN, [LossReason.PLAY]
    if not losers:
        return Outcome.DRAW, []
    return Outcome.DOUBLE_LOSS, [LossReason.DOUBLE_LOSS] * len(losers)


def effect_report(before: Any, after: Any, round_no: int, players: list[int]) -> list[str]:
    """What an amendment changes: records, statuses and the later rounds that stand."""
    hb, ha = ms(before), ms(after)
    lines = []
    for p in players:
        rb, ra = hb.records[p], ha.records[p]
        lines.append(f"#{p}: {rb.wins}-{rb.losses} {rb.status.value} → {ra.wins}-{ra.losses} "
                     f"{ra.status.value}")
        later = sorted(r for r, _t, row in history.rows(ha.officiating)
                       if p in row.players and r > round_no)
        if later:
            lines.append(f"#{p} was paired in round(s) {', '.join(map(str, later))}: those "
                         "pairings stand (standings recompute)")
        if ha.eliminate_at and ra.losses >= ha.eliminate_at and later and \
                (ra.second_loss_round or 0) < later[-1]:
            lines.append(f"#{p} now has {ra.losses} losses after round "
                         f"{ra.second_loss_round}: would not have been paired later")
    return lines


def amend_result(t: Tournament, signer: Signer, time: str, *, round_no: int, table: int,
                 winner: int | None = None, double_loss: bool = False, draw: bool = False,
                 reason: str, entry: dict[str, Any] | None = None
                 ) -> tuple[list[SignedEvent], list[str]]:
    """Amend an earlier round's result: ``entry`` is a result in the format's own terms
    (``record_result`` keywords from its vocabulary, issue 17), decided by the format
    exactly as a result entry is (``decided_result``: game score, time-up, draw …);
    ``winner`` / ``double_loss`` / ``draw`` the plain shapes of before."""
    st = t.state
    if entry is not None and entry.get("seat") is not None:    # a team table's seat
        before = copy.deepcopy(st)                             # (issue 20, BR-TEAM-7)
        row = amendable(st, round_no, table)
        evs = plugin_of(t).amend_seat(t, signer, time, round_no=round_no, table=table,
                                      reason=reason, **entry)
        return evs, effect_report(before, t.state, round_no, row.players)
    row = amendable(st, round_no, table)
    games: list[int] | None = None
    if entry is not None:
        winner, losers, reasons, outcome, games = plugin_of(t).decided_result(
            t, **{**entry, "round_no": round_no, "table": table})
    else:
        if winner is None and not double_loss and not draw:
            raise RuleError("LEDGER-RES-1", "say the result the round should have had",
                            hint="--winner N, --double-loss or --draw")
        losers = ([p for p in row.players if p != winner] if winner is not None
                  else [] if draw else sorted(row.players))
        outcome, reasons = _shape(row.players, winner, losers)
    before = copy.deepcopy(st)
    ev = t.record(ResultAmended(round=round_no, table=table, corrects_seq=row.seq or 0,
                                winner=winner, losers=losers, outcome=outcome,
                                loss_reasons=reasons, reason=reason,
                                games=msgspec.UNSET if games is None else games),
                  signer, time)
    return [ev], effect_report(before, t.state, round_no, row.players)


def override_pairing(t: Tournament, signer: Signer, time: str, *, pairs: list[list[int]],
                     reason: str) -> list[SignedEvent]:
    rnd = open_round(t.state)
    if rnd is None:
        raise RuleError("LEDGER-RES-1", "no round is open", hint="pair a round first")
    return [t.record(PairingOverridden(round=rnd.number, paired_seq=rnd.paired_seq,
                                       tables=manual_tables(t.state, pairs), bye=rnd.bye,
                                       reason=reason), signer, time)]


def void_pairing(t: Tournament, signer: Signer, time: str, *,
                 reason: str) -> list[SignedEvent]:
    """Void the open round's pairing before any result (ADR 0012); the round is then
    paired again with 'round pair', under the next attempt's draw contexts."""
    rnd = open_round(t.state)
    if rnd is None:
        raise RuleError("LEDGER-RES-1", "no round is open: there is no pairing to void",
                        hint="a pairing is voided after 'round pair', before any result")
    return [t.record(PairingVoided(round=rnd.number, paired_seq=rnd.paired_seq,
                                   reason=reason), signer, time)]


def undrop(t: Tournament, signer: Signer, time: str, *, number: int, reason: str,
           keep_forfeit: bool = False) -> tuple[list[SignedEvent], list[str]]:
    """Undo a drop; a drop after the pairing also takes its forfeit result back (the
    match is then played and recorded as usual) unless ``keep_forfeit`` — and the lines
    returned say which (BR-DROP-2, ADR 0018)."""
    at = drop_forfeit(t.state, number)
    res = at[1].result if at is not None else None
    cite: dict[str, Any] = {} if res is None or keep_forfeit else {"forfeit_seq": res.seq}
    ev = t.record(PlayerUndropped(number=number, round=current_round_number(t.state),
                                  reason=reason, **cite), signer, time)
    lines = [f"#{number} is back in the event"]
    if at is not None and res is not None:
        where = f"round {at[0].number} table {at[1].table}"
        lines.append(f"the forfeit loss of {where} (seq {res.seq}) is taken back: record "
                     "the match's result when it is played" if cite else
                     f"the forfeit loss of {where} (seq {res.seq}) stands (BR-DROP-2, "
                     "--keep-forfeit): the opponent keeps the win")
    return [ev], lines


def add_late(t: Tournament, signer: Signer, time: str, *, name: str, byes: int, losses: int,
             reason: str, number: int | None = None) -> list[SignedEvent]:
    n = number if number is not None else max(t.state.players, default=0) + 1
    return [t.record(PlayerAddedLate(number=n, name=name, rounds=ms(t.state).swiss_rounds,
                                     byes=byes, losses=losses, reason=reason), signer, time)]


def wrong_table(t: Tournament, signer: Signer, time: str, *, round_no: int,
                played: list[Played], reason: str) -> list[SignedEvent]:
    """BR-PEN-3.10.2: amend the results of the assigned tables involved, then penalise
    every fighter who played a wrong match (the judge's 3.10.2 penalty, default)."""
    st = t.state
    h = ms(st)
    rows = history.round_rows(h.officiating, round_no)
    involved = {p for pl in played for p in pl.players}
    assigned = {tab: (row.players[0], row.players[1]) for tab, row in rows.items()
                if involved & set(row.players)}
    if not assigned:
        raise RuleError("BR-PEN-3.10.2", f"no table of round {round_no} has these players")
    if involved != {p for pair in assigned.values() for p in pair}:
        raise RuleError("BR-PEN-3.10.2", "the played tables must cover every fighter of the "
                        "assigned tables involved", hint="list each wrong table as played")
    newest = round_no == current_round_number(st)
    out: list[SignedEvent] = []
    wrong = sorted(p for pl in played for p in pl.players
                   if not any(pl.table == tab and set(pl.players) == set(pair)
                              for tab, pair in assigned.items()))
    for p in sorted(involved) if wrong else []:    # first: a no-show result cites them
        out += issue_penalty(t, signer, time, number=p, section=WRONG_TABLE,
                             penalty=Penalty.WARNING if level(st) >= 2 else Penalty.CAUTION,
                             description=reason)
    for a in amend(assigned, played):
        row = rows[a.table]
        if (a.winner, sorted(a.losers)) == (row.winner, sorted(row.losers)):
            continue
        why = f"wrong-table amendment (BR-PEN-3.10.2): {reason}"
        if newest:
            kw: dict[str, Any] = {"round_no": round_no, "table": a.table, "reason": why}
            if a.winner is not None:
                kw.update(outcome=Outcome.WIN, winner=a.winner)
            else:     # neither showed (AMB-B25): HotC's tie, else a double loss, no game
                kw.update(outcome=Outcome.TIE if st.format and st.format.id ==
                          "hotc-swiss-de" else Outcome.DOUBLE_LOSS)
            out += t.correct_result(signer, time, **kw)
        else:
            evs, _ = amend_result(t, signer, time, round_no=round_no, table=a.table,
                                  winner=a.winner, double_loss=a.winner is None, reason=why)
            out += evs
    return out


def amend_level(t: Tournament, signer: Signer, time: str, *, new_level: int,
                reason: str) -> list[SignedEvent]:
    return [t.record(LevelAmended(level=new_level, reason=reason), signer, time)]
