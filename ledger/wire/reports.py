"""Event bodies of players' credentials and self-reported results (issue 19, ADR 0027).

Owns: ``CredentialIssued`` (kind ``credential_issued``), ``CredentialRevoked`` (kind
``credential_revoked``), ``ResultReported`` (kind ``result_reported``) and
``ReportRejected`` (kind ``report_rejected``) and ``DeviceKeyBound`` (kind
``device_key_bound``) — core kinds every
format has, their wire tags in ``Kind``.  Registered in ``BODY_TYPES`` when this module is
imported, which the package ``ledger.wire`` does first.  The token a credential stands for
is never on the wire: only the hex SHA-256 of the 128-bit random token and the credential
id (its first 16 hex digits).

May import: ``msgspec``, ``ledger.wire.events``.
"""

from __future__ import annotations

import msgspec

from ledger.wire.events import Body, Kind, register_body


class CredentialIssued(Body, frozen=True, kw_only=True, omit_defaults=True):
    """A credential for player ``number`` or for official ``official`` (a key id: staff
    pages), exactly one of them (REPORT-1).  ``credential`` = ``token_sha256[:16]``."""

    KIND = Kind.CREDENTIAL_ISSUED
    credential: str
    token_sha256: str
    number: int | None = None
    official: str | None = None


class CredentialRevoked(Body, frozen=True, kw_only=True):
    """Credential ``credential`` stops being valid from this seq on (REPORT-3)."""

    KIND = Kind.CREDENTIAL_REVOKED
    credential: str
    reason: str


class ResultReported(Body, frozen=True, kw_only=True):
    """Player ``number`` reports the result of their table, with their credential, signed
    by a station (REPORT-4..8).  ``given``: the format's vocabulary field names → their
    text, as a slip row gives them (``Vocabulary.from_slip``)."""

    KIND = Kind.RESULT_REPORTED
    round: int
    table: int
    number: int
    credential: str
    given: dict[str, str]
    #: the player's own Ed25519 signature (base64) of ``report_statement`` with the key
    #: their phone holds, when one is bound to the credential (REPORT-17); absent otherwise
    device_sig: str | msgspec.UnsetType = msgspec.UNSET
    #: which of the card's phone-signed acts this is (1, 2, …), named by the signed
    #: statement so that it is good for one use only (REPORT-19); absent with no signature
    device_use: int | msgspec.UnsetType = msgspec.UNSET


class ReportRejected(Body, frozen=True, kw_only=True):
    """A scorekeeper, judge or head judge sets aside player ``number``'s current report
    ``report`` (its seq) of round ``round`` table ``table``, with a reason (REPORT-14): it
    stays in the log and stops counting; the player may report again."""

    KIND = Kind.REPORT_REJECTED
    round: int
    table: int
    number: int
    report: int
    reason: str


class DeviceKeyBound(Body, frozen=True, kw_only=True):
    """Player ``number``'s phone holds an Ed25519 key (``public_key``: base64 of its 32 raw
    bytes; not extractable in the browser) bound to credential ``credential``, signed by a
    station: from now on that credential's reports and own acts carry the player's own
    signature (REPORT-16/17/20).  A binding that replaces another carries the old phone's
    signature of ``bind_statement`` naming the new key (REPORT-18; without the old phone
    the head judge re-issues the card, whose new credential has no key yet)."""

    KIND = Kind.DEVICE_KEY_BOUND
    credential: str
    number: int
    public_key: str
    #: the replaced key's signature (base64) of ``bind_statement`` (REPORT-18) and the
    #: card's act number it names (REPORT-19); absent on a card's first binding
    device_sig: str | msgspec.UnsetType = msgspec.UNSET
    device_use: int | msgspec.UnsetType = msgspec.UNSET


REPORT_BODIES: tuple[type[Body], ...] = (CredentialIssued, CredentialRevoked, ResultReported,
                                         ReportRejected, DeviceKeyBound)
for _body in REPORT_BODIES:
    register_body(_body)
