"""The live event server (``tourney serve``, issue 18): the ledger's pages on every phone.

Owns: nothing but this map of its parts, each with one job:

- ``server.follow``: follows one tournament of a ledger as it grows (SQLite: the file's
  change stamp and ``data_version``; PostgreSQL: LISTEN/NOTIFY), folding only the new
  events into the state it keeps in memory;
- ``server.view`` (and ``server.view_reads``): what the pages show at one log size, as
  plain data read from the format plug-in (no page names a format);
- ``server.pages``: the pages of one log size, rendered once from templates and kept as
  bytes (gzip too) with an ETag of the log size and root;
- ``server.hub``: the followed tournament, its current pages, the Server-Sent Events
  nudges and the one wait for freshness (``Hub.fresh``);
- ``server.app``: the Starlette application (its state, routes, handlers, lifespan);
  the endpoints are module-level functions reading ``request.app.state``:
  ``server.site_routes`` (the public pages), ``server.report_routes``,
  ``server.receipts`` and ``server.staff_routes`` (with a station key);
- ``server.qr``: the printable QR-code page of the server's URL.

The server imports no ``cli`` module (the CLI imports the server), and its modules import
one another without a circle (``tests/test_server_modules.py``).  Without a station key
it only reads: killing it loses nothing.  Docs: docs/LIVE.md, ADR 0023/0024.

May import: nothing (a package marker).
"""
