"""Game Points and Tie Breaking Points of one Wheel of Time Game, from the recorded outcomes.

Owns: ``score_game`` — the one scoring of a whole Game (classic averages depend on other
tables), used by commands, projections and the audit — with ``PlayerScore`` (its per-player
answer) and the Judge's ``TbpOverride`` (WOTOLD-FORF-2 / WOT01-FORF-2, ``tbp_overridden``).
GP and TBP are never typed by hand: they follow from the fields of ``results.WotResult``,
except a signed ``tbp_overridden``, which replaces one player's TBP for the Game.

Classic (WOT_OLD): direct TBP from O1, O2, O3, O6 (and 0 for O8); A_side / A_all averages
over this Game's *directly computed, strictly positive* TBP of other players (AMB-W1, AMB-W2),
exact ``Fraction``s; ``wot_classic_tbp_sign`` (AMB-W3) and ``wot_override_in_averages``
(AMB-W15).  2001 (WOT_2001): Pattern-based TBP with the max-formula (WOT01-SCORE-5, AMB-W4),
every value clamped to [0, 16] (WOT01-SCORE-7, AMB-W17), conceder 0 (WOT01-SCORE-4), bye 2 GP
and 8 TBP (WOT01-SCORE-6); the early-kill loser's TBP follows ``wot_early_kill_loser_tbp``
(AMB-W4: own Pattern by default, or 0).

May import: the standard library, ``ledger.errors``, ``ledger.formats.wot.model``,
``ledger.formats.wot.params``, ``ledger.formats.wot.results``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ledger.errors import RuleError
from ledger.formats.wot.model import Revision, Side, rule_id
from ledger.formats.wot.params import resolve_params
from ledger.formats.wot.results import (
    BYE_CODE,
    WotResult,
    result_error,
    validate_result,
)
from ledger.formats.wot.results import ClassicOutcome as _O
from ledger.formats.wot.results import Outcome2001 as _Q

__all__ = ["PlayerScore", "TbpOverride", "score_game"]

_CLASSIC_WIN_GP = 2
_TBP_MIN, _TBP_MAX = Fraction(0), Fraction(16)        # WOT01-SCORE-7
_BYE_TBP_2001 = Fraction(8)                           # WOT01-SCORE-6
_PATTERN_TOTAL = 18                                   # WOT01-SCORE-5: 18 - (P(opp) + N)


@dataclass(frozen=True, slots=True)
class TbpOverride:
    """The Judge's TBP adjustment ``tbp_overridden`` (WOTOLD-FORF-2 / WOT01-FORF-2)."""

    round: int
    table: int
    number: int
    old: Fraction
    new: Fraction
    method: str
    reason: str


@dataclass(frozen=True, slots=True)
class PlayerScore:
    """One player's GP and TBP for one Game, with how they were reached.

    ``derived_tbp`` is the value the rules give (kept visible for the audit, AMB-W15); ``tbp``
    is the value that counts (``derived_tbp`` unless ``overrides`` replaced it).  ``inputs``
    are the values an averaged TBP (O4, O5, O7, O9) was taken over (top three, zero-padded)."""

    number: int
    code: str
    side: Side
    table: int | None
    gp: int
    tbp: Fraction
    derived_tbp: Fraction
    overrides: tuple[TbpOverride, ...] = ()
    inputs: tuple[Fraction, ...] = ()

    @property
    def pair(self) -> tuple[int, Fraction]:
        return self.gp, self.tbp


def _top3(values: Iterable[Fraction]) -> tuple[Fraction, ...]:
    """Three highest strictly positive values, zero-padded (WOTOLD-SCORE-AVG, AMB-W1)."""
    best = sorted((v for v in values if v > 0), reverse=True)[:3]
    return tuple(best) + (Fraction(0),) * (3 - len(best))


def _clamp(v: Fraction) -> Fraction:
    return min(max(v, _TBP_MIN), _TBP_MAX)


@dataclass
class _Line:
    number: int
    code: str
    side: Side
    table: int | None
    gp: int
    tbp: Fraction = Fraction(0)
    direct: bool = True
    inputs: tuple[Fraction, ...] = ()


def _classic_direct(res: WotResult, sign: str) -> list[_Line]:
    """GP and the directly computed TBP of one classic table; averaged TBP are filled later."""
    a, b = sorted(res.sides)
    code, w = res.outcome, res.winner
    line = {p: _Line(p, code, res.sides[p], res.table, 0) for p in (a, b)}
    if w is not None:
        lo = b if w == a else a
        if code in (_O.O1, _O.O2, _O.O3):
            # O1: S_w - S_l; O2/O3: S_w (the winner's amount in the game-turn of the kill /
            # concession, WOTOLD-SCORE-4, AMB-W16).
            val = Fraction(res.support[w] - (res.support[lo] if code == _O.O1 else 0))
            if sign == "clamp_to_sign" and val < 0:        # AMB-W3 alternative
                val = Fraction(0)
            line[w].gp, line[w].tbp = _CLASSIC_WIN_GP, val
            line[lo].gp, line[lo].tbp = 0, -val
        else:                                              # O4, O5: A_side(winner)
            line[w].gp, line[lo].gp = _CLASSIC_WIN_GP, -1
            line[w].direct = line[lo].direct = False
    elif code == _O.O6:                                    # each: -S(opponent)
        line[a].tbp, line[b].tbp = -Fraction(res.support[b]), -Fraction(res.support[a])
    elif code == _O.O7:                                    # each: -A_all(p, q)
        line[a].gp = line[b].gp = -1
        line[a].direct = line[b].direct = False
    else:                                                  # O8 tie: 1 GP, 0 TBP each
        line[a].gp = line[b].gp = 1
    return [line[a], line[b]]


def _score_2001(res: WotResult, loser_zero: bool) -> list[_Line]:
    a, b = sorted(res.sides)
    code, w = res.outcome, res.winner
    pat, n = res.pattern, res.neutral or 0
    out: list[_Line] = []
    for p, q in ((a, b), (b, a)):
        own = Fraction(pat[p])
        if code == _Q.Q2:
            gp = 1
        elif w is None or code == _Q.Q3:
            gp = 0
        else:
            gp = 2 if p == w else 0
        if code == _Q.Q5 and p == res.conceded_by:
            tbp = Fraction(0)                                   # WOT01-SCORE-4
        elif (code == _Q.Q5 and p == w) or (code == _Q.Q4 and w in (p, None)):
            tbp = max(own, Fraction(_PATTERN_TOTAL - (pat[q] + n)))   # WOT01-SCORE-5, AMB-W4
        elif code == _Q.Q4 and loser_zero:
            tbp = Fraction(0)                                   # AMB-W4 alternative (flag)
        else:
            tbp = own                                           # WOT01-SCORE-3; Q4 loser AMB-W4
        out.append(_Line(p, code, res.sides[p], res.table, gp, _clamp(tbp)))
    return out


def _apply_overrides(revision: Revision, lines: Mapping[int, _Line],
                     by_player: Mapping[int, list[TbpOverride]],
                     numbers: Iterable[int]) -> dict[int, Fraction]:
    """Chain each player's overrides (``old`` must equal the value it replaces)."""
    final: dict[int, Fraction] = {}
    for p in numbers:
        cur = lines[p].tbp
        for ov in by_player.get(p, []):
            if ov.old != cur:
                raise RuleError(rule_id(revision, "FORF-2"), f"tbp_overridden for player {p} "
                                f"(table {ov.table}) says old TBP {ov.old}, but the TBP it "
                                f"replaces is {cur}", hint="an override cites the value it "
                                "replaces; re-derive and cite the current value",
                                finding="wot_override_stale")
            cur = ov.new
        final[p] = cur
    return final


def _check_overrides(revision: Revision, overrides: Sequence[TbpOverride],
                     results: Mapping[int, WotResult], table_of: Mapping[int, int],
                     round_no: int | None) -> dict[int, list[TbpOverride]]:
    rid = rule_id(revision, "FORF-2")
    by_player: dict[int, list[TbpOverride]] = {}
    for ov in overrides:
        if round_no is not None and ov.round != round_no:
            raise RuleError(rid, f"tbp_overridden names round {ov.round}, not this Game "
                            f"({round_no})", finding="wot_override_invalid")
        res = results.get(table_of.get(ov.number, -1))
        if res is None or res.table != ov.table:
            raise RuleError(rid, f"tbp_overridden: player {ov.number} has no result at table "
                            f"{ov.table} in this Game", finding="wot_override_invalid")
        if res.conceded_by is None or res.winner != ov.number:
            raise RuleError(rid, f"tbp_overridden: player {ov.number}'s opponent at table "
                            f"{ov.table} neither conceded nor was declared forfeit",
                            hint="the Judge may adjust only the TBP of a conceding or "
                            "forfeiting player's opponent", finding="wot_override_invalid")
        if not ov.method.strip() or not ov.reason.strip():
            raise RuleError(rid, "tbp_overridden needs a method and a reason",
                            finding="wot_override_invalid")
        if revision is Revision.WOT_2001 and not _TBP_MIN <= ov.new <= _TBP_MAX:
            raise RuleError(rule_id(revision, "SCORE-7"), f"tbp_overridden new TBP {ov.new} "
                            "is outside [0, 16]", finding="wot_override_invalid")
        by_player.setdefault(ov.number, []).append(ov)
    return by_player


def score_game(revision: Revision, game_results: Iterable[WotResult],
               params: Mapping[str, object], *, bye: int | None = None,
               bye_side: Side | None = None, overrides: Sequence[TbpOverride] = (),
               round_no: int | None = None,
               sides: Mapping[int, Side] | None = None) -> dict[int, PlayerScore]:
    """Score one Game as a whole: every result of the Game, its bye, and the Judge's
    ``tbp_overridden`` events for it → ``{player: PlayerScore}`` (GP, TBP), keyed and
    iterated by player number.

    ``params`` is the event's parameter set (RULES.md §8; defaults filled in and checked by
    ``resolve_params``).  ``bye``/``bye_side`` come from the pairing (WOTOLD-SCORE-5): the
    bye scores O9 = 2 GP + A_side over ``bye_side`` (classic, WOTOLD-BYE-7) or Q6 = 2 GP +
    8 TBP (2001, WOT01-SCORE-6).  When ``sides`` (the pairing's) is given, each result's
    sides must equal it.  The result does not depend on the order of ``game_results``.
    Classic averages are final once every table of the Game has reported.
    """
    flags = resolve_params(revision, params)
    model = "SCORE-5" if revision is Revision.WOT_OLD else "SCORE-10"
    by_table: dict[int, WotResult] = {}
    table_of: dict[int, int] = {}
    for res in game_results:
        validate_result(revision, res)
        if res.table in by_table:
            raise result_error(revision, model, f"table {res.table} has two results in one "
                               "Game", hint="a fix is a correction event that replaces it")
        for p, side in res.sides.items():
            if p in table_of or p == bye:
                raise result_error(revision, "GAME-1", f"player {p} plays twice in one "
                                   f"Game (table {res.table})")
            if sides is not None and sides.get(p) != side:
                seated = sides[p].value if p in sides else "absent"
                raise result_error(revision, model, f"table {res.table}: player {p} is "
                                   f"recorded as {side.value}, but the pairing seated them "
                                   f"as {seated}", hint="a result's sides equal its pairing's")
            table_of[p] = res.table
        by_table[res.table] = res
    if (bye is None) != (bye_side is None):
        raise result_error(revision, "BYE-7", "a bye and its bye_side are recorded together",
                           hint="bye_side is null exactly when there is no bye")
    if bye is not None and sides is not None and bye in sides:
        raise result_error(revision, "GAME-1", f"bye player {bye} is also seated at a table")
    results = [by_table[t] for t in sorted(by_table)]
    ovs = _check_overrides(revision, overrides, by_table, table_of, round_no)

    lines: dict[int, _Line] = {}
    if revision is Revision.WOT_2001:
        for res in results:
            for ln in _score_2001(res, flags["wot_early_kill_loser_tbp"] == "zero"):
                lines[ln.number] = ln
        if bye is not None and bye_side is not None:
            lines[bye] = _Line(bye, BYE_CODE[revision], bye_side, None, 2,
                               _clamp(_BYE_TBP_2001))
        final = _apply_overrides(revision, lines, ovs, lines)
    else:
        for res in results:
            for ln in _classic_direct(res, str(flags["wot_classic_tbp_sign"])):
                lines[ln.number] = ln
        if bye is not None and bye_side is not None:
            lines[bye] = _Line(bye, BYE_CODE[revision], bye_side, None, 2, direct=False)
        direct = [p for p, ln in lines.items() if ln.direct]
        final = _apply_overrides(revision, lines, ovs, direct)
        source = final if flags["wot_override_in_averages"] else \
            {p: lines[p].tbp for p in direct}
        for p, ln in lines.items():
            if ln.direct:
                continue
            if ln.code == _O.O7:                   # A_all(p, q): everyone but the two
                opp = next(q for q in by_table[table_of[p]].sides if q != p)
                ln.inputs = _top3(v for q, v in source.items() if q not in (p, opp))
                ln.tbp = -sum(ln.inputs, Fraction(0)) / 3
            elif ln.code in (_O.O4, _O.O5):
                res = by_table[table_of[p]]
                w = res.winner
                if w is None:  # pragma: no cover - validate_result guarantees a winner
                    raise result_error(revision, model, f"table {res.table}: no winner")
                ln.inputs = _top3(v for q, v in source.items()
                                  if q != w and lines[q].side is res.sides[w])
                avg = sum(ln.inputs, Fraction(0)) / 3
                ln.tbp = avg if p == w else -avg
            else:                                  # O9: A_side over bye_side
                ln.inputs = _top3(v for q, v in source.items()
                                  if q != p and lines[q].side is ln.side)
                ln.tbp = sum(ln.inputs, Fraction(0)) / 3
        final.update(_apply_overrides(revision, lines, ovs,
                                      [p for p, ln in lines.items() if not ln.direct]))
    return {p: PlayerScore(number=p, code=ln.code, side=ln.side, table=ln.table, gp=ln.gp,
                           tbp=final[p], derived_tbp=ln.tbp, overrides=tuple(ovs.get(p, ())),
                           inputs=ln.inputs)
            for p, ln in sorted(lines.items())}
