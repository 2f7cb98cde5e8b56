"""Issue 28 item 2: the desk (``tourney result record``) and the station (the live server's
writer) take the same path for the same input — the result entered through
``usecases.results``, then ``usecases.rounds.after_round_closed`` (verdict, checkpoint).

One real event (HotC, four players, round 1 paired, table 1 decided at the desk, both
players of the last table reported alike through the station) is copied twice; the head
judge then decides the last table with the same result citing the same reports: once at
the desk, once on the staff page's path through the server's writer.  Both ledgers end
byte for byte alike — the result, the round's close and the checkpoint — and what the
desk prints of the round is what the station keeps of it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ledger.core.credentials import credential_id
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.keys import load_signer
from server.station import Station
from tests.helpers.cli_runner import CLOCK, Cli
from tests.helpers.reporting_phones import reporting_event
from usecases.reports import record_report
from usecases.rounds import Closing


@pytest.fixture(autouse=True)
def _same_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOURNEY_FIXED_CLOCK", CLOCK)


def _copy(db: Path, to: Path) -> Path:
    for suffix in ("", "-wal"):
        src = db.with_name(db.name + suffix)
        if src.exists():
            shutil.copyfile(src, to.with_name(to.name + suffix))
    return to


def _stored(db: Path, log: str) -> tuple[list[tuple[int, bytes]], list[tuple[int, bytes]]]:
    with Ledger(Location(str(db)), readonly=True) as led:
        return list(led.raw_leaves(log)), led.checkpoints.notes(log)


def test_the_desk_and_the_station_close_a_round_alike(tmp_path: Path) -> None:
    cli, doc, tokens = reporting_event(tmp_path)
    t1, t2 = doc["tables"][:2]  # type: ignore[index]
    a, _b = t1["players"]
    c, d = t2["players"]
    cli("result", "record", "--round", "1", "--table", str(t1["table"]), "--winner", str(a),
        "--key", "hj.pem")
    log = cli("log", "--json").doc[0]["event"]["log"]
    station = Station(Location(str(cli.ledger)), tmp_path / "station.pem", log)
    try:
        seqs = [station.report(1, t2["table"], n, credential_id(tokens[n]),
                               {"winner": str(c)}).seq for n in (c, d)]
    finally:
        station.close()
    desk_db = _copy(cli.ledger, tmp_path / "desk.db")
    station_db = _copy(cli.ledger, tmp_path / "station.db")

    # the desk: the head judge enters the slip, citing both reports
    out = Cli(tmp_path, desk_db)(
        "result", "record", "--round", "1", "--table", str(t2["table"]), "--winner", str(c),
        "--settles", ",".join(map(str, seqs)), "--key", "hj.pem", "--json").doc
    # the station: the head judge's staff decision (POST /staff/record) on the server
    hj = load_signer(tmp_path / "hj.pem")
    live = Station(Location(str(station_db)), tmp_path / "station.pem", log,
                   staff_keys=(tmp_path / "hj.pem",))
    try:
        events = live.run(lambda t, now: record_report(t, hj, now, 1, t2["table"], seqs[1]))
    finally:
        live.close()

    assert [e.kind for e in events] == ["result_recorded", "round_closed"]
    assert out["seq"] == events[0].seq and out["leaf_hash"] == events[0].leaf_hash_hex
    desk_rows, desk_notes = _stored(desk_db, log)
    station_rows, station_notes = _stored(station_db, log)
    assert desk_rows == station_rows                 # the same signed events, byte for byte
    assert desk_notes == station_notes               # and the same checkpoint after them
    assert desk_notes[-1][0] == len(desk_rows)       # taken when the round closed

    closed = live.closed                             # what the station keeps of the round
    assert closed is not None and closed.closing is Closing.SWISS
    assert closed.checkpoint is not None and closed.checkpoint.path is None
    assert out["verdict"] == closed.verdict and out["champion"] == closed.champion
    assert out["round_closed"]["round"] == closed.round == 1
    assert out["checkpoint"]["size"] == closed.checkpoint.size == len(desk_rows)
    assert out["checkpoint"]["root"] == closed.checkpoint.root.hex()
    assert (tmp_path / "desk.db.checkpoints").is_dir()   # the desk also mirrors the note


def test_a_failed_checkpoint_after_the_round_keeps_the_result_and_says_so(
        tmp_path: Path) -> None:
    """``after_round_closed``'s ``failed`` hook: the desk says what was written before the
    checkpoint's own error (one line each on stderr), and the result stays written."""
    cli, doc, _tokens = reporting_event(tmp_path)
    (t1, t2) = doc["tables"][:2]  # type: ignore[index]
    cli("result", "record", "--round", "1", "--table", str(t1["table"]), "--winner",
        str(t1["players"][0]), "--key", "hj.pem")
    (tmp_path / "not-a-dir").write_text("a file where the notes would go\n")
    run = cli.plain("--checkpoints", "not-a-dir", "result", "record", "--round", "1",
                    "--table", str(t2["table"]), "--winner", str(t2["players"][0]),
                    "--key", "hj.pem")
    assert run.code != 0
    said = run.err.strip().splitlines()
    assert len(said) == 2 and said[0].endswith("written, but the checkpoint failed"), run.err
    assert said[0].startswith("seqs ") and said[1].startswith("error: ")
    kinds = [e["event"]["kind"] for e in cli("log", "--json").doc]
    assert kinds[-2:] == ["result_recorded", "round_closed"]
