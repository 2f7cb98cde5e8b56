"""Fixed Ed25519 keys standing for players' phones (a browser's key is not extractable),
and their signatures of a statement, for the phone-key rules' tests (REPORT-16..21);
``sign_and_send``: what ``report.js`` does on a signing page (a report, a drop, a judge
call, a decklist), over HTTP.

May import: ``ledger.wire.keys``, ``cryptography``, the standard library.
"""

from __future__ import annotations

import base64
import html
import re
from typing import Any


def _key(seed: int) -> tuple[Any, str]:
    """A fixed Ed25519 key standing for one phone (the browser's is not extractable)."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from ledger.wire.keys import public_raw

    k = Ed25519PrivateKey.from_private_bytes(bytes([seed]) * 32)
    return k, base64.b64encode(public_raw(k.public_key())).decode()


def _b64(key: Any, msg: bytes) -> str:
    return base64.b64encode(key.sign(msg)).decode()


def signed_form(page: Any, key: Any) -> dict[str, str]:
    """The form of the signing page ``page`` (an HTTP response) with the statement signed
    by the phone's ``key``, as report.js posts it."""
    assert page.status_code == 200 and 'id="sign"' in page.text, page.text
    form = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">',
                           page.text))
    statement = html.unescape(form.pop("statement"))
    form = {k: html.unescape(v) for k, v in form.items()}
    form["device_sig"] = base64.b64encode(key.sign(statement.encode("utf-8"))).decode()
    assert statement.split("\n")[4] == form["device_use"]
    return form


def sign_and_send(phone: Any, base: str, page: Any, key: Any, action: str) -> Any:
    """What report.js does on the signing page: sign the statement, post the form to
    ``action``; the answer."""
    return phone.post(action, data=signed_form(page, key), headers={"Origin": base})
