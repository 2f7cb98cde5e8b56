"""The staff console's round at a glance at 4,096 players (issue 29): goal < 300 ms.

A 4,096-player HotC event, round 1 paired (2,048 tables), its clock started, a few
tables extended; the head judge holds a staff card.  Measured, each ``--repeat`` times:

* ``glance``: ``server.desk_glance.glance`` (the waiting tables from the staff queue,
  their reports, the time left at each);
* ``render``: the glance and ``desk.html`` rendered with every command's link (what the
  endpoint does, without HTTP);
* ``http``: ``GET /desk`` through the real application with the server's own command
  runner (Starlette's test client: card cookie, the official's roles, the page with every
  one of the 2,048 tables and every command's link).

    python -m bench.desk_glance [--players 4096] [--repeat 15]

Prints machine-readable lines ``BENCH desk-<name> p50_ms=… max_ms=…``, and ``BENCH
desk-http-lang lang=… p50_ms=… ratio_to_en=…``: ``GET /desk`` in English, Japanese and
Arabic interleaved (issue 31: no slower than English by more than 10%).
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

LOG = "bench"


def make_event(d: Path, players: int) -> tuple[Path, str]:
    """The event; returns (ledger, the head judge's staff card token)."""
    from ledger.core.aggregate import Tournament
    from ledger.core.credentials import token_sha256
    from ledger.formats.officiating.floor_commands import extend, start_round
    from ledger.formats.registry import make_format
    from ledger.storage.location import Location
    from ledger.storage.store import Ledger
    from ledger.wire.events import Role
    from ledger.wire.keys import PublicKey, write_new_key

    hj = write_new_key(d / "hj.pem", "bench head judge", None)
    station = write_new_key(d / "station.pem", "Live server", None)
    db = d / "tournament.db"
    token = secrets.token_hex(16)
    with Ledger(Location(str(db)), create=True) as led:
        led.create(LOG, lambda now: Tournament.create(
            log=LOG, name="Desk bench", fmt=make_format("hotc-swiss-de", 8), signer=hj,
            time=now))

        def setup(t: Tournament, now: str) -> None:
            t.add_official(PublicKey(station.public_key_raw, "Live server"), Role.STATION,
                           "Live server", hj, now)
            for i in range(players):
                t.register_player(f"Player {i + 1:04d}", hj, now)
            t.close_registration(hj, now)
            t.issue_credential(token_sha256(token), hj, now, official=hj.key_id)
        led.write(LOG, setup)
        led.write(LOG, lambda t, now: t.pair_round(hj, now, material="bench R1",
                                                   source="bench"))

        def clock(t: Tournament, now: str) -> None:
            start_round(t, hj, now, 50)
            for table in range(1, 65):
                extend(t, hj, now, round_no=1, table=table, minutes=5, turns=0,
                       reason="deck check")
        led.write(LOG, clock)
    return db, token


def timed(fn: Callable[[], Any], repeat: int) -> tuple[list[float], list[float]]:
    """Wall and CPU milliseconds of each call (the CPU time of this whole process: on a
    shared machine the wall time also counts the other processes' turns)."""
    wall, cpu = [], []
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        wall.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    return wall, cpu


def report(name: str, ms: tuple[list[float], list[float]]) -> None:
    wall, cpu = ms
    print(f"BENCH desk-{name} p50_ms={statistics.median(wall):.1f} max_ms={max(wall):.1f} "
          f"cpu_p50_ms={statistics.median(cpu):.1f} n={len(wall)} "
          f"load={os.getloadavg()[0]:.1f}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=4096)
    ap.add_argument("--repeat", type=int, default=15)
    a = ap.parse_args()
    import warnings

    warnings.filterwarnings("ignore", category=DeprecationWarning)
    from starlette.testclient import TestClient

    import ledger.formats.registry  # noqa: F401  (plugs the formats in)
    from ledger.storage.location import Location
    from server.app import Hub, create_app
    from server.desk_glance import glance
    from server.station import Station

    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        t0 = time.perf_counter()
        db, token = make_event(d, a.players)
        print(f"# event of {a.players} players made in {time.perf_counter() - t0:.1f} s")
        hub = Hub(Location(str(db)), None, reporting=True)
        station = Station(Location(str(db)), d / "station.pem", hub.follower.log,
                          (d / "hj.pem",))
        state, data = hub.follower.state, hub.pages.data
        g = glance(state, data)
        assert g.tables == a.players // 2 and g.waiting == g.tables, (g.tables, g.waiting)
        report("glance", timed(lambda: glance(state, data), a.repeat))
        env = hub.pages.env
        from cli.api_runner import ApiRunner  # as ``tourney serve`` hands it over
        from server.command_words import command_words
        from server.desk_forms import panels
        from server.i18n import Language

        runner = ApiRunner(Location(str(db)))
        groups = panels(runner.specs())

        def render() -> str:
            gl = glance(state, data)
            return str(env.get_template("desk.html").render(
                **hub.pages.common("find"), g=gl, groups=groups, q="", done=None,
                notyours=set(), rounds=[1], problem=None, refused=None, preview=False,
                guide=[], form=None, round=None, table=None, kid="x", why="", who="HJ",
                roles=["head_judge"], mode="server", has_runner=True, has_station=True,
                csrf="0" * 32, cw=command_words(Language.EN)))
        html = render()
        assert html.count('class="st-none"') == a.players // 2
        report("render", timed(render, a.repeat))
        app = create_app(hub, station=station, runner=runner)
        with TestClient(app) as client:
            assert client.get(f"/c/{token}", follow_redirects=False).status_code == 303
            r = client.get("/desk")
            assert r.status_code == 200 and r.text.count("<tr class=\"st-") == \
                a.players // 2, r.status_code
            print(f"# /desk is {len(r.content) // 1024} KiB")
            report("http", timed(lambda: client.get("/desk"), a.repeat))
            # issue 31: the console in each language, interleaved (the load hits each alike)
            walls: dict[str, list[float]] = {"en": [], "ja": [], "ar": []}
            for _ in range(a.repeat):
                for lang, got in walls.items():
                    t0 = time.perf_counter()
                    r = client.get("/desk", headers={"Accept-Language": lang})
                    got.append((time.perf_counter() - t0) * 1000)
                    assert f'lang="{lang}"' in r.text, lang
            en = statistics.median(walls["en"])
            for lang, got in walls.items():
                print(f"BENCH desk-http-lang lang={lang} p50_ms={statistics.median(got):.1f} "
                      f"ratio_to_en={statistics.median(got) / en:.3f} n={len(got)}")


if __name__ == "__main__":
    main()
