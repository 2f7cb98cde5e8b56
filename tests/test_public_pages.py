"""Issue 18 (ADR 0023): the public pages' options and the posting gate, on the ledger side.

In-process tests use real SQLite ledgers and real signatures (``Ledger`` and the
``Tournament`` aggregate, as the CLI does); the format runs are ``tourney`` commands
(HotC, Bushiroad Swiss, Wheel of Time); the audit runs over real bundles
with forged but correctly chained and signed leaves.  A Hypothesis property compares the
incremental fold with the visibility rule as ADR 0023 words it, over random sequences of
pair / void / hold / post.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.verify import verify_bundle
from ledger.core.aggregate import Tournament
from ledger.core.draw import seed_from_material
from ledger.core.pages_state import note_paired, note_unpaired
from ledger.core.public_pages import (
    NameStyle,
    held_rounds,
    latest_held,
    pages_options,
    penalties_public,
    public_label,
    public_name,
    public_short_name,
    round_posted,
)
from ledger.core.rules import check
from ledger.core.state import Official, TournamentState, apply_event
from ledger.errors import RuleError
from ledger.formats.officiating.correction_commands import void_pairing
from ledger.formats.registry import make_format
from ledger.formats.wot.model import Revision
from ledger.formats.wot.sim import simulated_result
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.clock import FixedClock
from ledger.wire.events import Role, seal
from ledger.wire.pages import PairingsPosted, PublicPagesSet
from tests.conftest import HJ, JUDGE, SCOREKEEPER, public
from tests.helpers.cli_event import open_event
from tests.helpers.cli_runner import Cli, raw_bytes, snapshot
from tests.helpers.forgery import chained_next
from tests.helpers.wot_cli import _args as wot_args

LOG = "pp"
NAMES = ["Ann Marie Lee", "Bob", "Carl Dee", "Dana <b>Evans</b>", "Émile Zola",
         "محمد بن علي", "Fay (Gee)", "Hal Ivy", "Ina Jo", "Kai Lo", "Mo Nu", "Ole Pi"]


# -- an event in process: a real SQLite ledger, real signatures ---------------------------
class Event:
    def __init__(self, path: Path, fmt: str = "hotc-swiss-de", players: int = 12) -> None:
        self.loc = Location(str(path))
        self.rounds = 0
        with Ledger(self.loc, create=True, clock=FixedClock()) as led:
            led.create(LOG, lambda now: Tournament.create(
                log=LOG, name="Pages Open", fmt=make_format(fmt, None), signer=HJ, time=now))
            for s, role in ((JUDGE, Role.JUDGE), (SCOREKEEPER, Role.SCOREKEEPER)):
                led.write(LOG, lambda t, now, s=s, role=role: t.add_official(
                    public(s), role, s.name, HJ, now))
            for i in range(players):
                led.write(LOG, lambda t, now, i=i: t.register_player(
                    NAMES[i], SCOREKEEPER, now, nickname="Annie" if i == 0 else None))
            led.write(LOG, lambda t, now: t.close_registration(HJ, now))

    def write(self, fn: Callable[[Tournament, str], Any]) -> Any:
        with Ledger(self.loc, clock=FixedClock()) as led:
            return led.write(LOG, fn)

    def state(self) -> TournamentState:
        with Ledger(self.loc, readonly=True) as led:
            return led.load(LOG).state

    def pages(self, **kw: Any) -> None:
        self.write(lambda t, now: t.set_public_pages(HJ, now, **kw))

    def pair(self) -> None:
        self.rounds += 1
        n = self.rounds
        self.write(lambda t, now: t.pair_round(HJ, now, material=f"dice {n} 4 4 1",
                                               source="test dice"))

    def void(self) -> None:
        self.write(lambda t, now: void_pairing(t, HJ, now, reason="posted too early"))
        self.rounds -= 1

    def post(self, n: int, signer: Any = HJ) -> None:
        self.write(lambda t, now: t.post_pairings(n, signer, now))

    def refused(self, rule: str, fn: Callable[[Tournament, str], Any]) -> str:
        before = raw_bytes(Path(self.loc.text))
        with pytest.raises(RuleError) as err:
            self.write(fn)
        assert err.value.rule == rule, err.value.message
        assert raw_bytes(Path(self.loc.text)) == before
        return err.value.message


@pytest.fixture()
def ev(tmp_path: Path) -> Event:
    return Event(tmp_path / "p.db")


def test_defaults_when_never_set_change_nothing(ev: Event) -> None:
    ev.pair()
    s = ev.state()
    assert pages_options(s).json() == {"names": "full", "penalties": False,
                                       "hold_pairings": False, "language": "en",
                                       "time_zone": "UTC", "set_seq": None, "held": []}
    assert round_posted(s, 1) and held_rounds(s) == [] and latest_held(s) is None
    assert not penalties_public(s)
    assert public_label(s, 1) == '#1 Ann Marie Lee "Annie"' and public_label(s, 2) == "#2 Bob"
    assert public_name(s, 1) == 'Ann Marie Lee "Annie"' and public_name(s, 2) == "Bob"
    assert not round_posted(s, 2)           # not paired: nothing to show


def test_hold_pair_not_visible_post_visible(ev: Event) -> None:
    ev.pages(hold_pairings=True)
    ev.pair()
    s = ev.state()
    assert not round_posted(s, 1) and held_rounds(s) == [1] and latest_held(s) == 1
    ev.post(1)
    s = ev.state()
    assert round_posted(s, 1) and held_rounds(s) == [] and s.pages.posted == {1: s.size}
    msg = ev.refused("PAGES-4", lambda t, now: t.post_pairings(1, HJ, now))
    assert f"already posted at seq {s.size}" in msg


def test_void_and_repair_after_posting_is_held_again(ev: Event) -> None:
    ev.pages(hold_pairings=True)
    ev.pair()
    ev.post(1)
    ev.void()
    s = ev.state()
    assert not round_posted(s, 1) and held_rounds(s) == []
    ev.refused("PAGES-2", lambda t, now: t.post_pairings(1, HJ, now))   # voided: not paired
    ev.pair()                                    # the re-pair waits for posting again
    s = ev.state()
    assert held_rounds(s) == [1] and not round_posted(s, 1)
    ev.post(1)
    assert round_posted(ev.state(), 1)


def test_repair_with_hold_off_is_public_at_once(ev: Event) -> None:
    ev.pages(hold_pairings=True)
    ev.pair()
    ev.pages(hold_pairings=False)                # switching off posts nothing already held
    assert held_rounds(ev.state()) == [1]
    ev.void()
    ev.pair()
    s = ev.state()
    assert round_posted(s, 1) and held_rounds(s) == []


def test_hold_switched_on_after_pairing_leaves_the_round_visible(ev: Event) -> None:
    ev.pair()
    ev.pages(hold_pairings=True, names=NameStyle.INITIAL)
    s = ev.state()
    assert round_posted(s, 1) and held_rounds(s) == []
    msg = ev.refused("PAGES-3", lambda t, now: t.post_pairings(1, HJ, now))
    assert "round 1 is not held" in msg


def test_refusals_name_their_rule_and_write_nothing(ev: Event) -> None:
    ev.refused("PAGES-2", lambda t, now: t.post_pairings(1, HJ, now))
    ev.refused("PAGES-1", lambda t, now: t.set_public_pages(HJ, now))     # no change
    ev.refused("RULES-1.3", lambda t, now: t.set_public_pages(SCOREKEEPER, now,
                                                              penalties=True))
    ev.pages(hold_pairings=True)
    ev.pair()
    ev.refused("RULES-1.3", lambda t, now: t.post_pairings(1, JUDGE, now))
    ev.refused("RULES-1.3", lambda t, now: t.post_pairings(1, SCOREKEEPER, now))
    ev.refused("PAGES-2", lambda t, now: t.post_pairings(2, HJ, now))
    assert held_rounds(ev.state()) == [1]


def test_a_head_judge_official_sets_and_posts_an_organizer_only_sets(tmp_path: Path) -> None:
    ev = Event(tmp_path / "p.db")
    second = SCOREKEEPER.__class__.from_seed(bytes([9]) * 32, "Second HJ")
    ev.write(lambda t, now: t.add_official(public(second), Role.HEAD_JUDGE, "Second HJ",
                                           HJ, now))
    ev.write(lambda t, now: t.set_public_pages(second, now, hold_pairings=True))
    ev.pair()
    ev.post(1, signer=second)
    assert round_posted(ev.state(), 1)


# -- names ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("style", "want"), [
    (NameStyle.FULL, ['#1 Ann Marie Lee "Annie"', "#2 Bob", "#3 Carl Dee",
                      "#4 Dana <b>Evans</b>", "#5 Émile Zola", "#6 محمد بن علي",
                      "#7 Fay (Gee)", "#99"]),
    (NameStyle.INITIAL, ["#1 Ann L.", "#2 Bob", "#3 Carl D.", "#4 Dana b.",
                         "#5 Émile Z.", "#6 محمد ع.", "#7 Fay G.", "#99"]),
    (NameStyle.NUMBER, ["#1", "#2", "#3", "#4", "#5", "#6", "#7", "#99"]),
])
def test_name_styles(ev: Event, style: NameStyle, want: list[str]) -> None:
    if style is not NameStyle.FULL:
        ev.pages(names=style)
    s = ev.state()
    assert [public_label(s, n) for n in (1, 2, 3, 4, 5, 6, 7, 99)] == want
    # the name beside the number (what a label adds to "#n"; "" when it shows none)
    assert [f"#{n} {public_name(s, n)}".rstrip() for n in (1, 2, 3, 4, 5, 6, 7, 99)] == want
    short = [public_short_name(s, n) for n in (1, 2, 6)]
    assert short == {NameStyle.FULL: ["Ann Marie Lee", "Bob", "محمد بن علي"],
                     NameStyle.INITIAL: ["Ann L.", "Bob", "محمد ع."],
                     NameStyle.NUMBER: ["", "", ""]}[style]


def test_text_of_a_foreign_log_passes_through_unchanged() -> None:
    """A foreign log may hold what the command side refuses (a bidi override, markup, a
    very long name): the name functions return it as recorded; pages escape it."""
    from ledger.core.state import Player

    s = TournamentState()
    s.players[1] = Player(number=1, name="\u202eEvil <script>x</script> " + "W" * 300,
                          registered_seq=2)
    assert public_name(s, 1) == s.players[1].name
    assert public_label(s, 1) == "#1 " + s.players[1].name
    s.pages.names = NameStyle.INITIAL
    assert public_label(s, 1) == "#1 \u202eEvil W." and public_name(s, 1) == "\u202eEvil W."


def test_default_site_label_is_the_old_label_byte_for_byte(ev: Event) -> None:
    from projections.report import player_label
    from projections.site import _label

    s = ev.state()
    for n in s.players:
        assert _label(s, n) == f"#{n} {player_label(s, n)}"


def test_pages_options_survive_a_snapshot_round_trip(ev: Event) -> None:
    ev.pages(names=NameStyle.NUMBER, penalties=True, hold_pairings=True)
    ev.pair()
    s = ev.state()
    back = msgspec.msgpack.decode(msgspec.msgpack.encode(s), type=TournamentState)
    assert back.pages == s.pages and back.pages.names is NameStyle.NUMBER


# -- the fold against ADR 0023's wording, over random sequences -----------------------------
def _bare_state() -> TournamentState:
    s = TournamentState(log=LOG)
    s.officials[HJ.key_id] = Official(key_id=HJ.key_id, public_key=HJ.public_key_b64,
                                      name="HJ", roles=[Role.ORGANIZER, Role.HEAD_JUDGE],
                                      added_seq=1)
    s.size = 1
    return s


OPS = st.lists(st.one_of(st.tuples(st.just("hold"), st.booleans()),
                         st.tuples(st.sampled_from(["pair", "void", "post"]),
                                   st.integers(1, 3))), max_size=25)


@settings(max_examples=300, deadline=None)
@given(OPS)
def test_fold_matches_the_visibility_rule(ops: list[tuple[str, Any]]) -> None:
    state = _bare_state()
    history: list[tuple[int, str, Any]] = []      # (seq, op, arg) as recorded

    def hold_at(seq: int) -> bool:
        sets = [a for q, op, a in history if op == "hold" and q < seq]
        return bool(sets and sets[-1])

    def latest_pairing(n: int) -> int | None:
        """ADR 0023: the seq of round n's pairing in force (None: never, or voided)."""
        last = None
        for q, op, a in history:
            if a == n and op == "pair":
                last = q
            elif a == n and op == "void":
                last = None
        return last

    def visible(n: int) -> bool:
        p = latest_pairing(n)
        if p is None:
            return False
        return not hold_at(p) or any(op == "post" and a == n and q > p
                                     for q, op, a in history)

    for op, arg in ops:
        seq = state.size + 1
        if op == "hold":
            body: Any = PublicPagesSet(names=NameStyle.FULL, penalties=False,
                                       hold_pairings=arg)
        elif op == "post":
            body = PairingsPosted(round=arg)
        if op in ("hold", "post"):
            try:
                check(state, body, HJ.key_id)
            except RuleError as err:
                p = latest_pairing(arg) if op == "post" else None
                if op == "hold":
                    assert err.rule == "PAGES-1" and hold_at(seq) == arg
                elif p is None:
                    assert err.rule == "PAGES-2"
                else:
                    assert err.rule in ("PAGES-3", "PAGES-4") and visible(arg)
                continue
            if op == "post":
                assert latest_pairing(arg) is not None and not visible(arg)
            else:
                assert hold_at(seq) != arg
            apply_event(state, seal(log=LOG, seq=seq, prev=state.head, time=
                                    "2026-03-01T09:00:00.000000Z", body=body, signer=HJ))
        else:           # what the format's hook reports of a pairing event (paired_round)
            (note_paired(state.pages, arg, seq) if op == "pair"
             else note_unpaired(state.pages, arg))
            state.size = seq
        history.append((seq, op, arg))
        for n in (1, 2, 3):
            assert round_posted(state, n) == visible(n), (n, history)
        assert held_rounds(state) == [n for n in (1, 2, 3)
                                      if latest_pairing(n) is not None and not visible(n)]


# -- the audit replays the same rules --------------------------------------------------------
def _bundle(tmp: Path, rows: list[tuple[int, bytes]]) -> Path:
    d = tmp / f"bundle-{len(list(tmp.glob('bundle-*')))}"
    (d / "checkpoints").mkdir(parents=True)
    (d / "log.jsonl").write_bytes(b"".join(leaf + b"\n" for _v, leaf in rows))
    return d


def _codes(d: Path) -> set[tuple[str, int | None]]:
    return {(f.code, f.seq) for f in verify_bundle(d).findings}


def test_audit_flags_wrong_roles_and_posts_of_rounds_not_held(ev: Event,
                                                              tmp_path: Path) -> None:
    ev.pair()                                    # round 1: public since pairing
    ev.pages(hold_pairings=True, names=NameStyle.INITIAL)
    with Ledger(ev.loc, readonly=True) as led:
        rows = list(led.raw_leaves(LOG))
    clean = _codes(_bundle(tmp_path, rows))
    assert not {c for c, _ in clean} & {"role_not_permitted", "rule_violation"}, clean
    cases = [
        (PairingsPosted(round=1), JUDGE, "role_not_permitted"),
        (PublicPagesSet(names=NameStyle.NUMBER, penalties=True, hold_pairings=True),
         SCOREKEEPER, "role_not_permitted"),
        (PairingsPosted(round=1), HJ, "rule_violation"),       # not held (PAGES-3)
        (PairingsPosted(round=4), HJ, "rule_violation"),       # not paired (PAGES-2)
        (PublicPagesSet(names=NameStyle.INITIAL, penalties=False, hold_pairings=True),
         HJ, "rule_violation"),                                # nothing changes (PAGES-1)
        (PublicPagesSet(names=NameStyle.INITIAL, penalties=False, hold_pairings=True,
                        time_zone="../etc/passwd"),
         HJ, "rule_violation"),                                # not a zone name (PAGES-8)
    ]
    for body, signer, code in cases:
        forged = [*rows, chained_next(rows, body, signer, LOG,
                                      time="2026-03-01T09:00:30.000000Z")]
        found = _codes(_bundle(tmp_path, forged))
        assert (code, len(forged)) in found, (body, found)
    # a zone of the right form the tz database lacks is the software's, not the ledger's
    later = PublicPagesSet(names=NameStyle.INITIAL, penalties=False, hold_pairings=True,
                           time_zone="Mars/Olympus_Mons")
    found = _codes(_bundle(tmp_path, [*rows, chained_next(
        rows, later, HJ, LOG, time="2026-03-01T09:00:30.000000Z")]))
    assert not {c for c, _ in found} & {"role_not_permitted", "rule_violation"}, found


# -- every format, through the real CLI ------------------------------------------------------
def _refuse(cli: Cli, db: Path, *args: str, code: int) -> str:
    before = snapshot(db)
    run = cli(*args, code=code)
    assert raw_bytes(db) == before, f"tourney {' '.join(args)} wrote"
    return run.err.strip()


def _audit_clean(cli: Cli) -> None:
    doc = cli("audit", "verify", "--json").doc
    assert doc["ok"] is True, doc
    assert [f for f in doc["findings"] if f["severity"] != "info"] == [], doc


def test_hotc_cli_hold_post_void_names_and_refusals(tmp_path: Path) -> None:
    cli, log = open_event(tmp_path, "hotc-swiss-de", NAMES[:12])
    db = tmp_path / "t.db"
    hj, sk = ("--key", "hj.pem"), ("--key", "sk.pem")
    shown = cli("pages", "show", "--json").doc
    assert shown == {"tournament": log, "names": "full", "penalties": False,
                     "hold_pairings": False, "language": "en", "time_zone": "UTC",
                     "set_seq": None, "held": []}
    assert "nothing to set" in _refuse(cli, db, "pages", "set", *hj, code=2)
    assert "--names" in _refuse(cli, db, "pages", "set", "--names", "nick", *hj, code=2)
    assert "[RULES-1.3]" in _refuse(cli, db, "pages", "set", "--penalties", *sk, code=3)
    assert "[PAGES-2]" in _refuse(cli, db, "round", "post", "1", *hj, code=3)
    assert "[PAGES-3]" in _refuse(cli, db, "round", "post", *hj, code=3)   # none held
    out = cli("pages", "set", "--names", "initial", "--hold-pairings", *hj).out
    assert "names initial · penalties hidden · pairings held until posted" in out
    assert "[PAGES-1]" in _refuse(cli, db, "pages", "set", "--names", "initial", *hj, code=3)
    paired = cli("round", "pair", "--seed-material", "7 7 1 3", "--seed-source", "dice", *hj)
    assert "held: not on public pages until 'tourney round post 1'" in paired.out
    assert cli("round", "show", "--json").doc["round"] == 1
    assert "held: not on public pages until 'tourney round post 1'" in cli("round",
                                                                         "show").out
    info = cli("info", "--json").doc["public_pages"]
    assert info == {"names": "initial", "penalties": False, "hold_pairings": True,
                    "language": "en", "time_zone": "UTC", "set_seq": info["set_seq"],
                    "held": [1]}
    assert "held:         round 1 (not on public pages until 'tourney round post')" in \
        cli("info").out
    # a held round is not posted by publish --pairings-only (no key: anyone)
    assert "[PAGES-3]" in _refuse(cli, db, "publish", "site", "--pairings-only", code=3)
    assert "[RULES-1.3]" in _refuse(cli, db, "round", "post", *sk, code=3)
    out = cli("round", "post", *hj).out
    assert "round 1 pairings posted: public pages show them from now on; phones " \
        "following the event are nudged" in out
    assert "[PAGES-4]" in _refuse(cli, db, "round", "post", "1", *hj, code=3)
    cli("publish", "site", "--pairings-only")
    page = (tmp_path / "site" / "round-1.html").read_text()
    assert "#1 Ann L." in page and "Ann Marie" not in page and "Annie" not in page
    assert "#4 Dana b." in page and "Evans" not in page and "<b>" not in page
    staff = cli("round", "show").out                          # staff text: full names
    assert "Ann Marie Lee" in staff and "held" not in staff
    # void, re-pair: held again until posted
    cli("round", "void", "--reason", "drops not entered", *hj)
    assert cli("pages", "show", "--json").doc["held"] == []
    again = cli("round", "pair", "--seed-material", "9 1 4 4", "--seed-source", "dice",
                *hj, "--json").doc
    assert again["held"] is True and cli("pages", "show", "--json").doc["held"] == [1]
    posted = cli("round", "post", *hj, "--json").doc
    assert posted["kind"] == "pairings_posted" and posted["round"] == 1
    assert posted["event"]["event"]["body"] == {"round": 1} and posted["held"] == []
    _audit_clean(cli)


def test_hotc_site_names_and_held_rounds(tmp_path: Path) -> None:
    cli, log = open_event(tmp_path, "hotc-swiss-de",
                          [*NAMES, *(f"Quinn Extra{i}" for i in range(8))])
    hj = ("--key", "hj.pem")
    cli("round", "pair", "--seed-material", "7 7 1 3", "--seed-source", "dice", *hj)
    cli("pages", "set", "--names", "number", "--hold-pairings", *hj)
    for t in cli("round", "show", "--json").doc["tables"]:
        cli("result", "record", "--round", "1", "--table", str(t["table"]), "--winner",
            str(t["players"][0]), "--key", "sk.pem")
    paired = cli("round", "pair", "--seed-material", "3 1 4 1", "--seed-source", "dice",
                 *hj, "--json").doc
    assert paired["round"] == 2 and paired["held"] is True
    cli("publish", "site", *hj)
    site = tmp_path / "site"
    assert (site / "round-1.html").exists() and not (site / "round-2.html").exists()
    index = (site / "index.html").read_text()
    assert "20 players, 1 round played" in index and "2 rounds" not in index
    html = "".join(p.read_text() for p in site.glob("*.html"))
    assert all(n.split()[0] not in html for n in ("Carl Dee", "Hal Ivy", "Kai Lo"))
    standings = json.loads((site / "standings.json").read_text())
    assert {r["name"] for r in standings["players"]} == {""}
    report = json.loads((site / "report.json").read_text())
    assert "Carl" not in json.dumps(report)
    _audit_clean(cli)                   # the audit recomputes the report's figures


def test_bushiroad_cli_override_after_posting_is_held_again(tmp_path: Path) -> None:
    cli, log = open_event(tmp_path, "bushiroad-swiss", [f"Fighter {i:02d}" for i in
                                                        range(1, 9)])
    hj = ("--key", "hj.pem")
    cli("pages", "set", "--hold-pairings", "--penalties", *hj)
    doc = cli("round", "pair", "--seed-material", "11 42 7 19", "--seed-source", "dice",
              *hj, "--json").doc
    assert doc["held"] is True
    cli("round", "post", "1", *hj)
    assert cli("pages", "show", "--json").doc["held"] == []
    players = [p for t in doc["tables"] for p in t["players"]]
    pairs = ",".join(f"{players[i]}-{players[i + 2]}" for i in (0, 1, 4, 5))
    cli("round", "override", "--pairs", pairs, "--reason", "siblings", *hj)
    shown = cli("pages", "show", "--json").doc
    assert shown["held"] == [1] and shown["penalties"] is True
    cli("round", "post", *hj)
    assert cli("pages", "show", "--json").doc["held"] == []
    _audit_clean(cli)


def test_wot_cli_games_are_held_and_posted(tmp_path: Path) -> None:
    cli, log = open_event(tmp_path, "wot-classic", ["Rand", "Egwene", "Mat", "Perrin",
                                                    "Nynaeve", "Moiraine"])
    hj, sk = ("--key", "hj.pem"), ("--key", "sk.pem")
    db = tmp_path / "t.db"
    g1 = cli("round", "pair", "--seed-material", "tar valon G1", "--seed-source", "dice",
             *hj, "--json").doc
    assert g1["held"] is False
    cli("pages", "set", "--hold-pairings", "--names", "initial", *hj)
    assert "[PAGES-3]" in _refuse(cli, db, "round", "post", "1", *hj, code=3)
    seed = seed_from_material("pages")
    for t in g1["tables"]:
        kw = simulated_result(Revision.WOT_OLD, seed, f"G1/T{t['table']}", t["hero"],
                              t["villain"])
        cli("result", "record", "--round", "1", "--table", str(t["table"]), *wot_args(kw),
            *sk)
    g2 = cli("round", "pair", "--seed-material", "tar valon G2", "--seed-source", "dice",
             *hj)
    assert "held: not on public pages until 'tourney round post 2'" in g2.out
    assert cli("info", "--json").doc["public_pages"]["held"] == [2]
    assert "held: not on public pages until 'tourney round post 2'" in cli("round",
                                                                         "show").out
    assert "held" not in cli("round", "show", "1").out
    posted = cli("round", "post", *hj, "--json").doc
    assert posted["round"] == 2
    _audit_clean(cli)
