"""Issue 22 item 4: a command decides once, the audit still recomputes everything.

* ``round pair`` plans the Swiss round (``plan_swiss``) once on the command side; its
  check skips only the recomputation for that very body object (``ledger.core.decided``); the
  audit of the same ledger plans every round again.  A body that is not the command's own
  object — a copy, a forged one — is always planned again and refused when it differs.
* A draw made by ``Tournament.make_draw`` is drawn once; the audit draws it again.
* ``Tournament.record`` runs the text rule through the byte prefilter (``checked_text``):
  same bodies accepted, same refused, same NFC result as the exact walk.
* ``seal`` builds the leaf from the event's canonical bytes: byte-identical to encoding
  ``{"event": …, "sig": …}`` (wire bytes unchanged; the samples' byte tests too)."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.core import draw as draw_mod
from ledger.core.decided import decided_scope, is_decided
from ledger.errors import RuleError
from ledger.formats.match import plan as match_plan
from ledger.formats.match.events import RoundPaired
from ledger.wire.canonical import canonical
from ledger.wire.events import PlayerRegistered, seal
from ledger.wire.text import check_text, checked_text, normalize_body
from tests.helpers.hotc_event import HJ, HotcEvent


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, int]]:
    """Counts the calls of the pairing plan and of DRAW-v1, wherever they are imported."""
    calls = {"plan": 0, "draw": 0}
    plan, draw = match_plan.plan_swiss, draw_mod.draw_v1

    def plan_spy(*a: object, **k: object) -> RoundPaired:
        calls["plan"] += 1
        return plan(*a, **k)  # type: ignore[arg-type]

    def draw_spy(*a: object, **k: object) -> list[int]:
        calls["draw"] += 1
        return draw(*a, **k)  # type: ignore[arg-type]

    import ledger.core.aggregate
    import ledger.core.rules
    import ledger.formats.match.commands  # HotC's Swiss round, decided …
    import ledger.formats.match.swiss_round  # … and checked, on the shared path
    for mod in (ledger.formats.match.commands, ledger.formats.match.swiss_round):
        monkeypatch.setattr(mod, "plan_swiss", plan_spy)
    for mod in (ledger.core.aggregate, ledger.core.rules):   # type: ignore[assignment]
        monkeypatch.setattr(mod, "draw_v1", draw_spy)
    yield calls


def test_round_pair_plans_once_and_the_audit_plans_again(tmp_path: Path,
                                                         counted: dict[str, int]) -> None:
    ev = HotcEvent(tmp_path / "t.db", 21)        # odd: a bye draw and a pairing draw
    ev.pair()
    assert counted == {"plan": 1, "draw": 2}     # command side: once each
    ev.play()
    ev.pair()
    assert counted == {"plan": 2, "draw": 4}
    report = ev.audit()
    assert report.ok, report.findings
    assert counted["plan"] == 4 and counted["draw"] == 8   # the audit redoes every one
    ev.close()


def test_a_copy_of_the_planned_body_is_planned_again_and_a_forged_one_refused(
        tmp_path: Path, counted: dict[str, int]) -> None:
    ev = HotcEvent(tmp_path / "t.db", 8)
    ev.write(lambda t, now: t.record_seed(material="s", source="t", reason="r",
                                          signer=HJ, time=now))

    def pair_forged(t, now):  # type: ignore[no-untyped-def]
        from ledger.formats.match.plan import entrants, round_ctx
        items = [e.number for e in entrants(t.state)]
        d = t.make_draw(ctx=round_ctx(t.state, 1, "pairing"), items=items, signer=HJ,
                        time=now)
        body = match_plan.plan_swiss(t.state, 1, None, t.state.draw_results[d.seq], [d.seq])
        copy = msgspec.convert(msgspec.to_builtins(body), RoundPaired)
        with decided_scope(body):            # another object than the one decided
            assert is_decided(body) and not is_decided(copy)
        swapped = msgspec.structs.replace(body, tables=[
            msgspec.structs.replace(body.tables[0], players=body.tables[0].players[::-1]),
            *body.tables[1:]])
        with pytest.raises(RuleError, match="pairing"):
            t.record(swapped, HJ, now)       # not decided: planned again, refused
        before = counted["plan"]
        t.record(copy, HJ, now)              # equal, but planned again to know it
        assert counted["plan"] == before + 1
    ev.write(pair_forged)
    assert ev.audit().ok
    ev.close()


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=120), st.text(max_size=3))
def test_the_text_prefilter_decides_as_the_exact_rule(name: str, deck: str) -> None:
    body = PlayerRegistered(number=1, name=name, deck=deck or None)
    try:
        exact = normalize_body(body)
        check_text(msgspec.to_builtins(exact))
    except RuleError as e:
        with pytest.raises(RuleError) as got:
            checked_text(body)
        assert got.value.rule == e.rule
        return
    assert checked_text(body) == exact


def test_seal_builds_the_same_leaf_as_encoding_it_whole() -> None:
    body = PlayerRegistered(number=7, name="Zoë \"Z\" / + =", deck="déck")
    for seq in range(1, 40):
        ev = seal(log="t", seq=seq, prev="0" * 64, time="2026-01-01T09:00:00.000000Z",
                  body=body, signer=HJ)
        whole = canonical({"event": msgspec.json.decode(ev.leaf)["event"],
                           "sig": base64.b64encode(ev.sig).decode()})
        assert ev.leaf == whole


def test_bushiroad_swiss_checks_plan_only_in_the_audit(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The Bushiroad Swiss pairing (same pattern): its check never re-plans a round the
    command side just planned; the audit of the event re-plans every Swiss round."""
    import ledger.formats.match.swiss_round as br_checks  # the check side of its round
    from audit.verify import verify_ledger
    from ledger.formats.simulation import simulate
    from ledger.storage.location import Location
    from ledger.storage.store import Ledger

    calls = [0]
    plan = br_checks.plan_swiss

    def spy(*a: object, **k: object) -> RoundPaired:
        calls[0] += 1
        return plan(*a, **k)  # type: ignore[arg-type]

    monkeypatch.setattr(br_checks, "plan_swiss", spy)
    loc = Location(str(tmp_path / "b.db"))
    with Ledger(loc, create=True) as led:
        simulate(led, log="b", players=12, seed_text="decide once", checkpoints=None,
                 format_id="bushiroad-swiss", cut=None)
        swiss = sum(1 for _v, leaf in led.raw_leaves("b") if b'"kind":"round_paired"' in leaf
                    and b'"phase":"swiss"' in leaf)
    assert swiss >= 3 and calls[0] == 0
    assert verify_ledger(loc, "b", None).ok
    assert calls[0] == swiss
