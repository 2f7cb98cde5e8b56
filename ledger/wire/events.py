"""Event bodies and the signed envelope of ``tourney-leaf/v1`` (docs/DESIGN.md §4–§6).

Owns: one msgspec ``Struct`` per event kind with an explicit, stable wire tag (``KIND``,
never a Python import path); ``Kind`` (the closed set of tags); ``SignedEvent`` (a decoded
leaf); ``seal`` (envelope → signature → leaf bytes) and ``open_leaf`` (leaf bytes → typed
``SignedEvent``).  Other body fields are free per docs/DESIGN.md; the normative ones are here.

May import: ``msgspec``, ``ledger.wire.canonical``, ``ledger.wire.keys``, ``ledger.errors``.
(The public pages' bodies, ADR 0023, live in ``ledger.wire.pages``, and the players'
credentials and reports, ADR 0027, in ``ledger.wire.reports``, which the package
``ledger.wire`` imports first so that they are always registered.)
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Callable
from enum import Enum
from typing import Any, ClassVar, Literal

import msgspec

from ledger.wire.canonical import NonCanonicalError, canonical, decode_canonical
from ledger.wire.keys import Signer

WIRE_VERSION = 1
SIG_DOMAIN = b"tourney-event/v1\n"
ZERO_HASH = "0" * 64


class Kind(str, Enum):
    """Wire tags of every event kind (snake_case, stable forever)."""

    TOURNAMENT_CREATED = "tournament_created"
    OFFICIAL_ADDED = "official_added"
    OFFICIAL_REVOKED = "official_revoked"
    PLAYER_REGISTERED = "player_registered"
    REGISTRATION_CLOSED = "registration_closed"
    SEED_RECORDED = "seed_recorded"
    DRAW_MADE = "draw_made"
    SEED_COMMITTED = "seed_committed"
    REPORT_PUBLISHED = "report_published"
    PLAYER_WITHDRAWN = "player_withdrawn"
    PLAYER_RENAMED = "player_renamed"
    PUBLIC_PAGES_SET = "public_pages_set"    # body in ledger.wire.pages (ADR 0023)
    PAIRINGS_POSTED = "pairings_posted"      # body in ledger.wire.pages (ADR 0023)
    CREDENTIAL_ISSUED = "credential_issued"    # body in ledger.wire.reports (ADR 0027)
    CREDENTIAL_REVOKED = "credential_revoked"  # body in ledger.wire.reports (ADR 0027)
    RESULT_REPORTED = "result_reported"        # body in ledger.wire.reports (ADR 0027)
    REPORT_REJECTED = "report_rejected"        # body in ledger.wire.reports (ADR 0027)
    DEVICE_KEY_BOUND = "device_key_bound"      # body in ledger.wire.reports (ADR 0027)
    CALL_OPENED = "call_opened"                # body in ledger.wire.calls (issue 30)
    CALL_CLAIMED = "call_claimed"              # body in ledger.wire.calls (issue 30)
    CALL_CLOSED = "call_closed"                # body in ledger.wire.calls (issue 30)
    ANNOUNCEMENT_MADE = "announcement_made"    # body in ledger.wire.pages (issue 30, ADR 0053)


class Role(str, Enum):
    """Official roles of RULES.md §1.3 (the organizer is the genesis key)."""

    ORGANIZER = "organizer"
    HEAD_JUDGE = "head_judge"
    JUDGE = "judge"
    SCOREKEEPER = "scorekeeper"
    WITNESS = "witness"  # cosigns checkpoints only; signs no event (C2SP tlog-witness)
    TIME_KEEPER = "time_keeper"  # declares round start and time (BR-TIME-5, issue 9)
    STATION = "station"  # the live server's key: signs players' reports only (ADR 0027)


class Body(msgspec.Struct, frozen=True, kw_only=True):
    """Base of all event bodies."""

    KIND: ClassVar[Enum]


class KeyRef(msgspec.Struct, frozen=True, kw_only=True):
    key_id: str
    public_key: str  # base64 of the raw 32 bytes
    name: str


class FormatSpec(msgspec.Struct, frozen=True, kw_only=True):
    """Format id and its parameters, fixed at genesis (RULES.md §8)."""

    id: str
    cut: int
    params: dict[str, str | int | bool] = {}


class SelfReportPolicy(str, Enum):
    """What happens when both players of a table report the same result (ADR 0027)."""

    CONFIRM = "confirm"  # a scorekeeper records it, one tap (the default)
    AUTO = "auto"        # the station records it at once, citing both reports


class LedgerPolicy(msgspec.Struct, frozen=True, kw_only=True):
    """Ledger-level genesis parameters (not format rules), docs/AUDIT.md §2 and §4.

    ``time_tolerance_s``: how far a claimed time may lie before the head's (command) and
    how far an event may jump ahead of both neighbours (audit).  ``witness_quorum``: how
    many witnesses must cosign the end-of-event checkpoint; ``witness_max_age_s``: the
    newest cosignature may be at most this much older than the last event (0 = no limit).
    Genesis omits the whole policy when every value is the default (so older genesis
    bytes are unchanged); when present it records every value — except
    ``self_report_policy`` (issue 19, ADR 0027), on the wire only when set, so a policy
    recorded before it existed keeps its bytes.
    """

    time_tolerance_s: int = 300
    witness_quorum: int = 0
    witness_max_age_s: int = 0
    self_report_policy: SelfReportPolicy | msgspec.UnsetType = msgspec.UNSET

    @property
    def self_reports(self) -> SelfReportPolicy:
        """The self-report policy in force (``confirm`` unless set)."""
        p = self.self_report_policy
        return SelfReportPolicy.CONFIRM if isinstance(p, msgspec.UnsetType) else p


DEFAULT_POLICY = LedgerPolicy()


class TournamentCreated(Body, frozen=True, kw_only=True, omit_defaults=True):
    KIND = Kind.TOURNAMENT_CREATED
    name: str
    format: FormatSpec
    head_judge: KeyRef
    policy: LedgerPolicy | None = None  # None = DEFAULT_POLICY (omitted on the wire)


class OfficialAdded(Body, frozen=True, kw_only=True):
    KIND = Kind.OFFICIAL_ADDED
    key_id: str
    public_key: str
    role: Role
    name: str


class OfficialRevoked(Body, frozen=True, kw_only=True):
    KIND = Kind.OFFICIAL_REVOKED
    key_id: str
    reason: str = ""


class PlayerRegistered(Body, frozen=True, kw_only=True, omit_defaults=True):
    KIND = Kind.PLAYER_REGISTERED
    number: int
    name: str
    nickname: str | None = None
    deck: str | None = None
    clan: str | None = None
    #: the invitation reference (HOTC-ENTRY-1; omitted when none, so older bytes stay)
    invitation: str | None = None
    external_id: str | None = None  # e.g. a membership number: tells namesakes apart


class PlayerWithdrawn(Body, frozen=True, kw_only=True, omit_defaults=True):
    """A registered player leaves before registration closes (never paired; the number
    is not reused).  After registration closes a player drops instead."""

    KIND = Kind.PLAYER_WITHDRAWN
    number: int
    reason: str = ""


class PlayerRenamed(Body, frozen=True, kw_only=True, omit_defaults=True):
    """A correction of a player's display name (players are named by number)."""

    KIND = Kind.PLAYER_RENAMED
    number: int
    name: str
    reason: str = ""


class RegistrationClosed(Body, frozen=True, kw_only=True):
    KIND = Kind.REGISTRATION_CLOSED
    players: int


Provenance = Literal["entered", "random_org", "drand", "commit_reveal"]


class SeedRecorded(Body, frozen=True, kw_only=True, omit_defaults=True):
    """A seed, verbatim, with provenance (docs/DESIGN.md §6, LEDGER-RAND-1/4)."""

    KIND = Kind.SEED_RECORDED
    provenance: Provenance
    material: str
    source: str
    reason: str
    seed: str  # hex of the 32 derived bytes
    serial: str | None = None
    source_time: str | None = None
    ctx: str | None = None
    evidence: str | None = None  # e.g. sha256 of a video file (LEDGER-RAND-4)
    # verifiable provenances (docs/DESIGN.md §11; checked by ledger.randomness.rules)
    attestation: str | None = None     # base64 of the foreign bytes, verbatim
    hashed_api_key: str | None = None  # random_org: the response's hashedApiKey
    gap_reason: str | None = None      # random_org: why serials were skipped
    chain: str | None = None           # drand / commit_reveal: pinned chain name
    round: int | None = None           # drand / commit_reveal: beacon round
    commit_seq: int | None = None      # commit_reveal: seq of the seed_committed
    salt: str | None = None            # commit_reveal: hex
    secret: str | None = None          # commit_reveal: hex
    checkpoint: str | None = None      # commit_reveal: signed note covering the commitment


class SeedCommitted(Body, frozen=True, kw_only=True, omit_defaults=True):
    """Commit-reveal, first half: SHA-256(b"tourney-commit/v1\\0" + salt + secret) for a
    future drand round (docs/DESIGN.md §6)."""

    KIND = Kind.SEED_COMMITTED
    commitment: str  # hex
    chain: str
    round: int
    reason: str
    ctx: str | None = None


class ReportPublished(Body, frozen=True, kw_only=True):
    """A signed report for publishers (docs/DESIGN.md §11): the figures of the log at
    ``size`` (the checkpoint it covers, always the log right before this event), with
    their digest.  The audit recomputes the figures from the log."""

    KIND = Kind.REPORT_PUBLISHED
    size: int
    root: str    # hex RFC 6962 root of the first ``size`` leaves
    digest: str  # hex SHA-256 of canonical(figures)
    figures: dict[str, Any]


class DrawMade(Body, frozen=True, kw_only=True, omit_defaults=True):
    """One DRAW-v1 draw: everything an outside auditor needs to recompute it."""

    KIND = Kind.DRAW_MADE
    ctx: str
    algorithm: str  # "DRAW-v1"; anything else is refused and flagged
    seed: str
    seed_seq: int
    items: list[int]
    result: list[int]
    reason: str = ""
    # None: the items are player numbers (registered, still in the event); otherwise the
    # name of what is drawn (tables, judges, …) with its own items (re-roll hygiene)
    universe: str | None = None


BODY_TYPES: dict[str, type[Body]] = {
    cls.KIND.value: cls
    for cls in (TournamentCreated, OfficialAdded, OfficialRevoked, PlayerRegistered,
                RegistrationClosed, SeedRecorded, DrawMade, SeedCommitted, ReportPublished,
                PlayerWithdrawn, PlayerRenamed)
}


def register_body(cls: type[Body]) -> type[Body]:
    """Register the body type of a kind added by a format (``ledger.core.format_socket``); a
    kind has one body type, whichever formats use it."""
    kind = str(cls.KIND.value)
    old = BODY_TYPES.get(kind)
    if old is not None and old is not cls:
        raise ValueError(f"event kind {kind!r} already has body type {old.__qualname__}")
    BODY_TYPES[kind] = cls
    return cls


class Envelope(msgspec.Struct, frozen=True):
    """The signed event of §4 with an undecoded body."""

    v: int
    log: str
    seq: int
    prev: str
    time: str
    kind: str
    actor: str
    body: msgspec.Raw


class _Leaf(msgspec.Struct, frozen=True):
    event: Envelope
    sig: str


class SignedEvent(msgspec.Struct, frozen=True):
    """A decoded leaf: envelope fields, the typed body, the signature and the leaf bytes."""

    log: str
    seq: int
    prev: str
    time: str
    kind: str
    actor: str
    body: Body
    sig: bytes
    leaf: bytes

    @property
    def leaf_hash_hex(self) -> str:
        return hashlib.sha256(self.leaf).hexdigest()


def event_dict(*, log: str, seq: int, prev: str, time: str, actor: str,
               body: Body) -> dict[str, Any]:
    return {"v": WIRE_VERSION, "log": log, "seq": seq, "prev": prev, "time": time,
            "kind": body.KIND.value, "actor": actor, "body": msgspec.to_builtins(body)}


def signing_input(event_bytes: bytes) -> bytes:
    """What Ed25519 signs: b"tourney-event/v1\\n" + canonical(event)."""
    return SIG_DOMAIN + event_bytes


def seal(*, log: str, seq: int, prev: str, time: str, body: Body,
         signer: Signer) -> SignedEvent:
    """Build, sign and encode one event; the leaf bytes are what gets stored."""
    ev = event_dict(log=log, seq=seq, prev=prev, time=time, actor=signer.key_id, body=body)
    ev_bytes = canonical(ev)
    sig = signer.sign(signing_input(ev_bytes))
    # canonical({"event": ev, "sig": …}) without encoding and checking ``ev`` a second
    # time: keys sorted ("event" < "sig"), no whitespace, the event's own canonical bytes
    # and the signature's base64 (plain ASCII, no escape) — the same bytes (issue 22)
    leaf = b'{"event":' + ev_bytes + b',"sig":"' + base64.b64encode(sig) + b'"}'
    return SignedEvent(log=log, seq=seq, prev=prev, time=time, kind=body.KIND.value,
                       actor=signer.key_id, body=body, sig=sig, leaf=leaf)


_leaf_decoder = msgspec.json.Decoder(_Leaf)
#: A JSON number of 16 or more digits (canonical JSON: after ':', ',' or '['); 2^53-1 has
#: 16 digits, so a leaf without one holds no integer outside the schema's range.  Found
#: as the regex ``[:,\[]-?[0-9]{16,}`` would, by mapping bytes to classes (digit → 0,
#: ``:,[`` → p, ``-`` kept, anything else → x) and searching the class string, which is
#: several times faster than the regex on every leaf.
_NUMBER_CLASSES = bytes(ord("0") if chr(c).isdigit() and c < 128 else ord("p")
                        if c in b":,[" else c if c == ord("-") else ord("x")
                        for c in range(256))
_SIXTEEN = b"0" * 16


def _long_number(leaf: bytes) -> bool:
    classes = leaf.translate(_NUMBER_CLASSES)
    return b"p" + _SIXTEEN in classes or b"p-" + _SIXTEEN in classes
_sorted = msgspec.json.Encoder(order="sorted")
_body_decoders: dict[str, msgspec.json.Decoder[Any]] = {}


class ParsedLeaf(msgspec.Struct, frozen=True):
    """A leaf decoded for checking: the typed event, the exact signed bytes, and why the
    leaf is not canonical (``None`` when it is)."""

    event: SignedEvent
    signed_bytes: bytes
    noncanonical: str | None


#: Asked before an unknown kind is refused: the plug-in socket imports the formats not
#: loaded yet (``ledger.core.format_socket.load_all_formats``) and says whether any was.
ON_UNKNOWN_KIND: list[Callable[[], bool]] = []



def body_type_of(kind: str) -> type[Body] | None:
    """The body type of ``kind``, loading the formats not imported yet when it is unknown
    (formats are imported on first use: start-up reads only the one a ledger runs)."""
    body_type = BODY_TYPES.get(kind)
    if body_type is None and any([hook() for hook in ON_UNKNOWN_KIND]):
        body_type = BODY_TYPES.get(kind)
    return body_type


def _body_decoder(kind: str) -> msgspec.json.Decoder[Any]:
    dec = _body_decoders.get(kind)
    if dec is None:
        body_type = body_type_of(kind)
        if body_type is None:
            raise NonCanonicalError(f"unknown event kind {kind!r}")
        dec = _body_decoders[kind] = msgspec.json.Decoder(body_type)
    return dec


def parse_leaf(leaf: bytes) -> ParsedLeaf:
    """Decode and check leaf bytes; raise ``NonCanonicalError`` only if untypeable.

    Fast path: typed decode, then sorted re-encode must give the same bytes (envelope
    with the raw body spliced in, then the body alone).  Otherwise the generic check of
    ``ledger.wire.canonical`` decides (extra body fields are allowed, docs/DESIGN.md §5).
    """
    raw, body, sig = _decode(leaf)
    ev = raw.event
    problem: str | None = None
    if base64.b64encode(sig).decode() != raw.sig:
        problem = "signature is not canonical base64 (unused bits or padding differ)"
    elif _sorted.encode(raw) != leaf or _sorted.encode(body) != bytes(ev.body) or \
            _long_number(leaf):
        try:
            decode_canonical(leaf)
        except NonCanonicalError as exc:
            problem = exc.message
    if problem is None and not (0 < ev.seq <= 2**53 - 1 and ev.v == WIRE_VERSION):
        problem = "v or seq out of range"
    if problem is None:
        # canonical: the signed event is the exact slice of the leaf bytes
        signed_bytes = leaf[len(b'{"event":'):leaf.rindex(b',"sig":"')]
    else:
        try:
            signed_bytes = _sorted.encode(msgspec.json.decode(leaf)["event"])
        except (msgspec.DecodeError, KeyError, TypeError, ValueError) as exc:
            raise NonCanonicalError(f"malformed event: {exc}") from None
    return ParsedLeaf(event=_signed(raw, body, sig, leaf), signed_bytes=signed_bytes,
                      noncanonical=problem)


def _decode(leaf: bytes) -> tuple[Any, Body, bytes]:
    try:
        raw = _leaf_decoder.decode(leaf)
        return raw, _body_decoder(raw.event.kind).decode(raw.event.body), \
            base64.b64decode(raw.sig, validate=True)
    except (msgspec.DecodeError, msgspec.ValidationError, ValueError) as exc:
        raise NonCanonicalError(f"malformed event: {exc}") from None


def _signed(raw: Any, body: Body, sig: bytes, leaf: bytes) -> SignedEvent:
    ev = raw.event
    return SignedEvent(log=ev.log, seq=ev.seq, prev=ev.prev, time=ev.time, kind=ev.kind,
                       actor=ev.actor, body=body, sig=sig, leaf=leaf)


def decode_checked(leaf: bytes) -> SignedEvent:
    """The typed event of leaf bytes ``parse_leaf`` already found canonical (the audit's
    workers did, docs/AUDIT.md §6): decoded, not checked again."""
    raw, body, sig = _decode(leaf)
    return _signed(raw, body, sig, leaf)


def open_leaf(leaf: bytes) -> SignedEvent:
    """Decode leaf bytes that must be canonical (the command side's reads)."""
    parsed = parse_leaf(leaf)
    if parsed.noncanonical is not None:
        raise NonCanonicalError(parsed.noncanonical)
    return parsed.event
