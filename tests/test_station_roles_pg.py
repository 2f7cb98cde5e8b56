"""Issue 27, item 2, against the real PostgreSQL server (skipped with the reason when none
answers): a stolen key inserts a correctly signed event its role may not sign.

The database (``docs/operations/station-role.sql``, run as documented in
docs/OPERATIONS.md with a low-privilege station role) admits only what the log's roles
table allows — the table of ``ledger.core.signing``, generated into the script
(``python -m cli.station_sql``) — and every command refuses to sign on top of a leaf
the audit flags for its signer's role, naming the recovery (``tourney_withdraw``).
Every step is a real ``tourney`` process, ``psql`` or a connection as the station role.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from ledger.wire.events import Body, PlayerRegistered, RegistrationClosed, seal
from ledger.wire.keys import load_signer
from tests.helpers.pg_ops import HOST, SQL, _psql, _rows, _tourney
from tests.helpers.pg_ops import scratch as scratch  # noqa: F401 - the fixture
from tests.helpers.station_pg import _head, _insert, _log_id

Cup = tuple[str, str, str, str, str]


@pytest.fixture()
def cup(scratch: tuple[str, str, str], tmp_path: Path) -> Iterator[Cup]:  # noqa: F811
    """station-role.sql run right after 'tourney init' (so every later official goes
    through the admission function); a scorekeeper and the live server's station key
    added; the scorekeeper registered three players from a station."""
    db, owner, station = scratch
    hj_url = f"postgresql://{owner}@{HOST}:5432/{db}"
    st_url = f"postgresql://{station}@{HOST}:5432/{db}"
    for name, out in (("HJ", "hj.pem"), ("Sam", "sk.pem"), ("Live", "st.pem")):
        _tourney(tmp_path, hj_url, "keys", "new", "--name", name, "--out", out)
    _tourney(tmp_path, hj_url, "init", "--name", "Roles Cup", "--format", "hotc-swiss-de",
             "--cut", "4", "--key", "hj.pem")
    _psql(db, owner, "-v", f"station={station}", "-f", str(SQL))
    _tourney(tmp_path, hj_url, "official", "add", "--role", "scorekeeper", "--name", "Sam",
             "--public-key", "sk.pem.pub", "--key", "hj.pem")
    _tourney(tmp_path, hj_url, "official", "add", "--role", "station", "--name", "Live",
             "--public-key", "st.pem.pub", "--key", "hj.pem")
    for name in ("Ada", "Bea", "Cy"):
        _tourney(tmp_path, st_url, "player", "add", name, "--key", "sk.pem")
    yield db, owner, hj_url, st_url, _log_id(hj_url)


def _signed(tmp_path: Path, log: str, seq: int, prev: bytes, key: str, body: Body) -> bytes:
    return seal(log=log, seq=seq, prev=hashlib.sha256(prev).hexdigest(),
                time="2026-03-01T10:00:00.000000Z", body=body,
                signer=load_signer(tmp_path / key)).leaf


def _audit_codes(tmp_path: Path, url: str, code: int) -> set[str]:
    doc = json.loads(_tourney(tmp_path, url, "audit", "verify", "--json", code=code).stdout)
    return {f["code"] for f in doc["findings"] if f.get("severity") != "info"}


def test_database_refuses_a_stolen_station_keys_player_registered(
        cup: Cup, tmp_path: Path) -> None:
    """The defect: tourney_admit_event checked the key was declared, not that its role may
    sign the kind; a station's correctly signed player_registered went in."""
    db, owner, hj_url, st_url, log = cup
    seq, head = _head(hj_url, log)
    before = _rows(db)
    ghost = PlayerRegistered(number=90, name="Ghost")
    cases = {
        "station signs a registration": ("player_registered", "st.pem", ghost,
                                         "may not sign player_registered"),
        "station closes registration": ("registration_closed", "st.pem",
                                        RegistrationClosed(players=3),
                                        "may not sign registration_closed"),
        "scorekeeper closes registration": ("registration_closed", "sk.pem",
                                            RegistrationClosed(players=3),
                                            "may not sign registration_closed"),
    }
    for what, (kind, key, body, why) in cases.items():
        refusal = _insert(st_url, log, seq + 1, kind, _signed(tmp_path, log, seq + 1, head,
                                                              key, body))
        assert refusal is not None and "tourney: refused row" in refusal and why in refusal, \
            (what, refusal)
    assert _rows(db) == before
    # the scorekeeper's own registration goes in through the same function
    _tourney(tmp_path, st_url, "player", "add", "Dee", "--key", "sk.pem")
    # a revoked key signs nothing, though its role could
    sam = load_signer(tmp_path / "sk.pem").key_id
    _tourney(tmp_path, hj_url, "official", "revoke", sam, "--reason", "stolen", "--key",
             "hj.pem")
    seq, head = _head(hj_url, log)
    refusal = _insert(st_url, log, seq + 1, "player_registered",
                      _signed(tmp_path, log, seq + 1, head, "sk.pem", ghost))
    assert refusal is not None and f"its signer {sam} was revoked at seq {seq}" in refusal, \
        refusal
    _tourney(tmp_path, hj_url, "registration", "close", "--key", "hj.pem")
    assert _audit_codes(tmp_path, hj_url, 0) == set()


def test_commands_refuse_to_sign_on_top_of_an_out_of_role_leaf_naming_the_recovery(
        cup: Cup, tmp_path: Path) -> None:
    """A row from before the upgrade (the admission trigger was not there): every command
    — a registration, closing registration, the head judge's checkpoint — refused to sign
    on top of it only when its signature failed; now they refuse an out-of-role signer
    too and name tourney_withdraw, which still works because no checkpoint covers it."""
    db, owner, hj_url, st_url, log = cup
    seq, head = _head(hj_url, log)
    planted = _signed(tmp_path, log, seq + 1, head, "st.pem",
                      PlayerRegistered(number=90, name="Ghost"))
    _psql(db, owner, "-c", "ALTER TABLE tourney_events DISABLE TRIGGER tourney_events_admit")
    assert _insert(st_url, log, seq + 1, "player_registered", planted) is None
    _psql(db, owner, "-c", "ALTER TABLE tourney_events ENABLE TRIGGER tourney_events_admit")
    withdraw = f"tourney_withdraw('{log}', {seq + 1}"
    for url, args in ((st_url, ("player", "add", "Dee", "--key", "sk.pem")),
                      (hj_url, ("registration", "close", "--key", "hj.pem")),
                      (hj_url, ("checkpoint", "--key", "hj.pem"))):
        before = _rows(db)
        run = _tourney(tmp_path, url, *args, code=4)
        line = run.stderr.strip()
        assert "refusing to sign on top" in line and "may not sign it" in line, line
        assert withdraw in line and _rows(db) == before, line
    assert "role_not_permitted" in _audit_codes(tmp_path, hj_url, 4)
    out = _psql(db, owner, "-Atc", f"SELECT tourney_withdraw('{log}', {seq + 1}, "
                "'role_not_permitted: station key Live signed player_registered')")
    assert out.stdout.strip() == "1"
    _tourney(tmp_path, st_url, "player", "add", "Dee", "--key", "sk.pem")
    close = _tourney(tmp_path, hj_url, "registration", "close", "--key", "hj.pem", "--json")
    assert json.loads(close.stdout)["players"] == 4, close.stdout
    assert _audit_codes(tmp_path, hj_url, 0) == set()


def test_the_databases_roles_table_is_the_one_the_audit_judges_with(cup: Cup) -> None:
    import psycopg

    from cli.station_sql import rows
    db, owner, hj_url, st_url, log = cup
    with psycopg.connect(st_url) as con:  # the station may read it, as everyone may
        got = {tuple(r) for r in con.execute(
            "SELECT format, kind, role, needs FROM tourney_signing_roles").fetchall()}
    assert got == set(rows())
    assert ("*", "player_registered", "station", "always") not in got
    assert ("hotc-swiss-de", "result_recorded", "station", "reports") in got


def test_station_role_sql_roles_table_is_generated_from_the_python_table() -> None:
    """No database needed: the script's block is what ``python -m cli.station_sql``
    writes from ``ledger.core.signing`` (run it after changing a role)."""
    from cli.station_sql import SCRIPT, with_block
    text = SCRIPT.read_text()
    assert with_block(text) == text, "run: python -m cli.station_sql"
