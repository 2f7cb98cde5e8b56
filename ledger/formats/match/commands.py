"""Command helpers every format with rounds shares (decide, then record on the aggregate).

Owns: ``seed_for`` / ``round_seed`` — which recorded seed a draw uses (the material
given now, else the latest seed recorded for that ctx, else the latest unused seed without
a ctx: a seed never silently serves two draws, LEDGER-RAND-1; after a void only seeds
recorded since, ADR 0012) — and ``leave_open_round``, the result a player leaving the open
round after its pairing owes (BR-DROP-2, AMB-B24, ``departure``), recorded through the
format's own result verbs; ``pair_swiss_round``, a Swiss round recorded on the shared
path (``match.swiss_round``).

May import: ``ledger.core.aggregate`` (type hints), ``ledger.errors``, ``ledger.wire.events``,
``ledger.wire.keys``, ``ledger.formats.match.*``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ledger.errors import RuleError
from ledger.formats.match.departure import BOTH_OUT_RULE, both_out
from ledger.formats.match.model import Outcome
from ledger.formats.match.plan import (
    ctx,
    entrants,
    last_void,
    open_round,
    pairing_items,
    plan_swiss,
    round_ctx,
    round_what,
)
from ledger.formats.match.swiss_round import SwissRound, swiss_bye_items
from ledger.wire.events import SignedEvent
from ledger.wire.keys import Signer

if TYPE_CHECKING:
    from ledger.core.aggregate import Tournament


def seed_for(t: Tournament, what: str, signer: Signer, time: str, out: list[SignedEvent], *,
             material: str | None, source: str | None, after: int = 0) -> int:
    """The seed for ``<log>/<what>``: the given material is recorded now (and appended to
    ``out``); else the latest seed recorded with that ctx; else the latest seed recorded
    without a ctx that no draw has used yet (so a seed never silently serves twice).
    ``after``: only seeds recorded after that seq (a voided round's next attempt)."""
    want = ctx(t.state, what)
    if material is not None:
        ev = t.record_seed(material=material, source=source or "entered", ctx=want,
                           reason=f"{what} draw", signer=signer, time=time)
        out.append(ev)
        return ev.seq
    fresh = [s for s in t.state.seeds.values() if s.seq > after]
    seqs = [s.seq for s in fresh if s.ctx == want]
    if not seqs:
        seqs = [s.seq for s in fresh if s.ctx is None and s.seq not in t.state.used_seeds]
    if not seqs:
        since = f" since the void at seq {after}" if after else ""
        raise RuleError("LEDGER-RAND-1", f"no seed is recorded for {want}{since}",
                        hint=f"tourney seed record [--ctx {want}] … (a fresh seed), or "
                             "pass --seed-material")
    return max(seqs)


def round_seed(t: Tournament, number: int, signer: Signer, time: str,
               out: list[SignedEvent], *, material: str | None, source: str | None,
               first: str | None = None) -> int:
    """The seed of round ``number``'s draws: for ``<log>/R<n>`` (or ``first``), or after a
    void for ``<log>/R<n>/v<k>`` and recorded after that void (ADR 0012)."""
    return seed_for(t, round_what(t.state, number, "", first=first), signer, time, out,
                    material=material, source=source, after=last_void(t.state, number))


def leave_open_round(t: Tournament, signer: Signer, time: str, number: int, *,
                     outcome: Outcome, note: str = "", why: str = "left",
                     double: Outcome = Outcome.DROP,
                     penalty_seq: int | None = None) -> list[SignedEvent]:
    """``number`` leaves the open round after its pairing (a drop: ``loss = DROP``; a
    disqualification or a Loss of Match: ``CONCESSION``).  Their match without a result
    becomes their loss; a win they hold only because the opponent left first becomes the
    table's double loss (BR-DROP-2: no winner), a correction citing that result — outcome
    ``double`` (``DROP`` after a drop or DQ, ``DOUBLE_LOSS`` by penalty after a LoM)."""
    rnd = open_round(t.state)
    tab = next((x for x in rnd.tables if number in x.players), None) if rnd else None
    if rnd is None or tab is None:
        return []
    if tab.result is None:
        return t.record_result(signer, time, round_no=rnd.number, table=tab.table,
                               outcome=outcome, loser=number, note=note,
                               penalty_seq=penalty_seq)
    if not both_out(t.state.fmt, rnd, tab, number):
        return []
    other = next(p for p in tab.players if p != number)
    return t.correct_result(signer, time, round_no=rnd.number, table=tab.table,
                            outcome=double, losers=sorted(tab.players),
                            reason=f"{BOTH_OUT_RULE}: #{number} {why} after the pairing and "
                                   f"#{other} had already left: no winner")


def pair_swiss_round(t: Tournament, signer: Signer, time: str, n: int, swiss: SwissRound, *,
                     material: str | None, source: str | None) -> list[SignedEvent]:
    """Pair Swiss round ``n`` on the path every format shares (``match.swiss_round``): the
    round's seed, the bye draw when the field is odd, the pairing order's draw, and the
    round_paired the plan gives, recorded as decided (``ledger.core.decided``).  The
    field is built once: the draws change no record (issue 22 item 4)."""
    st = t.state
    out: list[SignedEvent] = []
    seed_seq = round_seed(t, n, signer, time, out, material=material, source=source)
    draws: list[int] = []
    bye = None
    active = entrants(st)
    items = swiss_bye_items(st, swiss, active)
    if items is not None:
        ev = t.make_draw(ctx=round_ctx(st, n, "bye"), items=items, seed_seq=seed_seq,
                         reason=swiss.bye_reason(st, n), signer=signer, time=time)
        out.append(ev)
        draws.append(ev.seq)
        bye = swiss.bye_from_draw(st, st.draw_results[ev.seq], active)
    ev = t.make_draw(ctx=round_ctx(st, n, "pairing"), items=pairing_items(st, bye, active),
                     seed_seq=seed_seq, reason=f"round {n} pairing order "
                     f"({swiss.pairing_rule})", signer=signer, time=time)
    out.append(ev)
    draws.append(ev.seq)
    body = plan_swiss(st, n, bye, st.draw_results[ev.seq], draws, algorithm=swiss.algorithm,
                      active=active)
    out.append(t.record(body, signer, time, decided=True))
    return out
