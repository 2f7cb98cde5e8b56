"""Players' credentials and reports in the folded state (issue 19, ADR 0027).

Owns: ``Credential`` (holder, token hash, issued and revoked seq), ``Report`` (one
``result_reported``), ``ReportsState`` (one sub-struct of ``TournamentState``, snapshotted
with it) and its pure transitions ``note_issued``, ``note_revoked``, ``note_reported`` and
``note_rejected``, ``note_bound`` and ``note_device_use``.
Never validates (``ledger.core.report_rules`` does: REPORT-1..9) and never reads a clock.

May import: ``msgspec``.
"""

from __future__ import annotations

import msgspec


class Credential(msgspec.Struct, kw_only=True, array_like=True, gc=False):
    credential: str                 # id: the first 16 hex of SHA-256 of the token
    token_sha256: str               # hex SHA-256 of the token (never the token)
    issued_seq: int
    number: int | None = None       # a player's credential
    official: str | None = None     # an official's (key id): staff pages
    revoked_seq: int | None = None


class Report(msgspec.Struct, kw_only=True, array_like=True, gc=False):
    seq: int
    round: int
    table: int
    number: int
    credential: str
    given: dict[str, str]


class ReportsState(msgspec.Struct, kw_only=True, array_like=True, gc=False):
    credentials: dict[str, Credential] = {}
    live_player: dict[int, str] = {}      # player number -> its live credential id
    live_official: dict[str, str] = {}    # official key id -> its live credential id
    #: round -> table -> reporting player -> their current report (the latest)
    current: dict[int, dict[int, dict[int, Report]]] = {}
    #: round -> player -> the reason their latest report was set aside (REPORT-14)
    set_aside: dict[int, dict[int, str]] = {}
    #: credential -> the public key (base64) of the phone bound to it (REPORT-16)
    devices: dict[str, str] = {}
    #: credential -> how many acts its phone keys have signed (REPORT-19: the next
    #: signed statement names this + 1)
    device_uses: dict[str, int] = {}


def note_issued(rs: ReportsState, seq: int, credential: str, token_sha256: str,
                number: int | None, official: str | None) -> None:
    rs.credentials[credential] = Credential(credential=credential, token_sha256=token_sha256,
                                            issued_seq=seq, number=number, official=official)
    if number is not None:
        rs.live_player[number] = credential
    if official is not None:
        rs.live_official[official] = credential


def note_revoked(rs: ReportsState, seq: int, credential: str) -> None:
    cred = rs.credentials.get(credential)
    if cred is None:
        return
    cred.revoked_seq = seq
    if cred.number is not None and rs.live_player.get(cred.number) == credential:
        del rs.live_player[cred.number]
    if cred.official is not None and rs.live_official.get(cred.official) == credential:
        del rs.live_official[cred.official]


def note_reported(rs: ReportsState, report: Report) -> None:
    """A later report by the same player supersedes their earlier one (both stay in the
    log; the state keeps the current one)."""
    rs.current.setdefault(report.round, {}).setdefault(report.table, {})[report.number] = report
    rs.set_aside.get(report.round, {}).pop(report.number, None)


def note_rejected(rs: ReportsState, round_no: int, table: int, number: int, seq: int,
                  reason: str) -> None:
    """A rejected report stops being the player's current one (it stays in the log); the
    reason is kept for the player's page until they report again."""
    reps = rs.current.get(round_no, {}).get(table, {})
    if number in reps and reps[number].seq == seq:
        del reps[number]
        rs.set_aside.setdefault(round_no, {})[number] = reason


def note_bound(rs: ReportsState, credential: str, public_key: str) -> None:
    """The credential's reports carry the player's own signature from now on."""
    rs.devices[credential] = public_key


def note_device_use(rs: ReportsState, credential: str) -> None:
    """One more act signed by the credential's phone (a report, a drop, a rebinding)."""
    rs.device_uses[credential] = rs.device_uses.get(credential, 0) + 1
