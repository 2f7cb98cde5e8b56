"""Players' and officials' credentials (issue 19, ADR 0027): the read API the live server
and the CLI call, pure functions of the folded ``TournamentState``.

Owns: ``token_sha256`` and ``credential_id`` (what the log records of a token),
``credential_for_token`` (a presented token → its credential, by a constant-time compare
of the hashes), ``live_credential`` (a player's live credential), ``live_official_credential``
and ``valid_at`` (was a credential live at a seq).  A token is 128 random bits, made only
by the CLI command that prints the cards (never in replayed code, never stored).

May import: ``hashlib``, ``hmac``, ``ledger.core.state``, ``ledger.core.reports_state``.
"""

from __future__ import annotations

import hashlib
import hmac

from ledger.core.reports_state import Credential
from ledger.core.state import TournamentState

__all__ = ["Credential", "credential_for_token", "credential_id", "live_credential",
           "live_official_credential", "token_sha256", "valid_at"]


def token_sha256(token: str) -> str:
    """Hex SHA-256 of the token's UTF-8 bytes (what ``credential_issued`` records)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def credential_id(token: str) -> str:
    """A credential's id: the first 16 hex digits of the token's SHA-256."""
    return token_sha256(token)[:16]


def credential_for_token(state: TournamentState, token: str) -> Credential | None:
    """The credential ``token`` stands for (live or revoked: ask ``valid_at``), or None.
    The id selects the candidate; the full hashes are compared in constant time."""
    digest = token_sha256(token)
    cred = state.reports.credentials.get(digest[:16])
    if cred is None or not hmac.compare_digest(cred.token_sha256, digest):
        return None
    return cred


def live_credential(state: TournamentState, number: int) -> Credential | None:
    """Player ``number``'s live credential (REPORT-2: at most one), or None."""
    cid = state.reports.live_player.get(number)
    return None if cid is None else state.reports.credentials[cid]


def live_official_credential(state: TournamentState, key_id: str) -> Credential | None:
    """Official ``key_id``'s live staff credential, or None."""
    cid = state.reports.live_official.get(key_id)
    return None if cid is None else state.reports.credentials[cid]


def valid_at(state: TournamentState, credential: Credential, seq: int) -> bool:
    """Whether an event at ``seq`` may use ``credential``: it was issued before ``seq`` and
    not revoked at or before it (a revocation takes effect at its own seq)."""
    if credential.issued_seq >= seq:
        return False
    return credential.revoked_seq is None or credential.revoked_seq > seq
