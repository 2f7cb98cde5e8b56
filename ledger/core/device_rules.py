"""The rules of phone-held keys (issue 19's stretch, issue 27 item 1; ADR 0027, ADR 0028):
REPORT-16..20 — one implementation for the command side (the station refuses before
signing) and the audit (the same ``RuleError`` is the finding).

A player's phone may hold an Ed25519 key bound to their card (``device_key_bound``).  From
then on every act of that card — a report, an own drop, the binding of a replacing key —
carries the phone's signature of a *statement*: UTF-8 lines, each ended by ``\\n``, whose
first five are the same for every statement::

    <type>            tourney-report/v2 | tourney-act/v1 | tourney-bind/v1
    <log>             the tournament id
    <credential>      the card's credential id
    <number>          the player's number
    <use>             which of the card's phone-signed acts this is: 1, 2, … (REPORT-19)

then, for a report, the round, the table and each ``field=value`` sorted by field; for an
own act (a drop), the event's kind; for a replacing binding, the new public key.  The
``use`` makes each statement good for one act only: a signed statement replayed later
names a spent number (``device_statement_replayed``).

Owns: ``report_statement``, ``act_statement``, ``bind_statement``, ``next_use``,
``PhoneSignatureNeeded`` (the refusal of a bound card's unsigned act: it carries the
statement to sign, so the server asks the phone for exactly the bytes the rule checks),
``check_bound`` (REPORT-16/18), ``check_report_sig`` (REPORT-17), ``check_act_sig``
(REPORT-20), each with REPORT-19.

May import: ``msgspec``, ``ledger.errors``, ``ledger.wire.keys``, ``ledger.wire.reports``,
``ledger.core.state`` (types only).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import msgspec

from ledger.errors import RuleError
from ledger.wire.keys import b64_exact, verify_signature
from ledger.wire.reports import DeviceKeyBound, ResultReported

if TYPE_CHECKING:
    from ledger.core.state import TournamentState

REPORT_V2 = "tourney-report/v2"
ACT_V1 = "tourney-act/v1"
BIND_V1 = "tourney-bind/v1"


class PhoneSignatureNeeded(RuleError):
    """A card with a bound phone key acted without its phone's signature.  ``statement``
    is what that phone must sign for this act (``use`` its act number): the live server
    shows it to the phone, which signs it and sends the act again."""

    def __init__(self, rule: str, message: str, *, statement: bytes, use: int,
                 hint: str | None = None, finding: str = "rule_violation") -> None:
        super().__init__(rule, message, hint=hint, finding=finding)
        self.statement = statement
        self.use = use


def _lines(rule: str, finding: str, *lines: str) -> bytes:
    if any("\n" in x or "\r" in x for x in lines):
        raise RuleError(rule, "a signed statement's fields may not hold line breaks",
                        finding=finding)
    return "".join(line + "\n" for line in lines).encode("utf-8")


def report_statement(log: str, round_no: int, table: int, number: int, credential: str,
                     given: dict[str, str], use: int) -> bytes:
    """The exact bytes a phone-held key signs for a report (REPORT-17/19)."""
    if any("=" in k for k in given):
        raise RuleError("REPORT-17", "a signed report's field names may not hold '='",
                        finding="player_report_device_sig")
    return _lines("REPORT-17", "player_report_device_sig", REPORT_V2, log, credential,
                  str(number), str(use), str(round_no), str(table),
                  *(f"{k}={v}" for k, v in sorted(given.items())))


def act_statement(log: str, kind: str, number: int, credential: str, use: int) -> bytes:
    """The exact bytes a phone-held key signs for a player's own act of ``kind`` (a drop:
    the format's drop event, REPORT-20/19)."""
    return _lines("REPORT-20", "player_act_device_sig", ACT_V1, log, credential,
                  str(number), str(use), kind)


def bind_statement(log: str, number: int, credential: str, public_key: str,
                   use: int) -> bytes:
    """The exact bytes the bound phone key signs to hand the card to ``public_key``
    (REPORT-18/19)."""
    return _lines("REPORT-18", "device_key_rebound", BIND_V1, log, credential, str(number),
                  str(use), public_key)


def next_use(state: TournamentState, credential: str) -> int:
    """The act number the card's next phone-signed statement names (REPORT-19)."""
    return state.reports.device_uses.get(credential, 0) + 1


def _signed(state: TournamentState, credential: str, key: str | None, body: Any,
            statement: Callable[[int], bytes], rule: str, finding: str, what: str,
            need: str, hint: str) -> None:
    """The one check of a phone signature on ``body`` (its ``device_sig`` and
    ``device_use``) against the key ``key`` bound to ``credential`` (None: no key)."""
    sig = getattr(body, "device_sig", msgspec.UNSET)
    use = getattr(body, "device_use", msgspec.UNSET)
    if key is None:
        if isinstance(sig, msgspec.UnsetType) and isinstance(use, msgspec.UnsetType):
            return
        raise RuleError(rule, f"credential {credential} has no phone key bound, so its "
                        f"{what} carries no phone signature", finding=finding)
    if isinstance(sig, msgspec.UnsetType):
        n = next_use(state, credential)
        raise PhoneSignatureNeeded(rule, need, statement=statement(n), use=n, hint=hint,
                                   finding=finding)
    if not isinstance(use, int) or isinstance(use, bool) or use < 1:
        raise RuleError(rule, f"the phone's signature of this {what} names no act number",
                        hint="sign the statement the server shows", finding=finding)
    raw_sig, raw_pk = b64_exact(sig, 64), b64_exact(key, 32)
    if raw_sig is None or raw_pk is None or \
            not verify_signature(raw_pk, raw_sig, statement(use)):
        raise RuleError(rule, f"the phone's signature does not verify for this {what}",
                        hint=hint, finding=finding)
    expected = next_use(state, credential)
    if use != expected:
        raise RuleError("REPORT-19", f"this signed statement names act {use} of credential "
                        f"{credential}, whose next act is {expected}: a phone's statement "
                        "is good for one act (a replayed or out-of-order statement)",
                        hint="act again from the phone: it signs a fresh statement",
                        finding="device_statement_replayed")


def check_report_sig(state: TournamentState, body: ResultReported) -> None:
    """REPORT-17 (with REPORT-19): a credential with a bound phone key reports only with
    that key's signature of ``report_statement`` naming the card's next act; no other
    report carries one."""
    cred = body.credential
    _signed(state, cred, state.reports.devices.get(cred), body,
            lambda n: report_statement(state.log, body.round, body.table, body.number, cred,
                                       dict(body.given), n),
            "REPORT-17", "player_report_device_sig", "report",
            "this card reports only with the signature of the phone that holds its key",
            "report from that phone (JavaScript on), or ask the head judge for a new card")


def check_act_sig(state: TournamentState, body: Any) -> None:
    """REPORT-20 (with REPORT-19): a player's own act (a body naming its ``credential``: a
    drop) of a credential with a bound phone key carries that key's signature of
    ``act_statement``; no other act carries one."""
    cred, kind = body.credential, body.KIND.value
    _signed(state, cred, state.reports.devices.get(cred), body,
            lambda n: act_statement(state.log, kind, body.number, cred, n),
            "REPORT-20", "player_act_device_sig", kind.replace("_", " "),
            "this card acts only with the signature of the phone that holds its key",
            "act from that phone (JavaScript on), or ask the head judge for a new card")


def check_bound(state: TournamentState, body: DeviceKeyBound, actor: str) -> None:
    """REPORT-16: a phone key is bound to a live credential of that player, is an Ed25519
    public key, and is bound to no other credential.  REPORT-18: a binding that replaces
    the card's key carries the replaced key's signature of ``bind_statement`` naming the
    new key (REPORT-19: and the card's next act); a first binding carries none — a card
    whose phone is lost is re-issued by the head judge (a new credential, no key yet)."""
    cred = state.reports.credentials.get(body.credential)
    if cred is None or cred.number != body.number or cred.revoked_seq is not None:
        raise RuleError("REPORT-16", f"credential {body.credential} is not player "
                        f"{body.number}'s live card", hint="scan your own, current card",
                        finding="device_key_invalid")
    if b64_exact(body.public_key, 32) is None:
        raise RuleError("REPORT-16", "the phone's public key is not base64 of 32 raw bytes",
                        finding="device_key_invalid")
    other = [c for c, k in state.reports.devices.items()
             if k == body.public_key and c != body.credential]
    if other:
        raise RuleError("REPORT-16", f"this phone key is already bound to credential "
                        f"{other[0]}", hint="each card binds its own phone key",
                        finding="device_key_invalid")
    _signed(state, body.credential, state.reports.devices.get(body.credential), body,
            lambda n: bind_statement(state.log, body.number, body.credential,
                                     body.public_key, n),
            "REPORT-18", "device_key_rebound", "binding",
            f"credential {body.credential} already has a phone key: a new key needs the "
            "signature of the phone that holds it, or the head judge re-issues the card",
            "ask the head judge for a new card: tourney player card N --reissue --reason "
            "TEXT")
