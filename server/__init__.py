"""The live event server (``tourney serve``, issue 18): the ledger's pages on every phone.

Parts, each with one job:

- ``server.follow``: follows one tournament of a ledger as it grows (SQLite: the file's
  change stamp; PostgreSQL: LISTEN/NOTIFY), folding only the new events into the state it
  keeps in memory;
- ``server.view``: what the pages show at one log size, as plain data read from the
  format plug-in (no page names a format);
- ``server.pages``: the pages of one log size, rendered once from templates and kept as
  bytes (gzip too) with an ETag of the log size and root;
- ``server.app``: the Starlette application (routes, 304s, the Server-Sent Events nudges);
- ``server.qr``: the QR code of the server's URL, in the terminal and as a page.

The server only reads: killing it loses nothing.  Docs: docs/LIVE.md, ADR 0023/0024.
"""
