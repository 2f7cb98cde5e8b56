"""The printable QR-code page of ``tourney serve`` (served at ``/qr``; ``--qr-page FILE``
writes the same bytes).

Owns: ``qr_page`` (the page of the server's address as a QR code, for the venue's walls).

May import: ``segno``, ``server.pages``, ``server.i18n``.
"""

from __future__ import annotations

from server.i18n import Language, direction
from server.pages import environment


def qr_page(name: str, url: str, lang: Language = Language.EN) -> bytes:
    """The page that shows ``url`` (the address players open) of event ``name``, in
    ``lang``."""
    import segno

    svg = segno.make(url, error="m").svg_inline(scale=8, border=2)
    return str(environment(lang).get_template("qr.html").render(
        name=name, url=url, svg=svg, lang=lang.value, dir=direction(lang))).encode("utf-8")
