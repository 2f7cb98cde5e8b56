"""What the live pages show at one log size, as plain data (issue 18).

Owns: ``LiveData`` (the event, its posted rounds, standings, each player's matches, the
round clock and the checkable line at one log size) and ``build``; what ``build`` reads
beside the folded state, and ``Memo`` (what stays valid from one log size to the next),
are ``server.view_reads``'s.  Everything is read through the format plug-in and the
projections (``projections.site.round_view`` / ``standings_table``,
``projections.report.round_docs``, ``projections.standings_doc``); nothing here names a
format.  Who is named how, whether penalties are public and which rounds are posted is
the organizer's choice recorded in the log (``ledger.core.public_pages``).

``build`` runs on the follower's thread with the state it folds; the ``LiveData`` it
returns is never changed afterwards, so the pages read it from any thread.

May import: ``ledger.*``, ``projections.*``, ``server.acts``, ``server.view_reads``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ledger.core import public_pages
from ledger.core.format_socket import plugin_for
from ledger.core.player_words import plain
from ledger.core.state import TournamentState
from ledger.formats.match.model import MatchState
from ledger.wire.pages import NameStyle
from projections.checkable import Checkable, checkable_of
from projections.report import bracket_doc
from server import view_reads as reads
from server.acts import Act
from server.view_reads import Clock, Given, Memo

__all__ = ["Appearance", "Clock", "LiveData", "Memo", "build", "label_of"]


@dataclass(frozen=True)
class Appearance:
    """One player's place in one posted round."""

    round_index: int        # into ``LiveData.rounds``
    table: int | str        # table number, "bye" or "—" (advances without playing)
    opponent: str
    side: str
    result: str             # the format's words, "—" while there is none
    outcome: str            # "won", "lost", "drew", "" (none yet), "bye"
    extra_minutes: int = 0  # the table's time extensions (``round extend``, BR-EXT-1)
    recorded: bool = False  # the table (a team table: the seat) has its result
    team: str = ""          # a team event: the player's team, by its name
    seat: int | None = None         # a team event: the player's seat at ``table``
    team_result: str | None = None  # a team event: the team's result (``result``: the seat's)

    @property
    def where(self) -> int | str:
        """The table as the JSON read says it ("3 seat 2" for a team member's seat)."""
        return self.table if self.seat is None else f"{self.table} seat {self.seat}"

    @property
    def words(self) -> str:
        """The result as the JSON read says it ("1-0 (team: —)" for a seat)."""
        return self.result if self.team_result is None else \
            f"{self.result} (team: {self.team_result})"


@dataclass(frozen=True)
class LiveData:
    log: str
    name: str
    format_title: str
    players: int
    checkable: Checkable
    noun: str
    status: str
    rounds: list[dict[str, Any]]            # posted rounds, ``projections.site.round_view``
    held: list[int]
    standings: dict[str, Any] | None        # ``projections.site.standings_table``
    standing_of: dict[int, list[dict[str, Any]]]
    labels: dict[int, str]
    dropped: frozenset[int]
    round_apps: list[dict[int, Appearance]]  # per posted round: each player's place
    clock: Clock | None
    bracket: dict[str, Any]
    penalties: dict[int, list[str]] | None  # None: the organizer does not publish them
    champion: str | None
    over: bool = False                      # the event is over: nobody drops any more
    disqualified: frozenset[int] = frozenset()
    live: bool = True
    rev: int = 0            # > 0: earlier rounds changed after this log size was shown
    partial: bool = False   # earlier rounds taken from the previous log size (``build``)
    #: every act recorded with each player's card (``server.acts``; issue 27)
    acts: dict[int, tuple[Act, ...]] = field(default_factory=dict)
    act_words: dict[int, Given] = field(default_factory=dict)  # a report's fields, by seq
    names: NameStyle = NameStyle.FULL  # how public pages name players (the find page's words)
    language: str = "en"   # the event's default page language (``pages set --language``)
    time_zone: str = "UTC"  # the zone pages show times in (``pages set --time-zone``)
    #: the players removed from the event now: number -> (label, the format's word)
    removed: dict[int, tuple[str, str]] = field(default_factory=dict)
    format_id: str = ""            # the format plug-in's id (``tourney init --format``)
    hold_pairings: bool = False    # new pairings wait for ``round post`` (ADR 0023)
    #: the log up to just before the earliest held pairing in force: what may be served
    #: as signed leaves while a round is held (``server.api_reads``); the size otherwise
    public_size: int = 0
    #: the head judge's announcements on show, oldest first (``announcement_made``)
    announcements: list[str] = field(default_factory=list)
    #: the published deck lists (``view_reads.decklists``)
    decklists: list[dict[str, Any]] = field(default_factory=list)
    #: the organizer's decklist deadline (DECK-LIST-1) and the players with no list yet
    deck_deadline: str | None = None
    deck_pending: frozenset[int] = frozenset()

    def appearances(self, number: int) -> list[Appearance]:
        """``number``'s place in each posted round, oldest first."""
        return [apps[number] for apps in self.round_apps if number in apps]

    def now_of(self, number: int) -> tuple[Appearance | None, int | None]:
        """Where player ``number`` plays now — their place in the newest posted round;
        None without one there, or while a round paired after it is held (the old table
        is not where the player goes next: issue 32 item 5) — and that held round."""
        apps = self.appearances(number)
        current = apps[-1] if apps and apps[-1].round_index == len(self.rounds) - 1 \
            else None
        newest = self.rounds[-1]["round"] if self.rounds else 0
        held_next = max((h for h in self.held if h > newest), default=None)
        return (None if held_next is not None else current), held_next

    @property
    def current(self) -> dict[str, Any] | None:
        return self.rounds[-1] if self.rounds else None

    def round(self, number: int) -> dict[str, Any] | None:
        return next((r for r in self.rounds if r["round"] == number), None)

    def search(self, query: str, limit: int = 50) -> list[tuple[int, str]]:
        """Players whose number is ``query`` or whose public label has a word starting
        with it, without case or accents (``server.search.find``): what the organizer
        lets a page show, never more."""
        from server.search import find

        return find(self.labels, query, limit)


def label_of(state: TournamentState, number: int) -> str:
    """``#17`` and the name as the organizer lets public pages show it (ADR 0023)."""
    return public_pages.public_label(state, number)


def _status(state: TournamentState, noun: str, held: list[int]) -> str:
    """What happens next, in a player's words (the staff's next step names commands)."""
    plugin = plugin_for(state.format.id if state.format else None)
    if plugin is None or state.fmt is None:
        return "Registration is open." if state.registration_closed_seq is None else ""
    p = plugin.views.progress(state)
    if p.phase == "finished":
        return "The event is over; the standings are final."
    if p.phase == "registration":
        return "Registration is open; pairings appear here when the first " \
               f"{noun.lower()} is posted."
    r = p.round
    if r is not None and r.number in held:
        return f"{noun} {r.number} is being checked by the head judge: stay seated; " \
               "pairings appear here when it is posted."
    if r is not None and r.open:
        left = len(r.missing_results)
        return f"{noun} {r.number} is being played: {r.tables - left} of {r.tables} " \
               "results in."
    if p.phase in ("cut_window", "cut_made"):
        return "The Swiss rounds are over; the top cut is next."
    if r is not None:
        return f"{noun} {r.number} is complete; waiting for the next pairings."
    return "Waiting for the first pairings."


def _removed(state: TournamentState) -> dict[int, str]:
    """The entrants removed from the event now (disqualified; in Wheel of Time, declared
    forfeit), each with the format's word (``FormatPlugin.removed``), whatever the
    standings shown."""
    plugin = plugin_for(state.format.id if state.format else None)
    return plugin.rules.removed(state) if plugin is not None and state.fmt is not None else {}


def _disqualified(state: TournamentState, removed: dict[int, str]) -> frozenset[int]:
    """The players whose page says they are out: the entrants removed and a team
    member's own disqualification (issue 20, the shared officiating layer)."""
    teams = getattr(state.fmt, "teams", None)
    return frozenset([*removed, *(getattr(teams, "own_dq", None) or {})])


def _deadline(state: TournamentState) -> str | None:
    """The decklist deadline (DECK-LIST-1), if the organizer set one."""
    o = getattr(state.fmt, "officiating", None)
    return getattr(o, "deck_deadline", None)


def _deck_pending(state: TournamentState) -> frozenset[int]:
    """Players without a registered list while players hand in their own."""
    if _deadline(state) is None:
        return frozenset()
    decks = state.fmt.officiating.decks
    return frozenset(n for n in state.players if n not in decks)


def _mark_removed(table: dict[str, Any], rows: list[int],
                  removed: dict[int, str]) -> dict[str, Any]:
    """The live standings ``table`` (its rows in the order of ``rows``' numbers) with the
    status of each removed player saying so now: standings kept from the last completed
    round still tell that a player was disqualified since (issue 32: every page tells
    what is true now).  A copy: the kept table is not changed; the desk's outputs
    (``tourney standings``) are not touched."""
    keys = [c.get("key") for c in table["columns"]]
    at = keys.index("status") if "status" in keys else \
        keys.index("finish") if "finish" in keys else None
    out = []
    for number, row in zip(rows, table["rows"], strict=True):
        word = removed.get(number)
        if word is not None and at is not None:
            cells = list(row["cells"])
            cells[at] = {**cells[at], "text": word, "exact": None}
            row = {**row, "cells": cells}
        out.append(row)
    return {**table, "rows": out}


def _appearances(i: int, doc: dict[str, Any], view: dict[str, Any],
                 labels: dict[int, str], state: TournamentState) -> dict[int, Appearance]:
    """Each player's place in the posted round ``i`` (its document and display), with
    the time extensions of each table from the shared officiating layer, if it has one
    (keyed "round/table", ``ledger.formats.officiating.corrections.key``)."""
    out: dict[int, Appearance] = {}
    ext: dict[str, int] = getattr(getattr(state.fmt, "officiating", None), "extensions",
                                  None) or {}

    def label(n: int | None) -> str:
        return "—" if n is None else labels.get(n, f"#{n}")

    for tb, tv in zip(doc["tables"], view["tables"], strict=True):
        res = tb.get("result")
        sides = tb.get("sides") or ("", "")
        teams = (tv["a"], tv["b"])
        for st in tb.get("seats") or []:       # a team table: each member at their seat
            x, y = st["players"]
            for k, (me, other) in enumerate(((x, y), (y, x))):
                out[me] = Appearance(
                    round_index=i, table=tb["table"], seat=st["seat"],
                    team_result=tv["result"],
                    opponent=label(other), side="", result=st["result"] or "—", outcome="",
                    recorded=bool(st["result"]) or res is not None, team=teams[k],
                    extra_minutes=ext.get(f"{doc['round']}/{tb['table']}", 0))
        for seat, me in enumerate(() if tb.get("seats") else tb["players"]):
            other = tb["players"][1 - seat] if len(tb["players"]) == 2 else None
            outcome = "" if res is None else (
                "won" if res["winner"] == me else
                "lost" if me in res.get("losers", []) else "drew")
            out[me] = Appearance(
                round_index=i, table=tb["table"], opponent=label(other),
                side=str(sides[seat]).strip(" ()"), result=tv["result"],
                outcome=outcome, extra_minutes=ext.get(f"{doc['round']}/{tb['table']}", 0),
                recorded=res is not None)
    if doc.get("bye") is not None:
        out[doc["bye"]] = Appearance(round_index=i, table="bye", opponent="—", side="",
                                     result="bye", outcome="bye")
    for n in doc.get("advances") or []:
        out[n] = Appearance(round_index=i, table="—", opponent="advances without playing",
                            side="", result="—", outcome="bye")
    return out


def _kept_rounds(previous: LiveData | None, numbers: list[int],
                 state: TournamentState) -> int:
    """How many of ``previous``'s rounds are taken as they are: all but the newest while
    the same rounds are posted; all but the newest two when one more round was posted
    (the round before it is read again: its last results may have come with it)."""
    if previous is None or not numbers or not isinstance(state.fmt, MatchState):
        return 0
    old = [r["round"] for r in previous.rounds]
    if old == numbers:
        return len(numbers) - 1
    if len(numbers) >= 2 and old == numbers[:-1]:
        return len(numbers) - 2
    return 0


def build(led: Any, state: TournamentState, memo: Memo, *, live: bool = True,
          previous: LiveData | None = None) -> LiveData:
    """The pages' data at the state's log size (``led``: the ledger it was folded from).

    With ``previous`` (the data of the log size before) and the same posted rounds, only
    the newest round is read again and the earlier ones are taken from ``previous``
    (``partial``): a result in round 5 of a 4,096-player event then costs one round, not
    five; when one more round was posted, it and the round before it are read
    (``_kept_rounds``).  The follower builds the whole again when the log goes quiet, and shows it
    (``rev``) only if an earlier round did change (a correction, a rename)."""
    from projections.site import public_view, round_view, standings_table

    plugin = plugin_for(state.format.id if state.format else None)
    seqs = dict(state.pages.paired)       # round -> the pairing in force (ADR 0023)
    view, champ = reads.settled(led, state, memo, seqs)
    noun = view.round_noun.capitalize() if view.columns else "Round"
    labels = {n: label_of(state, n) for n in state.players}
    held = public_pages.held_rounds(state)
    numbers = sorted(n for n in seqs if public_pages.round_posted(state, n))
    keep = _kept_rounds(previous, numbers, state)
    docs = reads.fresh_docs(led, state, numbers[keep:]) if keep else None
    if docs is None:
        keep = 0
        docs = [d for d in reads.docs(led, state, None)
                if public_pages.round_posted(state, d["round"])]
    fresh = []
    for d in docs:
        v = round_view(state, d)
        v["closed"] = d["closed"]
        v["pairing_note"] = d.get("pairing_note")
        v["paired_seq"] = seqs.get(d["round"])
        fresh.append(v)
    earlier = previous.rounds[:keep] if previous is not None else []
    views = [*earlier, *fresh]
    round_apps = [*(previous.round_apps[:keep] if previous is not None else []),
                  *(_appearances(keep + i, d, v, labels, state)
                    for i, (d, v) in enumerate(zip(docs, fresh, strict=True)))]
    kept = memo.tables.get(id(view))
    if kept is None:
        standing_of: dict[int, list[dict[str, Any]]] = {}
        table = standings_table(public_view(state, view), player=True) if view.columns \
            else None
        if table is not None:
            for row, trow in zip(view.rows, table["rows"], strict=True):
                standing_of[row.number] = trow["cells"]
        if view.open_round is not None and table is not None:
            memo.tables = {id(view): (table, standing_of)}  # kept while the round is open
    else:
        table, standing_of = kept
    removed = _removed(state)
    if table is not None and removed:
        marked = _mark_removed(table, [r.number for r in view.rows], removed)
        standing_of = {**standing_of, **{r.number: row["cells"] for r, row in
                                         zip(view.rows, marked["rows"], strict=True)
                                         if r.number in removed}}
        table = marked
    current = views[-1]["round"] if views else None
    slots = bracket_doc(state, [], champion=champ)["slots"] or []
    bracket = {"seeds": [(i, labels.get(n, '—') if n else 'empty')
                         for i, n in enumerate(slots, 1)],
               "seeding": plain(view.seeding or "seeding"),
               "rounds": [v for v in views if v["phase_label"] == "top cut"]}
    progress = plugin.views.progress(state) if plugin is not None and state.fmt is not None \
        else None
    return LiveData(
        log=state.log, name=state.name or state.log,
        format_title=plugin.player_title(state.format)
        if plugin is not None and state.format is not None else "",
        players=len(state.players), checkable=checkable_of(state, led), noun=noun,
        status=_status(state, noun, held), rounds=views, held=held, standings=table,
        standing_of=standing_of, labels=labels,
        dropped=frozenset(n for n in state.players
                          if plugin is not None and plugin.rules.has_left(state, n)),
        round_apps=round_apps, clock=reads.clock(led, state, current),
        bracket=bracket, penalties=reads.penalties(led, state, memo),
        champion=None if champ is None else (
            plugin.views.entrant_name(state, champ) if plugin is not None else None
        ) or labels.get(champ), live=live,
        partial=keep > 0, acts=reads.acts(led, state, memo, labels), act_words=memo.act_words,
        names=state.pages.names, language=state.pages.language,
        time_zone=state.pages.time_zone,
        over=progress is not None and progress.phase == "finished",
        disqualified=_disqualified(state, removed), removed={
            n: ((plugin.views.entrant_name(state, n) if plugin is not None else None)
                or labels.get(n) or f"#{n}", w) for n, w in removed.items()},
        format_id=state.format.id if state.format is not None else "",
        hold_pairings=state.pages.hold,
        announcements=[t for _s, t in sorted(state.pages.notes.items())],
        decklists=reads.decklists(led, state, labels),
        deck_deadline=_deadline(state), deck_pending=_deck_pending(state),
        public_size=min((seqs[h] - 1 for h in held if h in seqs), default=state.size))
