"""What the live pages' data reads beside the folded state (issue 18, ADR 0024): the
pieces ``server.view.build`` asks the ledger for, and what it keeps between log sizes.

Owns: ``Memo`` (what stays valid from one log size to the next: the standings before a
round in progress, penalty rows, the players' acts), ``Clock`` (the round clock) and the
readers ``settled`` (the standings, once per round), ``clock`` with ``table_extra`` /
``table_ends`` / ``iso_z`` (a table's own end: the one implementation), ``docs`` /
``fresh_docs``
(the rounds' documents, all or the newest alone), ``penalties`` and ``acts`` (read from
the leaves appended since the last log size).  Nothing here names a format.

May import: ``ledger.*``, ``projections.*``, ``server.acts``, ``server.report``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from ledger.core import public_pages
from ledger.core.format_socket import plugin_for
from ledger.core.player_words import plain
from ledger.core.state import TournamentState
from ledger.formats.match.model import MatchState
from ledger.standings_view import StandingsView
from ledger.wire.events import open_leaf
from projections.report import round_docs
from projections.standings_doc import settled_view, standings_view
from server.acts import Act
from server.report import Given as Given


@dataclass
class Memo:
    """Carried from one log size to the next by the follower: the standings before a
    round in progress (by its pairing's seq; they cannot change while it is played, as
    ``projections.standings_doc.settled_view`` defines them), their table, and the
    penalty rows read so far (only ever extended)."""

    before: dict[int, StandingsView] = field(default_factory=dict)  # by paired seq
    tables: dict[int, tuple[dict[str, Any], dict[int, list[dict[str, Any]]]]] = \
        field(default_factory=dict)                                  # by id of the view
    penalty_rows: list[dict[str, Any]] = field(default_factory=list)
    penalties_read_to: int = 0
    acts: dict[int, tuple[Act, ...]] = field(default_factory=dict)   # ``acts``
    act_words: dict[int, Given] = field(default_factory=dict)        # by seq: ``acts``
    acts_read_to: int = 0
    #: the standings just before an event that paired a round, by its seq, kept by the
    #: follower as it folds (``settled_view``'s ``folded``: no second fold of the log)
    folded: dict[int, StandingsView] = field(default_factory=dict)

    def keep_before_pairing(self, state: TournamentState, seq: int) -> None:
        """``Follower.before_pairing``: the view of ``state`` (just before ``seq``)."""
        self.folded = {seq: standings_view(state)}


@dataclass(frozen=True)
class Clock:
    """The round clock of ``round start|time|extend``: the start is the signed event's
    time, the end that time plus the minutes announced (BR-TIME-1/5)."""

    round: int
    started: str
    minutes: int
    ends: str
    called: bool


def settled(led: Any, state: TournamentState, memo: Memo,
             seqs: dict[int, int]) -> tuple[StandingsView, int | None]:
    """``projections.standings_doc.settled_view`` (and the champion) with the view before
    the round in progress kept in ``memo``: computed once per round, not once per append.
    While the format says a round is open whose earlier standings are kept, the current
    standings are not computed at all (an open round has no champion)."""
    plugin = plugin_for(state.format.id if state.format else None)
    p = plugin.views.progress(state) if plugin is not None and state.fmt is not None else None
    r = p.round if p is not None else None
    seq = seqs.get(r.number) if r is not None and r.open else None
    kept = memo.before.get(seq) if seq is not None else None
    if kept is not None and kept.open_round is not None and r is not None \
            and kept.open_round.number == r.number:
        return kept, None
    view = standings_view(state)
    return settled_view(led, state.log, state, cache=memo.before, current=view,
                        folded=memo.folded), view.champion


def clock(led: Any, state: TournamentState, number: int | None) -> Clock | None:
    """The clock of round ``number`` from the shared officiating layer, if it has one."""
    clocks = getattr(getattr(state.fmt, "officiating", None), "clock", None)
    c = clocks.get(number) if isinstance(clocks, dict) and number is not None else None
    if c is None:
        return None
    leaf = led.raw_leaf(state.log, c.started_seq)
    minutes = int(getattr(open_leaf(leaf).body, "minutes", 0)) if leaf is not None else 0
    try:
        start = datetime.fromisoformat(c.started_time.replace("Z", "+00:00"))
    except ValueError:
        return None
    ends = (start + timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M:%SZ")
    return Clock(round=number or 0, started=c.started_time, minutes=minutes, ends=ends,
                 called=c.called_seq is not None)


def table_extra(state: TournamentState, round_no: int | None, table: Any) -> int:
    """Minutes of time extensions a table of round ``round_no`` has (judge calls,
    BR-EXT-1; deck checks, BR-EXT-3; typed ones), from the shared officiating layer (0
    without one: one duration for every table)."""
    ext = getattr(getattr(state.fmt, "officiating", None), "extensions", None) or {}
    return int(ext.get(f"{round_no}/{table}", 0)) if round_no is not None else 0


def table_ends(clock: Clock | None, round_no: int | None, extra: int) -> datetime | None:
    """The table's own end (issue 30 item 2): round ``round_no``'s clock end plus the
    table's ``extra`` minutes, or None without a clock for that round.  The one
    implementation the desk glance, the player's pages and the match slips use."""
    if clock is None or round_no is None or clock.round != round_no:
        return None
    try:
        end = datetime.fromisoformat(clock.ends.replace("Z", "+00:00"))
    except ValueError:
        return None
    return end + timedelta(minutes=extra)


def iso_z(when: datetime | None) -> str | None:
    return None if when is None else when.strftime("%Y-%m-%dT%H:%M:%SZ")


def docs(led: Any, state: TournamentState, only: int | None) -> list[dict[str, Any]]:
    """Every round's document, or only round ``only``'s (a round of the match layer,
    read from the folded state: the newest round is there whole)."""
    if only is None or not isinstance(state.fmt, MatchState):
        return round_docs(led, state.log, state)
    from projections.report import round_doc
    from projections.rounds import bye_lost, load_round, override_of

    rnd = load_round(led, state.log, state, only)
    if rnd is None:
        return round_docs(led, state.log, state)
    return [round_doc(rnd, override_of(led, state.log, state, rnd),
                      lost_bye=bye_lost(state, rnd), state=state)]


def penalties(led: Any, state: TournamentState, memo: Memo) -> dict[int, list[str]] | None:
    if not public_pages.penalties_public(state):
        return None
    from projections.penalties import penalty_rows

    plugin = plugin_for(state.format.id if state.format else None)
    teams = getattr(getattr(state.fmt, "teams", None), "teams", None) or {}
    member_of = {m: t.number for t in teams.values() for m in t.members}
    if memo.penalties_read_to < state.size:
        memo.penalty_rows += penalty_rows(led.raw_leaves(state.log,
                                                         after=memo.penalties_read_to),
                                          teams=member_of)
        memo.penalties_read_to = state.size
    out: dict[int, list[str]] = {}
    for r in memo.penalty_rows:
        what = r["name"] or r["infraction"]
        text = plain(f"round {r['round']}: {str(r['penalty']).replace('_', ' ')} ({what})")
        if r.get("whose") == "member":          # a team member's own (issue 20)
            out.setdefault(int(r["number"]), []).append(text + " — own penalty")
            continue
        out.setdefault(int(r["number"]), []).append(
            text + (" — the team's penalty" if r.get("whose") == "team" else ""))
        if r.get("whose") == "team":            # applies to each member (BR-TEAM-6)
            name = plugin.views.entrant_name(state, r["team"]) if plugin is not None else None
            for m in teams[r["team"]].members if r["team"] in teams else []:
                if m != r["number"]:
                    out.setdefault(m, []).append(
                        text + f" — {name or 'your team'}'s penalty")
    return out


def acts(led: Any, state: TournamentState, memo: Memo,
          labels: dict[int, str]) -> dict[int, tuple[Act, ...]]:
    """Each player's acts made with their card (``server.acts``), read from the leaves
    appended since the last log size (issue 27: a player sees one they did not make);
    each new report's fields, kept as data for every language (``server.report.Given``,
    worded when a page is rendered), go to ``memo.act_words`` (by seq)."""
    from itertools import takewhile

    from server.acts import gather
    from server.report import given_parts

    if memo.acts_read_to < state.size:          # never past the folded state's size
        memo.acts = gather(memo.acts, takewhile(
            lambda row: row[0] <= state.size,
            led.raw_leaves(state.log, after=memo.acts_read_to)))
        memo.acts_read_to = state.size
        for acts in memo.acts.values():
            for a in acts:
                if a.given and a.seq not in memo.act_words:
                    memo.act_words[a.seq] = given_parts(state, dict(a.given), labels)
    return memo.acts


def fresh_docs(led: Any, state: TournamentState,
                rounds: list[int]) -> list[dict[str, Any]] | None:
    """The documents of ``rounds`` alone (None: one of them cannot be read alone)."""
    out: list[dict[str, Any]] = []
    for n in rounds:
        d = docs(led, state, n)
        if len(d) != 1 or d[0]["round"] != n:
            return None
        out += d
    return out


def decklists(led: Any, state: TournamentState,
              labels: dict[int, str]) -> list[dict[str, Any]]:
    """The deck lists the head judge published (``deck_published``, issue 30 item 4), by
    player number: the text, its SHA-256 and the seqs of the registration and the
    publication, for anyone to check (``tourney deck verify``)."""
    import hashlib

    o: Any = getattr(state.fmt, "officiating", None)
    published = getattr(o, "decks_published", None)
    if o is None or not published:
        return []
    out: list[dict[str, Any]] = []
    for n, seq in sorted(published.items()):
        leaf = led.raw_leaf(state.log, seq)
        text = getattr(open_leaf(leaf).body, "list", None) if leaf is not None else None
        if not isinstance(text, str):
            continue
        out.append({"number": n, "label": labels.get(n, f"#{n}"), "text": text,
                    "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(),
                    "registered_seq": o.deck_seqs.get(n), "seq": seq})
    return out
