"""Command-side refusals (RULES.md §1.3, LEDGER-REG, LEDGER-RAND) write nothing."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from ledger.errors import RuleError
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.events import Role
from tests.conftest import HJ, JUDGE, SCOREKEEPER, STRANGER, build_small, public


def digest(loc: Location) -> str:
    h = hashlib.sha256()
    for suffix in ("", "-wal"):
        p = Path(loc.text + suffix)
        if p.exists():
            h.update(p.read_bytes())
    return h.hexdigest()


@pytest.mark.parametrize("case", [
    "judge_registers_player", "stranger_records_seed", "duplicate_number",
    "after_close", "scorekeeper_draws", "draw_unknown_seed", "revoke_organizer",
    "re_add_official", "judge_adds_official",
])
def test_refusal_names_rule_and_writes_nothing(tmp_path: Path, case: str) -> None:
    loc = build_small(tmp_path / "t.db")
    cmds = {
        "judge_registers_player": lambda t, now: t.register_player("X", JUDGE, now),
        "stranger_records_seed": lambda t, now: t.record_seed(
            material="m", source="s", reason="r", signer=STRANGER, time=now),
        "duplicate_number": lambda t, now: t.register_player("X", HJ, now, number=2),
        "after_close": lambda t, now: t.register_player("X", SCOREKEEPER, now),
        "scorekeeper_draws": lambda t, now: t.make_draw(ctx="c", items=[1, 2],
                                                        signer=SCOREKEEPER, time=now),
        "draw_unknown_seed": lambda t, now: t.make_draw(ctx="c", items=[1, 2], signer=HJ,
                                                        time=now, seed_seq=2),
        "revoke_organizer": lambda t, now: t.revoke_official(HJ.key_id, "", HJ, now),
        "re_add_official": lambda t, now: t.add_official(public(JUDGE), Role.JUDGE, "J",
                                                         HJ, now),
        "judge_adds_official": lambda t, now: t.add_official(public(STRANGER), Role.JUDGE,
                                                             "S", JUDGE, now),
    }
    with Ledger(loc) as led:
        before = (digest(loc), led.load("t1").version)
        with pytest.raises(RuleError) as err:
            led.write("t1", cmds[case])
        assert "[" in err.value.message  # names the rule
        assert (digest(loc), led.load("t1").version) == before


def test_revoked_key_is_refused_from_its_seq_on(tmp_path: Path) -> None:
    loc = build_small(tmp_path / "t.db")
    with Ledger(loc) as led:
        led.write("t1", lambda t, now: t.revoke_official(JUDGE.key_id, "left", HJ, now))
        with pytest.raises(RuleError) as err:
            led.write("t1", lambda t, now: t.record_seed(
                material="m", source="s", reason="r", signer=JUDGE, time=now))
        assert err.value.finding == "key_revoked"


def test_draw_records_pre_ordered_items_and_rerunnable_result(tmp_path: Path) -> None:
    from ledger.core.draw import draw_v1
    loc = build_small(tmp_path / "t.db")
    with Ledger(loc) as led:
        led.write("t1", lambda t, now: t.record_seed(material="fresh 77", source="dice",
                                                     reason="extra", signer=HJ, time=now))
        ev = led.write("t1", lambda t, now: t.make_draw(ctx="t1/extra", items=[3, 1, 2],
                                                        signer=HJ, time=now))
        body = ev.body
        assert body.items == [1, 2, 3]  # type: ignore[attr-defined]
        seed = led.load("t1").state.seeds[body.seed_seq].seed  # type: ignore[attr-defined]
        assert body.result == draw_v1(bytes.fromhex(seed), "t1/extra", [1, 2, 3])  # type: ignore[attr-defined]
