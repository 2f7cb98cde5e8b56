"""The address of the live server as an option gives it (``--url`` of ``tourney serve``,
``player cards``, ``official card``): one check for all of them (issue 32).

Owns: ``check_url`` — an absolute ``http://`` or ``https://`` address with a host, a valid
port if any, no user name or password, query, fragment or white space (it is printed in a
QR code and on cards: a phone must be able to open it as it is), else a one-line usage
error naming the option.

May import: ``ledger.errors``, the standard library.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from ledger.errors import UsageError


def check_url(url: str, option: str = "--url", *,
              example: str = "--url http://192.168.1.20:8000") -> str:
    """``url`` without surrounding white space, or a usage error saying what is wrong."""
    text = url.strip()
    why = None
    try:
        parts = urlsplit(text)
    except ValueError:              # e.g. an unbalanced [ of an IPv6 address
        parts = None
    try:
        port_ok = parts is not None and (parts.port is None or parts.port > 0)
    except ValueError:              # "host:port", "host:99999"
        port_ok = False
    if parts is None or parts.scheme not in ("http", "https"):
        why = "is not an http:// or https:// address"
    elif not parts.hostname:
        why = "names no host"
    elif not port_ok:
        why = "has an invalid port"
    elif any(c.isspace() for c in text):
        why = "contains white space"
    elif parts.username is not None or parts.password is not None:
        why = "carries a user name or password"
    elif parts.query or parts.fragment or text.endswith(("?", "#")):
        why = "has a query or fragment"
    if why is not None:
        raise UsageError(f"{option} {url!r} {why}",
                         hint=f"pass the address phones open, e.g. {example}")
    return text
