"""Pairing of every Wheel of Time Game after the first (RULES.md §6.4, §6.5, §7.4).

Owns: the pairing result types (``Pairing``, ``Table``, ``Rematch``), ``Entrant`` (what
pairing needs to know of one active player), ``needs_tie_order`` and ``pair_game``:

- **Kind** (WOTOLD-PAIR-3/4/5): an even Game is the second Game of a Cycle → *pile pairing*
  (Hero and Villain piles by the side played in the previous Game, each sorted by total
  (GP, TBP), k-th v k-th, everyone switches deck); an odd Game > 1 is the first Game of a
  later Cycle → *list pairing* (one ranked list, 1 v 2, 3 v 4, the higher-ranked as Hero).
- **Score key** (WOTOLD-PAIR-10): (GP desc, TBP desc); exact ties are ordered by a
  caller-supplied DRAW-v1 order of the active players (WOTOLD-PAIR-8, AMB-W9, AMB-W7(b)),
  required whenever two active players share (GP, TBP).
- **Bye** (WOTOLD-BYE-2..6, AMB-W7): taken out before pairing, from the bye group — the
  larger side group of the previous Game: the previous Hero players for a second Game
  (BYE-2, BYE-4, AMB-W7(d)), the previous Villain players (including the previous bye) for a
  first Game (BYE-3); a bye created by a removal comes from the larger pile (AMB-W7(e)).
  From the lowest-ranked upward, the first player with the fewest byes of the field gets it
  ("the player above", BYE-5, TC-17); if nobody in the group qualifies, the lowest-ranked
  qualifying player of the other group (AMB-W7(c), TC-17b).  The bye counts as the deck the
  bye player's group switches to (``bye_side``).
- **Surplus** (AMB-W10, AMB-W7(c)): when the piles differ in size, the surplus players of the
  larger pile meet each other in rank order; the higher plays the deck the pile switches to,
  the lower repeats a deck (``deck_repeats``).
- **Rematches** (WOTOLD-PAIR-6/7, AMB-W8): the move-down procedure — take the first
  offending table from the top, move its lower-ranked player down one place in their own
  list or pile (pile pairing compares scores; the list compares places), or the other
  player if that one is last, or the lower one up if both are last — run first against any
  rematch, then (from the original order) against same-deck rematches only, each within n²
  moves; otherwise the best arrangement reached (fewest same-deck rematches, then fewest
  rematches, then reached first).  *Guard* (WOTOLD-PAIR-6 "if at all possible"): the chosen
  arrangement must reach the fewest (same-deck rematches, rematches) any arrangement can
  reach, computed exactly with ``ledger.core.matching``; when the procedure falls short (it can
  cycle on small piles), the exact arrangement nearest the ranked order is used instead
  (``method = "exact"``).  Remaining rematches are listed for a Judge override.

May import: the standard library, ``ledger.errors``, ``ledger.core.matching``,
``ledger.formats.wot.model``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from ledger.core.matching import min_cost_perfect_matching
from ledger.errors import RuleError
from ledger.formats.wot.model import Revision, Side, rule_id

__all__ = ["Entrant", "Pairing", "PairingKind", "Rematch", "Table", "game_kind",
           "needs_tie_order", "pair_game", "tie_context"]


class PairingKind(str, Enum):
    SEATING = "seating"   # Game 1 (WOTOLD-PAIR-1)
    PILES = "piles"       # second Game of a Cycle (WOTOLD-PAIR-3/5)
    LIST = "list"         # first Game of a later Cycle (WOTOLD-PAIR-4)


@dataclass(frozen=True, slots=True)
class Table:
    table: int
    hero: int
    villain: int

    @property
    def players(self) -> tuple[int, int]:
        return self.hero, self.villain


@dataclass(frozen=True, slots=True)
class Rematch:
    """A pairing of two players who met before; ``same_deck`` when with the same decks."""

    table: int
    hero: int
    villain: int
    same_deck: bool


@dataclass(frozen=True, slots=True)
class Pairing:
    """One Game's pairing: what ``round_paired`` records (tables, ``sides``, ``bye``,
    ``bye_side``), the deck repeats and remaining rematches it must list, and how it was
    reached.  ``order`` is the ranked input: (Hero pile, Villain pile) for pile pairing,
    (ranked list, ()) for list pairing, (shuffled sheets, ()) for seating — bye included."""

    game: int
    kind: PairingKind
    tables: tuple[Table, ...]
    bye: int | None
    bye_side: Side | None
    order: tuple[tuple[int, ...], tuple[int, ...]]
    deck_repeats: tuple[int, ...] = ()
    rematches: tuple[Rematch, ...] = ()
    method: str = "ranked"   # ranked | no_rematch | no_same_deck | best | exact
    moves: int = 0

    @property
    def sides(self) -> dict[int, Side]:
        out: dict[int, Side] = {}
        for t in self.tables:
            out[t.hero], out[t.villain] = Side.HERO, Side.VILLAIN
        return dict(sorted(out.items()))


@dataclass(frozen=True, slots=True)
class Entrant:
    """An active player before a Game: total score, the side played (or deemed played, for
    a bye) in the previous Game, and the number of byes received so far."""

    number: int
    gp: int
    tbp: Fraction
    last_side: Side
    byes: int = 0


def game_kind(game: int) -> PairingKind:
    """Game 1 is seated; even Games are pile-paired; odd Games > 1 are list-paired."""
    if game < 1:
        raise ValueError(f"Games are numbered from 1, got {game}")
    return PairingKind.SEATING if game == 1 else \
        PairingKind.PILES if game % 2 == 0 else PairingKind.LIST


def tie_context(game: int) -> str:
    """DRAW-v1 context of the tie-break order drawn before Game ``game`` (AMB-W9)."""
    return f"wot/game-{game}/ties"


def needs_tie_order(entrants: Iterable[Entrant]) -> bool:
    """True when two active players share (GP, TBP): the pairing then needs a recorded
    DRAW-v1 order of the active players (AMB-W9)."""
    keys = [(e.gp, e.tbp) for e in entrants]
    return len(set(keys)) != len(keys)


# --------------------------------------------------------------------------- arrangement

Arr = tuple[tuple[int, ...], tuple[int, ...]]   # piles: (hero pile, villain pile); list: (L, ())


class _Ctx:
    """Immutable inputs of one pairing: ranks, previous sides and meetings."""

    def __init__(self, kind: PairingKind, rank: dict[int, int], last: dict[int, Side],
                 history: Iterable[Table]) -> None:
        self.kind = kind
        self.rank = rank            # 0 = best
        self.last = last
        self.met: dict[frozenset[int], set[tuple[int, int]]] = {}
        for t in history:
            self.met.setdefault(frozenset(t.players), set()).add((t.hero, t.villain))

    def tables(self, arr: Arr) -> list[tuple[int, int]]:
        """(hero, villain) per table, top first."""
        if self.kind is PairingKind.LIST:
            lst = arr[0]
            return [(lst[i], lst[i + 1]) for i in range(0, len(lst), 2)]
        hp, vp = arr
        m = min(len(hp), len(vp))
        out = [(vp[i], hp[i]) for i in range(m)]          # everyone switches deck
        if len(hp) > m:                                   # surplus Hero pile: higher switches
            out += [(hp[j + 1], hp[j]) for j in range(m, len(hp), 2)]
        else:
            out += [(vp[j], vp[j + 1]) for j in range(m, len(vp), 2)]
        return out

    def offence(self, hero: int, villain: int) -> tuple[int, int]:
        """(same_deck, rematch) as 0/1."""
        seen = self.met.get(frozenset((hero, villain)))
        if not seen:
            return 0, 0
        return (1 if (hero, villain) in seen else 0), 1

    def key(self, arr: Arr) -> tuple[int, int]:
        sd = rm = 0
        for h, v in self.tables(arr):
            a, b = self.offence(h, v)
            sd, rm = sd + a, rm + b
        return sd, rm

    def move(self, arr: Arr, hero: int, villain: int) -> Arr | None:
        """AMB-W8: move the lower-ranked player of the table down one place in their own
        list/pile; the other one if that player is last; the lower one up if both are last."""
        if self.kind is PairingKind.LIST:
            lst = list(arr[0])
            i, j = sorted((lst.index(hero), lst.index(villain)))
            k = j if j + 1 < len(lst) else i            # j is last → move the other (i) down
            lst[k], lst[k + 1] = lst[k + 1], lst[k]
            return tuple(lst), ()
        piles = [list(arr[0]), list(arr[1])]

        def where(p: int) -> tuple[int, int]:
            for n, pile in enumerate(piles):
                if p in pile:
                    return n, pile.index(p)
            raise KeyError(p)  # pragma: no cover - every seated player is in a pile

        lower, upper = sorted((hero, villain), key=lambda p: self.rank[p], reverse=True)
        for p, step in ((lower, 1), (upper, 1), (lower, -1)):
            n, i = where(p)
            if 0 <= i + step < len(piles[n]):
                piles[n][i], piles[n][i + step] = piles[n][i + step], piles[n][i]
                return tuple(piles[0]), tuple(piles[1])
        return None


def _run(ctx: _Ctx, start: Arr, same_deck_only: bool, budget: int,
         reached: list[Arr]) -> tuple[Arr, int, bool]:
    """One AMB-W8 run.  The procedure is deterministic, so an arrangement seen twice means
    it cycles and can never finish: it stops there, as it would after n² moves (the
    arrangements it would still reach are repeats, which cannot change "best")."""
    arr, moves, seen = start, 0, {start}
    while True:
        bad = next(((h, v) for h, v in ctx.tables(arr)
                    if ctx.offence(h, v)[0 if same_deck_only else 1]), None)
        if bad is None:
            return arr, moves, True
        if moves >= budget:
            return arr, moves, False
        nxt = ctx.move(arr, *bad)
        if nxt is None or nxt in seen:
            return arr, moves, False
        arr, moves = nxt, moves + 1
        seen.add(arr)
        reached.append(arr)


def _exact(ctx: _Ctx, start: Arr) -> tuple[list[tuple[int, int]], tuple[int, int]]:
    """Fewest (same-deck rematches, rematches) over every arrangement the procedure could
    reach, nearest the ranked order (squared displacement) among those; deterministic."""
    if ctx.kind is PairingKind.LIST:
        players = list(start[0])
        pos = {p: i for i, p in enumerate(players)}
        big, small = players, list[int]()
    else:
        hp, vp = start
        big, small = (list(hp), list(vp)) if len(hp) >= len(vp) else (list(vp), list(hp))
        players = big + small
        pos = {p: i for i, p in enumerate(big)} | {p: i for i, p in enumerate(small)}
    n = len(players)
    idx = {p: i for i, p in enumerate(players)}
    w = 4 * n ** 3 + 16                           # > any total displacement
    best: dict[tuple[int, int], tuple[int, int, int, int, int]] = {}

    def consider(h: int, v: int, disp: int) -> None:
        sd, rm = ctx.offence(h, v)
        cand = (sd * w * w * (n + 1) + rm * w + disp, sd, rm, h, v)
        k = (min(idx[h], idx[v]), max(idx[h], idx[v]))
        if k not in best or cand[0] < best[k][0]:
            best[k] = cand

    if ctx.kind is PairingKind.LIST:
        for i in range(n):
            for j in range(i + 1, n):
                a, b = players[i], players[j]
                consider(a, b, 2 * (j - i - 1) ** 2)
                consider(b, a, 2 * (j - i - 1) ** 2 + 1)
    else:
        big_hero = ctx.last[big[0]] is Side.HERO if big else True
        m = len(small)
        for a in big:
            for b in small:
                h, v = (b, a) if big_hero else (a, b)
                consider(h, v, (pos[a] - pos[b]) ** 2)
        for i in range(len(big) if len(big) > m else 0):
            for j in range(i + 1, len(big)):
                a, b = big[i], big[j]
                place = max(0, m - i) ** 2 + max(0, m - j) ** 2
                base = 2 * (j - i - 1) ** 2 + 2 * place
                # the higher switches deck (natural), or the lower switches (flipped)
                h, v = (b, a) if big_hero else (a, b)
                consider(h, v, base)
                consider(v, h, base + 1)
    edges = [(k[0], k[1], c[0]) for k, c in best.items()]
    matching = min_cost_perfect_matching(n, edges)
    if matching is None:  # pragma: no cover - the graphs above always have one
        raise RuntimeError("no perfect matching")
    tables = [(best[k][3], best[k][4]) for k in matching]
    tables.sort(key=lambda hv: min(ctx.rank[hv[0]], ctx.rank[hv[1]]))
    sd = sum(ctx.offence(h, v)[0] for h, v in tables)
    rm = sum(ctx.offence(h, v)[1] for h, v in tables)
    return tables, (sd, rm)


# --------------------------------------------------------------------------- pairing

def _check(revision: Revision, game: int, entrants: Sequence[Entrant],
           tie_order: Sequence[int] | None) -> None:
    numbers = [e.number for e in entrants]
    if len(set(numbers)) != len(numbers):
        raise RuleError(rule_id(revision, "PAIR-10"), "an active player is listed twice")
    if len(numbers) < 2:
        raise RuleError(rule_id(revision, "GAME-1"), f"Game {game} needs at least 2 active "
                        f"players, got {len(numbers)}", hint="end the tournament instead")
    if any(e.byes < 0 for e in entrants):
        raise RuleError(rule_id(revision, "BYE-5"), "a bye count is negative")
    if tie_order is not None and sorted(tie_order) != sorted(numbers):
        raise RuleError(rule_id(revision, "PAIR-8"), "the tie-break order must list every "
                        "active player exactly once", hint="draw it with DRAW-v1 over the "
                        "active players pre-ordered by number (AMB-W9)")
    if tie_order is None and needs_tie_order(entrants):
        raise RuleError(rule_id(revision, "PAIR-8"), f"Game {game}: players share the same "
                        "GP and TBP, so the pairing needs a recorded random order",
                        hint="record a DRAW-v1 draw over the active players (AMB-W9) and "
                        "pass it as tie_order")


def _choose_bye(entrants: Sequence[Entrant], kind: PairingKind,
                rank: dict[int, int]) -> tuple[Entrant, Side]:
    groups = {s: sorted((e for e in entrants if e.last_side is s), key=lambda e: rank[e.number])
              for s in Side}
    named = Side.HERO if kind is PairingKind.PILES else Side.VILLAIN   # BYE-2/4, BYE-3
    first = named if len(groups[named]) > len(groups[named.other]) else named.other  # W7(d,e)
    fewest = min(e.byes for e in entrants)
    for side in (first, first.other):                                  # AMB-W7(c)
        for e in reversed(groups[side]):                               # lowest first, upward
            if e.byes == fewest:
                return e, e.last_side.other
    raise AssertionError("unreachable: some entrant has the fewest byes")  # pragma: no cover


def pair_game(revision: Revision, game: int, entrants: Sequence[Entrant],
              history: Iterable[Table], tie_order: Sequence[int] | None = None) -> Pairing:
    """Pair Game ``game`` (>= 2) of the active ``entrants`` given every earlier Game's tables
    (``history``, byes excluded) and, when ``needs_tie_order``, the recorded DRAW-v1 order of
    the active players.  Pure: the command side and the audit call it with the same inputs."""
    kind = game_kind(game)
    if kind is PairingKind.SEATING:
        raise RuleError(rule_id(revision, "PAIR-1"), "Game 1 is seated from the shuffled "
                        "score sheets, not paired", hint="use seating.seat_first_game")
    _check(revision, game, entrants, tie_order)
    tie = {p: i for i, p in enumerate(tie_order or ())}
    ranked = sorted(entrants, key=lambda e: (-e.gp, -e.tbp, tie.get(e.number, 0)))
    rank = {e.number: i for i, e in enumerate(ranked)}
    last = {e.number: e.last_side for e in entrants}
    ctx = _Ctx(kind, rank, last, history)

    bye: int | None = None
    bye_side: Side | None = None
    if len(ranked) % 2:
        bye_entrant, bye_side = _choose_bye(ranked, kind, rank)
        bye = bye_entrant.number
    if kind is PairingKind.LIST:
        order: Arr = (tuple(e.number for e in ranked), ())
        start: Arr = (tuple(p for p in order[0] if p != bye), ())
    else:
        order = (tuple(e.number for e in ranked if e.last_side is Side.HERO),
                 tuple(e.number for e in ranked if e.last_side is Side.VILLAIN))
        start = (tuple(p for p in order[0] if p != bye), tuple(p for p in order[1] if p != bye))

    n = len(ranked) - (bye is not None)
    reached: list[Arr] = [start]
    arr1, moves1, ok1 = _run(ctx, start, False, n * n, reached)
    run2_reached: list[Arr] = []
    candidates: list[tuple[str, Arr, int]] = []
    if ok1:
        candidates.append(("ranked" if moves1 == 0 else "no_rematch", arr1, moves1))
    else:
        arr2, moves2, ok2 = _run(ctx, start, True, n * n, run2_reached)
        if ok2:
            candidates.append(("no_same_deck", arr2, moves2))
        every = reached + run2_reached
        keys = [ctx.key(a) for a in every]
        i_best = min(range(len(every)), key=lambda i: (keys[i], i))
        candidates.append(("best", every[i_best], i_best if i_best < len(reached)
                           else i_best - len(reached) + 1))
    if ok1:                                # no rematch at all: optimal, no search needed
        chosen_tables, method, moves = ctx.tables(arr1), candidates[0][0], moves1
    else:
        exact_tables, optimum = _exact(ctx, start)
        pick = next((c for c in candidates if ctx.key(c[1]) == optimum), None)
        if pick is None:
            chosen_tables, method, moves = exact_tables, "exact", 0
        else:
            chosen_tables, method, moves = ctx.tables(pick[1]), pick[0], pick[2]

    tables = tuple(Table(table=i + 1, hero=h, villain=v) for i, (h, v) in enumerate(chosen_tables))
    repeats: tuple[int, ...] = ()
    if kind is PairingKind.PILES:
        repeats = tuple(sorted(p for t in tables for p, s in ((t.hero, Side.HERO),
                                                              (t.villain, Side.VILLAIN))
                               if last[p] is s))
    rematches = tuple(Rematch(t.table, t.hero, t.villain, bool(ctx.offence(t.hero, t.villain)[0]))
                      for t in tables if ctx.offence(t.hero, t.villain)[1])
    return Pairing(game=game, kind=kind, tables=tables, bye=bye, bye_side=bye_side,
                   order=order, deck_repeats=repeats, rematches=rematches, method=method,
                   moves=moves)
