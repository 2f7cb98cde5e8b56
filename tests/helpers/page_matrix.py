"""The events of the page matrix (issue 32 item 6): every format of ``tourney init
--format`` plus Bushiroad tag and trio, each played once in-process and copied at each
moment a player's phone must survive.

Owns: ``FORMATS`` (matrix name -> the format, its cut, its parameters and its field),
``MOMENTS`` (before round 1, mid-round, a held round, the top cut, after a DQ, the event
over), ``Moment`` (one moment's ledger file and what a player must see in it: the subject
player, their table, opponent, result, the receipt of their report, the cards' tokens) and
``build`` (one event of one format through the aggregate's own commands, as ``tourney
simulate`` plays it — same outcomes, same pairing calls — with a station and cards, a
player's report, a held round, a disqualification, each moment a SQLite backup of the
file).  One event per format per test session (a few hundred signed events: well under a
second), instead of one ``tourney`` process per command.

May import: ``ledger.*`` (the simulator's outcome helpers too), the standard library.
"""

from __future__ import annotations

import hashlib
import sqlite3
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import ledger.formats.registry  # noqa: F401  (plugs the formats into the core)
from ledger.core.aggregate import Tournament
from ledger.core.credentials import token_sha256
from ledger.formats.bushiroad import team_sim
from ledger.formats.match.plan import open_round
from ledger.formats.registry import make_format, parse_params
from ledger.formats.simulation import demo_key
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.events import Role
from ledger.wire.keys import PublicKey, write_key
from tests.helpers.event_play import Play


@dataclass(frozen=True)
class Fmt:
    name: str                   # the matrix's name (tag and trio are Bushiroad parameters)
    format_id: str
    cut: int | None
    params: tuple[str, ...]
    players: int


FORMATS: dict[str, Fmt] = {f.name: f for f in (
    Fmt("hotc-swiss-de", "hotc-swiss-de", 4, (), 8),
    Fmt("bushiroad-swiss", "bushiroad-swiss", 4, ("swiss_rounds=3",), 8),
    Fmt("bushiroad-de", "bushiroad-de", None, (), 8),
    Fmt("single-elim", "single-elim", None, (), 8),
    Fmt("round-robin", "round-robin", None, (), 6),
    Fmt("wot-classic", "wot-classic", None, (), 8),
    Fmt("wot-2001", "wot-2001", None, (), 8),
    Fmt("tag", "bushiroad-swiss", None, ("swiss_rounds=3", "team_mode=tag"), 16),
    Fmt("trio", "bushiroad-swiss", 4, ("swiss_rounds=3", "team_mode=trio",
                                       "team_result_rule=more_wins_then_last_seat"), 18),
)}

#: the moments, in the order an event reaches them
MOMENTS = ("before-r1", "mid-round", "held-round", "after-dq", "top-cut", "over")

#: the players' names: realistic, one long double-barrelled name and one right-to-left
FIRST = ["Ana Alves", "Bo Brandt", "Maximiliana Featherstonehaugh-Cholmondeley",
         "Dee Alder", "Eve \u05e2\u05d3\u05df Eggers", "Fay Foster", "Gus Grant", "Hal Hart",
         "Ivy Ito", "Jon Jansen", "Kim Kowalski", "Lou Laine", "Max Moreau", "Nia Novak",
         "Oli Okafor", "Pia Park", "Quinn Quist", "Rae Rossi"]


@dataclass
class Moment:
    """One moment of one format's event, as a ledger file of its own."""

    fmt: str
    moment: str
    db: Path
    log: str
    noun: str                          # "Round" or "Game"
    round: int | None                  # the round a player is playing (None: none open)
    subject: int                       # the player whose pages are checked
    subject_name: str
    table: int | None                  # their table this round (None: bye or no round)
    opponent: str | None               # their opponent's name (or team's name)
    result_in: bool                    # their table has its result
    held: bool                         # the newest round is paired but held
    has_bracket: bool
    over: bool
    dq: int | None                     # the disqualified (or forfeited) player, if any
    dq_name: str | None
    receipt: int | None                # seq of the subject's report (a receipt page)
    clock: bool                        # the open round's clock was started
    tokens: dict[int, str] = field(default_factory=dict)   # player -> card token
    staff_token: str = ""
    station_key: Path = Path()
    players: int = 0
    teams: bool = False                # a team event: seats are reported at the desk


class _Event(Play):
    """One event played step by step through one write session, and its moments."""

    def __init__(self, d: Path, f: Fmt) -> None:
        self.d, self.f = d, f
        hj = demo_key(f"matrix {f.name}", "head-judge")
        sk = demo_key(f"matrix {f.name}", "scorekeeper")
        self.station = demo_key(f"matrix {f.name}", "station")
        self.station_key = d / "station.pem"
        write_key(self.station_key, self.station, None)
        write_key(d / "hj.pem", hj, None)     # the staff page's decisions (read here)
        self.db = d / "event.db"
        self.led = Ledger(Location(str(self.db)), create=True)
        self.log = f.name
        params = parse_params(f.format_id, list(f.params))
        fmt = make_format(f.format_id, f.cut, params)
        self.led.create(self.log, lambda now: Tournament.create(
            log=self.log, name=f"Matrix {f.name}", fmt=fmt, signer=hj, time=now))
        super().__init__(f.format_id, f.name, f.cut, hj, sk, self.led.session(self.log),
                         hashlib.sha256(f"matrix outcomes {f.name}".encode()).digest())
        self.params = params
        self.tokens: dict[int, str] = {}
        self.staff_token = ""
        self.receipt: int | None = None
        self.subject = 1

    # -- opening ------------------------------------------------------------------------
    def open(self) -> None:
        hj, sk = self.hj, self.sk
        self.write(lambda t, now: t.add_official(
            PublicKey(sk.public_key_raw, sk.name), Role.SCOREKEEPER, sk.name, hj, now))
        st = self.station
        self.write(lambda t, now: t.add_official(
            PublicKey(st.public_key_raw, "Live server"), Role.STATION, "Live server", hj, now))
        names = FIRST[:self.f.players]

        def register(t: Tournament, now: str) -> None:
            for i, n in enumerate(names, start=1):
                t.register_player(n, sk, now, number=i)
        self.write(register)
        for step in team_sim.team_steps(self.params, self.f.players, sk):
            self.write(step)
        self.tokens = {n: hashlib.sha256(f"matrix card {self.f.name} {n}".encode())
                       .hexdigest()[:32] for n in range(1, self.f.players + 1)}
        self.staff_token = hashlib.sha256(f"matrix staff {self.f.name}".encode()).hexdigest()[:32]

        def cards(t: Tournament, now: str) -> None:
            for n, tok in self.tokens.items():
                t.issue_credential(token_sha256(tok), hj, now, number=n)
            t.issue_credential(token_sha256(self.staff_token), hj, now, official=hj.key_id)
        self.write(cards)
        self.write(lambda t, now: t.close_registration(hj, now))

    # -- the moments ----------------------------------------------------------------------
    def report(self, tab: Any) -> None:
        """The first player at ``tab`` reports it from their phone (a station-signed
        ``result_reported``): the receipt page has something to show."""
        from ledger.core.credentials import live_credential

        n, _open = self.open_tables() or (0, [])
        me = self.sides(tab)[0]
        cred = live_credential(self.state, me)
        given = self._given(n, tab)
        if cred is None or given is None:
            return
        st = self.station
        ev = self.write(lambda t, now: t.report_result(n, tab.table, me, cred.credential,
                                                       given, st, now))
        self.receipt = ev.seq

    def _given(self, n: int, tab: Any) -> dict[str, str] | None:
        me = str(self.sides(tab)[0])
        if self.f.format_id == "wot-classic":
            return {"outcome": "O4", "winner": me}
        if self.f.format_id == "wot-2001":
            return {"outcome": "Q1", "winner": me}
        if team_sim.seat_count(self.state):
            from ledger.core.seat_reports import member_seat  # REPORT-21: their own seat
            seat = member_seat(self.state, n, tab.table, int(me))
            return {"winner": me, "seat": str(seat or 1)}
        return {"winner": me}

    def snapshot(self, moment: str) -> Moment:
        out = self.d / f"{moment}.db"
        with closing(sqlite3.connect(self.db)) as src, closing(sqlite3.connect(out)) as dst:
            src.backup(dst)
        st = self.state
        found = self.open_tables()
        from ledger.core.public_pages import held_rounds
        held = bool(held_rounds(st))
        rnd, table, opponent, result_in = None, None, None, False
        subject = self.subject
        if found is not None and not held:
            rnd, open_ = found
            every = self._all_tables(rnd)
            mine = next((t for t in every if self.subject in self.sides(t)
                         and self.dq not in self.sides(t)), None)
            if mine is None:
                mine = next(t for t in every if self.dq not in self.sides(t))
                subject = self.sides(mine)[0]
            table = mine.table
            opponent = self._opponent(mine, subject)
            result_in = mine not in open_
        noun = "Game" if self.wot else "Round"
        return Moment(
            fmt=self.f.name, moment=moment, db=out, log=self.log, noun=noun, round=rnd,
            subject=subject, subject_name=self._name(subject), table=table,
            opponent=opponent, result_in=result_in, held=held,
            has_bracket=not self.wot and st.fmt.slots is not None,
            over=self.finished(), dq=self.dq,
            dq_name=None if self.dq is None else self._label(self.dq),
            receipt=self.receipt, clock=self._clock_running(), tokens=dict(self.tokens),
            staff_token=self.staff_token,
            station_key=self.station_key, players=self.f.players,
            teams=bool(not self.wot and team_sim.seat_count(st)))

    def _clock_running(self) -> bool:
        clocks = getattr(getattr(self.state.fmt, "officiating", None), "clock", None)
        rnd = None if self.wot else open_round(self.state)
        return bool(rnd is not None and isinstance(clocks, dict) and rnd.number in clocks)

    def _all_tables(self, n: int) -> list[Any]:
        if self.wot:
            return list(self.rounds()[-1].tables)
        return list(self.state.fmt.rounds[-1].tables)

    def _opponent(self, tab: Any, me: int) -> str:
        """The name a player sees as their opponent: the other side, or in a team match
        the fighter in the same seat of the other team (BR-TEAM-2)."""
        seats = 0 if self.wot else team_sim.seat_count(self.state)
        for k in range(1, seats + 1):
            pair = team_sim.seat_players(self.state, list(tab.players), k)
            if me in pair:
                return self._name([p for p in pair if p != me][0])
        return self._label([p for p in self.sides(tab) if p != me][0])

    def _name(self, n: int) -> str:
        p = self.state.players.get(n)
        return p.name if p is not None else f"#{n}"

    def _label(self, n: int) -> str:
        teams = getattr(self.state.fmt, "teams", None)
        if teams is not None and n in teams.teams:
            team = teams.teams[n]
            name = getattr(team, "name", None)
            if name:
                return str(name)
        p = self.state.players.get(n)
        return p.name if p is not None else f"#{n}"

    def close(self) -> None:
        self.led.close()


def build(d: Path, name: str) -> dict[str, Moment]:
    """Play format ``name``'s event in ``d``; its moments (those the format has)."""
    f = FORMATS[name]
    ev = _Event(d, f)
    out: dict[str, Moment] = {}
    try:
        ev.open()
        out["before-r1"] = ev.snapshot("before-r1")
        # round 1: half the tables have their result, the subject reported theirs
        ev.pair_next()
        ev.start_clock()
        n, tables = ev.open_tables() or (0, [])
        subject_table = next(t for t in tables if 1 in ev.sides(t)) if any(
            1 in ev.sides(t) for t in tables) else tables[-1]
        ev.subject = ev.sides(subject_table)[0]
        others = [t for t in tables if t is not subject_table]
        ev.play(others[: (len(tables) + 1) // 2])
        ev.report(subject_table)
        out["mid-round"] = ev.snapshot("mid-round")
        ev.play()
        # the next round paired while the head judge holds pairings, then posted
        hj = ev.hj
        ev.write(lambda t, now: t.set_public_pages(hj, now, hold_pairings=True))
        ev.pair_next()
        out["held-round"] = ev.snapshot("held-round")
        r = len(ev.rounds())
        ev.write(lambda t, now: t.post_pairings(r, hj, now))
        ev.write(lambda t, now: t.set_public_pages(hj, now, hold_pairings=False))
        ev.start_clock()
        # a disqualification mid-round (Wheel of Time: the Judge's Declaration of Forfeiture)
        found = ev.open_tables()
        if found is not None and found[1]:
            n, tables = found
            victim_table = next((t for t in tables if ev.subject not in ev.sides(t)),
                                tables[-1])
            victim = ev.sides(victim_table)[-1]
            if victim == ev.subject:
                victim = ev.sides(victim_table)[0]
            keep = [t for t in tables if t is not victim_table]
            ev.play(keep[: len(keep) // 2])
            _disqualify(ev, victim)
            ev.dq = victim
            out["after-dq"] = ev.snapshot("after-dq")
        # on to the end; the first top-cut round, half played, is a moment of its own
        for _ in range(40):
            if ev.open_tables() is None:
                if ev.finished():
                    break
                ev.pair_next()
                ev.start_clock()
                if ev.open_tables() is None and ev.finished():
                    break
            if ev.in_top_cut() and "top-cut" not in out:
                n, tables = ev.open_tables() or (0, [])
                ev.play(tables[: len(tables) // 2])
                out["top-cut"] = ev.snapshot("top-cut")
            ev.play()
        out["over"] = ev.snapshot("over")
    finally:
        ev.close()
    return out


def _disqualify(ev: _Event, number: int) -> None:
    hj = ev.hj
    if ev.wot:
        from ledger.formats.wot.commands import declare_forfeit
        ev.write(lambda t, now: declare_forfeit(t, hj, now, number=number,
                                                reason="left without notice"))
        return
    from ledger.formats.officiating.commands import disqualify
    ev.write(lambda t, now: disqualify(t, hj, now, number=number, section="4.1",
                                       reason="marked cards"))
