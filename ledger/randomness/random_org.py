"""RANDOM.ORG Signed API responses, verified offline (docs/DESIGN.md §6, THREATS T22/T23).

Owns: ``parse_signed`` (the exact bytes received → the verbatim ``random`` object, its
signature and the fields the ledger tracks) and ``verify_signed`` (RSASSA-PKCS1-v1_5 with
SHA-512 over the exact bytes of the ``random`` object, against the pinned keys).

The input is what RANDOM.ORG sent: a whole JSON-RPC response ``{"jsonrpc":…,"result":{…}}``
or its ``result`` member ``{"random":{…},"signature":"…",…}``.  The ``random`` member is
cut out of the received bytes verbatim (``msgspec.Raw``), never re-serialised: a
re-serialised object (other spacing, key order, escapes) fails the signature.

May import: ``msgspec``, ``cryptography``, ``ledger.errors``, ``ledger.randomness.pins``.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from typing import TYPE_CHECKING

import msgspec

from ledger.randomness import pins
from ledger.randomness.pins import RsaPin

if TYPE_CHECKING:  # imported where used: reading a ledger never loads cryptography
    from cryptography.hazmat.primitives.asymmetric.rsa import RSAPublicKey

MAX_RESPONSE_BYTES = 1 << 20


class RandomOrgError(Exception):
    """The response is unreadable or its signature does not verify; ``code`` is the
    audit finding."""

    def __init__(self, message: str, code: str = "random_org_malformed") -> None:
        super().__init__(message)
        self.message = message
        self.code = code


class _Result(msgspec.Struct):
    random: msgspec.Raw
    signature: str


class _Response(msgspec.Struct):
    result: msgspec.Raw


class _Random(msgspec.Struct):
    hashedApiKey: str  # noqa: N815 - RANDOM.ORG's field names
    serialNumber: int  # noqa: N815
    method: str = ""
    completionTime: str = ""  # noqa: N815


@dataclass(frozen=True)
class SignedRandom:
    """A parsed signed response: the verbatim ``random`` bytes and what the ledger tracks."""

    random_raw: bytes
    signature: bytes
    hashed_api_key: str
    serial: int
    method: str
    completion_time: str


def parse_signed(data: bytes) -> SignedRandom:
    """Cut the verbatim ``random`` object and its signature out of the received bytes."""
    if len(data) > MAX_RESPONSE_BYTES:
        raise RandomOrgError("the RANDOM.ORG response is larger than 1 MiB")
    try:
        try:
            outer = msgspec.json.decode(data, type=_Response)
            data = bytes(outer.result)
        except msgspec.ValidationError:
            pass
        res = msgspec.json.decode(data, type=_Result)
        raw = bytes(res.random)
        fields = msgspec.json.decode(raw, type=_Random)
        sig = base64.b64decode(res.signature, validate=True)
    except (msgspec.DecodeError, msgspec.ValidationError, binascii.Error, ValueError) as exc:
        raise RandomOrgError(f"not a RANDOM.ORG signed response: {exc}") from None
    if not raw.startswith(b"{"):
        raise RandomOrgError("the 'random' member is not a JSON object")
    return SignedRandom(random_raw=raw, signature=sig, hashed_api_key=fields.hashedApiKey,
                        serial=fields.serialNumber, method=fields.method,
                        completion_time=fields.completionTime)


def _public_key(pin: RsaPin) -> RSAPublicKey:
    from cryptography.hazmat.primitives.asymmetric import rsa

    return rsa.RSAPublicNumbers(pin.exponent, int(pin.modulus_hex, 16)).public_key()


def verify_signed(data: bytes, keys: tuple[RsaPin, ...] | None = None) -> SignedRandom:
    """Parse and verify: the signature must be a pinned key's RSA-SHA512 PKCS#1 v1.5
    signature over the exact ``random`` bytes.  Returns the parsed response."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import padding

    signed = parse_signed(data)
    for pin in pins.RANDOM_ORG_KEYS if keys is None else keys:
        try:
            _public_key(pin).verify(signed.signature, signed.random_raw, padding.PKCS1v15(),
                                    hashes.SHA512())
            return signed
        except InvalidSignature:
            continue
    raise RandomOrgError("the RANDOM.ORG signature does not verify against the pinned key "
                         "(object re-serialised, data changed, or not signed by RANDOM.ORG)",
                         code="random_org_bad_signature")
