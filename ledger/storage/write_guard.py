"""What the command side verifies before it signs on top of a ledger (issue 12, defect 8).

Owns: ``head_problem`` (the head leaf is the one the state was folded to, links to its
predecessor, its signature verifies with the key the state names, and that key's role may
sign its kind by the roles table — ``ledger.core.signing.role_problem``, what the audit
flags as ``role_not_permitted`` / ``key_revoked`` and the PostgreSQL admission function
refuses; issue 27 item 2) and
``authority_problem`` (a signer is an official by leaves that verify: genesis naming the
organizer, the signer's own ``official_added`` signed by that organizer).  A constant
number of row reads and signature checks, never a replay; ``None`` when all is well, else a
one-line description.  The rows come through a ``LeafReader`` so any store can feed it.
``Trust`` is what a long-lived writer (``ledger.storage.write_session``) already verified or wrote
itself, so it does not check the same signatures and read the same rows again (ADR 0020).

May import: ``ledger.wire.events``, ``ledger.wire.keys``, ``ledger.core.state``,
``ledger.core.signing``.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field

from ledger.core.signing import role_problem
from ledger.core.state import TournamentState
from ledger.wire.events import SIG_DOMAIN, OfficialAdded, TournamentCreated, parse_leaf
from ledger.wire.keys import verify_signature


@dataclass(frozen=True)
class LeafReader:
    """Row access of one tournament: the leaf at a version, and the (up to) two newest
    (version, leaf) rows at or below a size, newest first."""

    at: Callable[[int], bytes | None]
    head: Callable[[int], list[tuple[int, bytes]]]


def _raw_key(text: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except ValueError:
        return b""  # never verifies


def head_problem(read: LeafReader, st: TournamentState) -> str | None:
    """Why the head leaf cannot be signed on top of (None when it can)."""
    rows = read.head(st.size)
    if not rows or rows[0][0] != st.size:
        return f"the stored head is not seq {st.size}"
    head = rows[0][1]
    if hashlib.sha256(head).hexdigest() != st.head:
        return f"the head event seq {st.size} is not the one the state was folded to"
    try:
        parsed = parse_leaf(head)
    except Exception:  # noqa: BLE001 - any unreadable head is a tampered head
        return f"the head event seq {st.size} is unreadable"
    ev = parsed.event
    prev = hashlib.sha256(rows[1][1]).hexdigest() if len(rows) > 1 else "0" * 64
    if ev.seq != st.size or ev.prev != prev or parsed.noncanonical is not None:
        return f"the head event seq {st.size} does not link to seq {st.size - 1}"
    off = st.officials.get(ev.actor)
    if off is None or not verify_signature(_raw_key(off.public_key), ev.sig,
                                           SIG_DOMAIN + parsed.signed_bytes):
        return f"the signature of the head event seq {st.size} does not verify"
    return role_problem(st, ev)


def authority_problem(read: LeafReader, st: TournamentState, actor: str) -> str | None:
    """Why ``actor`` is not an official by verified leaves (None when it is)."""
    off = st.officials.get(actor)
    org = st.officials.get(st.organizer)
    if off is None or org is None:
        return None  # the rules refuse an unknown signer on their own
    genesis = read.at(1)
    try:
        g = parse_leaf(genesis or b"").event
    except Exception:  # noqa: BLE001
        return "the genesis event is unreadable"
    org_pub = _raw_key(org.public_key)
    if not isinstance(g.body, TournamentCreated) or \
            g.body.head_judge.key_id != st.organizer or \
            g.body.head_judge.public_key != org.public_key or \
            not verify_signature(org_pub, g.sig, SIG_DOMAIN + parse_leaf(
                genesis or b"").signed_bytes):
        return "the cached organizer is not the one genesis names"
    if off.added_seq == 1:
        return None if actor == st.organizer else f"key {actor} is not in genesis"
    leaf = read.at(off.added_seq)
    try:
        parsed = parse_leaf(leaf or b"")
    except Exception:  # noqa: BLE001
        return f"the event that added key {actor} is unreadable"
    body = parsed.event.body
    if not isinstance(body, OfficialAdded) or body.key_id != actor or \
            body.public_key != off.public_key or body.role not in off.roles or \
            parsed.event.actor != st.organizer or \
            not verify_signature(org_pub, parsed.event.sig,
                                 SIG_DOMAIN + parsed.signed_bytes):
        return f"key {actor} is not an official by seq {off.added_seq}"
    return None


@dataclass
class Trust:
    """What one writer process verified or signed itself: the head it may sign on top
    of without checking it again, and the officials whose authority leaves it verified
    (keyed by everything ``authority_problem`` compares, so a changed entry is checked
    again).  Held in memory only, by a session that keeps its aggregate: a state it did
    not fold itself (a reload, events of other writers) has another head and is
    verified as usual."""

    head: tuple[int, str] | None = None
    officials: set[tuple[str, ...]] = field(default_factory=set)

    def holds_head(self, st: TournamentState) -> bool:
        return self.head == (st.size, st.head)

    def authority_key(self, st: TournamentState, actor: str) -> tuple[str, ...] | None:
        off, org = st.officials.get(actor), st.officials.get(st.organizer)
        if off is None or org is None:
            return None
        return (actor, str(off.added_seq), off.public_key, *sorted(off.roles),
                st.organizer, org.public_key)

    def holds_authority(self, st: TournamentState, actor: str) -> bool:
        key = self.authority_key(st, actor)
        return key is not None and key in self.officials

    def hold_authority(self, st: TournamentState, actor: str) -> None:
        key = self.authority_key(st, actor)
        if key is not None:
            self.officials.add(key)
