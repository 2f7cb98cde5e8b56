"""``tourney serve``: the live event server (issue 18; docs/LIVE.md, ADR 0024).

Owns: the command (where to listen, the address players open, the printable QR page) and
starting the server: the port is bound here first, so a port in use is a one-line usage
error (exit 2) rather than a server trace; a bad ``--url`` is a usage error too (exit 2);
a missing ledger file, a file that is not a ledger or a database that cannot be reached is
the storage error it always is (exit 5), a missing tournament the usage error it always is
(exit 2), said before anything listens.  The banner says whether the server writes (with
``--station-key`` it does: players' reports, signed with the station's key).  The pages
and their updates are ``server.*``'s.

May import: ``typer``, ``cli.common``, ``cli.web_url``, ``server.*``, ``ledger.*``,
``segno``, ``uvicorn``, ``cli.api_runner`` (the API's command runner it hands the
server).
"""

from __future__ import annotations

import socket
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from cli.common import Session
from cli.web_url import check_url
from ledger.errors import UsageError


def lan_address() -> str:
    """This machine's address on the network it would use (no packet is sent)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("10.255.255.255", 1))
        return str(s.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    finally:
        s.close()


def bind(host: str, port: int) -> socket.socket:
    """The listening socket, or a usage error saying why not."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise UsageError(f"cannot listen on {host}:{port}: {exc.strerror or exc}",
                         hint="choose another --port (or stop the server using it)") from None
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def serve(
    ctx: typer.Context,
    host: Annotated[str, typer.Option(
        "--host", help="Address to listen on: 0.0.0.0 for every network of this machine "
                       "(phones on the venue Wi-Fi), 127.0.0.1 for this machine only.")]
        = "0.0.0.0",
    port: Annotated[int, typer.Option("--port", min=0, max=65535,
                                      help="TCP port to listen on (0: any free one).")]
        = 8000,
    url: Annotated[str | None, typer.Option(
        "--url", metavar="URL", show_default=False,
        help="The address players open, for the printed QR code: an http:// or https:// "
             "address (default: http://<this machine's address>:<port>/).")] = None,
    qr_out: Annotated[Path | None, typer.Option(
        "--qr-page", metavar="FILE", show_default=False,
        help="Also write the printable QR-code page to FILE (it is served at /qr).")]
        = None,
    station_key: Annotated[Path | None, typer.Option(
        "--station-key", metavar="FILE", show_default=False,
        help="The station's private key (an official with the station role): players "
             "then report their results from their phones, and the server WRITES those "
             "reports to the ledger, signed with this key (docs/LIVE.md).")] = None,
    staff_key: Annotated[list[Path] | None, typer.Option(
        "--staff-key", metavar="FILE", show_default=False,
        help="A scorekeeper's, judge's, time-keeper's or head judge's private key "
             "(repeatable): decisions on the staff page (/staff) and the console (/desk) "
             "are signed with the deciding official's own key (docs/LIVE.md).")] = None,
    tls_cert: Annotated[Path | None, typer.Option(
        "--tls-cert", metavar="FILE", show_default=False,
        help="Serve HTTPS with this certificate (PEM; with --tls-key): phones may then hold "
             "their own key for their reports (docs/LIVE.md).")] = None,
    tls_key: Annotated[Path | None, typer.Option(
        "--tls-key", metavar="FILE", show_default=False,
        help="The certificate's private key (PEM).")] = None,
    publish_dir: Annotated[Path | None, typer.Option(
        "--publish-dir", metavar="DIR", show_default=False,
        help="Where 'publish' from the console or the API writes the site (created; the "
             "server's own directory: a caller never names a path).")] = None,
    server: Annotated[str, typer.Option(
        "--server", metavar="uvicorn|granian",
        help="The ASGI server: uvicorn (installed), or granian (pip install granian: "
             "serves cached pages faster).")] = "uvicorn",
) -> None:
    """Serve the event's live pages to every phone: pairings, your table, standings, the
    round clock, the bracket; updated as the log grows, checkable against it.

    Reads the ledger (SQLite file or PostgreSQL) while the desk keeps writing; it never
    needs a restart to see a new event. Without --station-key it writes nothing, so
    stopping it (even kill -9) loses nothing; with --station-key it also writes: the
    players' reports (and the staff page's decisions), each answered only once committed,
    so stopping it loses no report a phone was told is recorded. With PostgreSQL any
    number of servers on any number of machines serve one event. Pages work with
    JavaScript off; with it, they refresh themselves when the log grows. Every page shows
    the log size and root it was made from (docs/LIVE.md).

    Exit codes: 2 for a port in use, a bad option or a missing --tournament; 5 for a
    missing ledger file, a file that is not a ledger or a database that cannot be reached.

    Example: tourney serve --port 8000 --qr-page qr.html
    """
    s = Session(ctx)
    location = s.location
    if server not in ("uvicorn", "granian"):
        raise UsageError(f"--server {server!r} is not uvicorn or granian",
                         hint="leave it out for uvicorn")
    if server == "granian":
        try:
            import granian  # type: ignore[import-not-found,unused-ignore]  # noqa: F401
        except ImportError:
            raise UsageError("granian is not installed",
                             hint="pip install granian, or leave out --server") from None
    if (tls_cert is None) != (tls_key is None):
        raise UsageError("HTTPS needs both --tls-cert and --tls-key",
                         hint="pass both PEM files, or neither for plain HTTP")
    for path in (tls_cert, tls_key):
        if path is not None and not path.is_file():
            raise UsageError(f"{path} is not a file", hint="pass the PEM file's path")
    if tls_cert is not None and server == "granian":
        raise UsageError("--tls-cert works with the default server only",
                         hint="leave out --server granian")
    if station_key is not None and server == "granian":
        raise UsageError("--station-key works with the default server only",
                         hint="leave out --server granian to take reports")
    if staff_key and station_key is None:
        raise UsageError("--staff-key needs --station-key (the staff page belongs to the "
                         "reporting server)", hint="add --station-key station.pem")
    if url is not None:
        url = check_url(url, "--url", example="--url http://192.168.1.20:8000/")
        if not url.endswith("/"):
            url += "/"
    # the server's modules once the options are known good: a refused command line
    # answers without importing them (a third of a second of start-up)
    import uvicorn

    import ledger.formats.registry  # noqa: F401  (plugs the formats into the core)
    from server.app import Hub, create_app
    from server.qr import qr_page

    sock = bind(host, port)
    port = int(sock.getsockname()[1])
    try:
        hub = Hub(location, s.g.tournament,
                  url=url or f"{'https' if tls_cert else 'http'}://"
                             f"{lan_address() if host in ('0.0.0.0', '::') else host}"
                             f":{port}/", reporting=station_key is not None)
    except BaseException:
        sock.close()
        raise
    station = None
    if station_key is not None:
        from server.station import Station

        try:
            station = Station(location, station_key, hub.follower.log, staff_key or ())
            station.check_role(hub.follower.state)
        except BaseException:
            hub.close()
            sock.close()
            raise
    page = qr_page(hub.data.name, hub.url)
    if qr_out is not None:
        try:
            qr_out.write_bytes(page)
        except OSError as exc:
            hub.close()
            sock.close()
            raise UsageError(f"cannot write {qr_out}: {exc.strerror}",
                             hint="pass a writable --qr-page path") from None
    _announce(hub.url, hub.data.name, hub.follower.log, qr_out,
              None if station is None else station.signer.key_id)
    if server == "granian":
        sock.close()
        hub.close()
        _granian(location.text, s.g.tournament, hub.url, host, port)
        return
    from cli.api_runner import ApiRunner

    runner = ApiRunner(location, hub.follower.log, publish_dir=publish_dir)
    config = uvicorn.Config(create_app(hub, qr_page=page, station=station, runner=runner),
                            log_level="warning",
                            access_log=False, lifespan="on", timeout_graceful_shutdown=2,
                            ssl_certfile=str(tls_cert) if tls_cert else None,
                            ssl_keyfile=str(tls_key) if tls_key else None)
    uvicorn.Server(config).run(sockets=[sock])


def _granian(ledger_text: str, tournament: str | None, url: str, host: str,
             port: int) -> None:
    """Serve ``server.asgi:app`` with granian (its worker builds its own hub)."""
    import os

    from granian import Granian  # type: ignore[import-not-found,unused-ignore]

    from server import asgi

    os.environ[asgi.LEDGER] = ledger_text
    os.environ[asgi.URL] = url
    if tournament:
        os.environ[asgi.TOURNAMENT] = tournament
    options: dict[str, Any] = {"address": host, "port": port, "interface": "asgi",
                               "factory": True, "log_level": "warning", "workers": 1,
                               # every open SSE stream is a request in flight: room for
                               # thousands (granian admits `backlog` at once per worker)
                               "backlog": 16384, "workers_kill_timeout": 2}
    Granian("server.asgi:app", **options).serve()


def _announce(url: str, name: str, log: str, qr_out: Path | None,
              station: str | None) -> None:
    """The banner: where players go, and whether the server writes (``station``: the
    station key's id when it takes reports)."""
    import segno

    out = sys.stdout
    out.write(f"serving {name} ({log}) at {url}\n")
    try:
        segno.make(url, error="m").terminal(out=out, compact=True)
    except (UnicodeEncodeError, OSError):
        pass
    out.write(f"printable QR page: {url}qr" + (f" (and {qr_out})" if qr_out else "") + "\n")
    out.write("press Ctrl+C to stop; the ledger is only read\n" if station is None else
              f"press Ctrl+C to stop; players' reports are WRITTEN to the ledger, signed "
              f"with the station key {station}\n")
    out.flush()
