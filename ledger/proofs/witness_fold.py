"""What a witness relies on, verified (issue 21 item 4, THREATS T27): the log's state folded
from leaves whose every signature, chain link and signer's role was checked.

Owns: ``verified_fold`` — each leaf canonical, at its seq, chained to the previous one, of
one log, signed (Ed25519) by the key the log declared for its actor at that point, and by
an actor whose role may emit its kind (``ledger.core.rules.authorize``); otherwise the witness
refuses (``WitnessRefusal``, exit 4).  A witness never trusts snapshots or an unverified
fold: a forged ``official_added`` would otherwise make an outsider "head judge" whose
checkpoint the witness cosigns, after which it refuses the honest one as equivocation.

The caller loads the formats (``ledger.formats.registry``) so every kind parses; the core
imports no format.

May import: ``ledger.wire.canonical``, ``ledger.proofs.checkpoint_store``, ``ledger.wire.events``,
``ledger.wire.keys``, ``ledger.core.rules``, ``ledger.core.state``, ``ledger.errors``.
"""

from __future__ import annotations

from collections.abc import Iterable

from ledger.core.rules import authorize
from ledger.core.state import TournamentState, apply_event
from ledger.errors import RuleError, VerificationError
from ledger.proofs.cosign import decode_public_key
from ledger.wire.canonical import NonCanonicalError
from ledger.wire.events import SIG_DOMAIN, ZERO_HASH, TournamentCreated, parse_leaf
from ledger.wire.keys import verify_signature


class WitnessRefusal(VerificationError):
    """The witness refuses to cosign (exit 4): C2SP tlog-witness 409 / 422 cases, or a
    log whose events do not verify."""

    code = "witness_refused"


def _refuse(where: str, seq: int, why: str) -> WitnessRefusal:
    return WitnessRefusal(f"{where}: event {seq} {why}; the witness relies on every event "
                          "and does not cosign this log",
                          hint="run 'tourney audit verify' on it; do not cosign")


def verified_fold(leaves: Iterable[bytes], where: str = "the log") -> TournamentState:
    """Fold ``leaves`` (seq 1, 2, …) verifying each one first; raises ``WitnessRefusal``."""
    state, prev = TournamentState(), ZERO_HASH
    for i, leaf in enumerate(leaves, start=1):
        try:
            parsed = parse_leaf(leaf)
        except NonCanonicalError as exc:
            raise _refuse(where, i, f"cannot be read ({exc.message})") from None
        ev = parsed.event
        if parsed.noncanonical is not None:
            raise _refuse(where, i, f"is not canonical ({parsed.noncanonical})")
        if ev.seq != i or ev.prev != prev or (i > 1 and ev.log != state.log):
            raise _refuse(where, i, "is out of order, off the chain or of another log")
        if isinstance(ev.body, TournamentCreated):
            if i != 1 or ev.actor != ev.body.head_judge.key_id:
                raise _refuse(where, i, "is a genesis out of place")
            pub = decode_public_key(ev.body.head_judge.public_key)
        elif i == 1:
            raise _refuse(where, i, "is not a genesis")
        else:
            off = state.officials.get(ev.actor)
            pub = None if off is None else decode_public_key(off.public_key)
        if pub is None or not verify_signature(pub, ev.sig, SIG_DOMAIN + parsed.signed_bytes):
            raise _refuse(where, i, f"has a signature by {ev.actor} that does not verify "
                          "against the key the log declares")
        if i > 1:
            try:
                authorize(state, ev.actor, ev.kind)
            except RuleError as exc:
                raise _refuse(where, i, f"is signed by a key that may not emit it "
                              f"({exc.message})") from None
        apply_event(state, ev)
        prev = ev.leaf_hash_hex
    if state.size == 0:
        raise _refuse(where, 1, "is missing (the log is empty)")
    return state
