"""Rules of verifiable seeds and of draws: one implementation for command side and audit.

Owns: ``check_seed`` (each provenance of ``seed_recorded``: ``entered``, ``random_org``,
``drand``, ``commit_reveal``), ``check_commitment`` (``seed_committed``) and ``check_draw_hygiene``
(a seed serves one draw context; a player draw is over the registered players or the
active roster).  Raise ``RuleError`` with the audit's finding code.  Importing it plugs them
into the core (``ledger.core.rules.checks``, ``ledger.core.rule_plugins.draw_checks``): the
core names no layer above it (docs/adr/0039-layering-layers-and-rule-ids.md);
``ledger.formats.registry`` names it
(``ledger.core.rule_plugins``) and the first check that needs it imports it.

May import: ``ledger.errors``, ``ledger.wire.events``, ``ledger.core.state``, ``ledger.core.draw``,
``ledger.core.rules`` and ``ledger.core.rule_plugins`` (to register),
``ledger.proofs.checkpoint``, ``ledger.wire.clock``, ``ledger.core.roster``,
``ledger.randomness.*``.
Time and draw binding (issue 21) is ``ledger.randomness.binding``.
"""

from __future__ import annotations

import base64
import binascii
import re

from ledger.core.draw import seed_from_material
from ledger.core.roster import not_still_in, registered, roster
from ledger.core.rule_plugins import draw_checks
from ledger.core.rules import checks
from ledger.core.state import TournamentState
from ledger.errors import RuleError
from ledger.proofs.checkpoint import (
    CheckpointError,
    note_key_hash,
    parse_checkpoint_note,
    verify_checkpoint_note,
)
from ledger.randomness import drand, random_org
from ledger.randomness.binding import (
    check_beacon_once,
    check_commitment_unique,
    check_fresh,
    check_not_bypassed,
    check_user_data,
    latest_unix,
    random_org_time,
)
from ledger.randomness.commit import commitment, reveal_material
from ledger.wire.clock import parse_time
from ledger.wire.events import DrawMade, Role, SeedCommitted, SeedRecorded

_UNIVERSE = re.compile(r"^[a-z][a-z0-9_]{0,31}$")
RULE = "DESIGN-6"


def _attestation(body: SeedRecorded) -> bytes:
    if body.attestation is None:
        raise RuleError(RULE, f"a {body.provenance} seed needs its attestation (the foreign "
                        "bytes, base64)", finding="seed_attestation_missing")
    try:
        return base64.b64decode(body.attestation, validate=True)
    except (binascii.Error, ValueError):
        raise RuleError(RULE, "attestation is not base64",
                        finding="seed_attestation_missing") from None


def _hex(text: str | None, what: str, finding: str) -> bytes:
    try:
        return bytes.fromhex(text or "")
    except ValueError:
        raise RuleError(RULE, f"{what} is not hex", finding=finding) from None


def _beacon(body: SeedRecorded, chain: str, rnd: int) -> bytes:
    """Verify the drand beacon of the attestation for (chain, round); its randomness."""
    data = _attestation(body)
    try:
        beacon = drand.parse_beacon(data, chain)
        if beacon.round != rnd:
            raise drand.BeaconError(f"attested beacon is round {beacon.round}, the seed "
                                    f"says round {rnd}", code="drand_round_mismatch")
        return drand.verify_beacon(beacon)
    except drand.BeaconError as exc:
        raise RuleError(RULE, exc.message, finding=exc.code) from None


def check_seed(state: TournamentState, body: SeedRecorded) -> None:
    """Every rule of one ``seed_recorded``, by provenance."""
    if not body.material:
        raise RuleError("LEDGER-RAND-1", "seed material is empty",
                        hint="enter exactly what the randomizer gave")
    if not body.reason.strip() or not body.source.strip():
        raise RuleError("LEDGER-RAND-1", "a seed needs a reason and a source",
                        hint="pass --reason and --source")
    if body.provenance == "random_org":
        _random_org(state, body)
    elif body.provenance == "drand":
        if body.chain is None or body.round is None:
            raise RuleError(RULE, "a drand seed names its chain and round",
                            finding="drand_malformed")
        rand = _beacon(body, body.chain, body.round)
        if body.material != rand.hex():
            raise RuleError(RULE, "drand seed material is not SHA-256(signature) of the "
                            "attested beacon", finding="drand_randomness_mismatch")
        check_beacon_once(state, body.chain, body.round)          # issue 21 item 1
        check_fresh(state, drand.round_time(body.chain, body.round),
                    f"drand {body.chain} round {body.round}")
    elif body.provenance == "commit_reveal":
        _commit_reveal(state, body)
    if body.seed != seed_from_material(body.material).hex():
        raise RuleError(RULE, "seed is not SHA-256('tourney-seed/v1\\0' + material)",
                        finding="seed_mismatch")


def _random_org(state: TournamentState, body: SeedRecorded) -> None:
    try:
        signed = random_org.verify_signed(_attestation(body))
    except random_org.RandomOrgError as exc:
        raise RuleError(RULE, exc.message, finding=exc.code) from None
    if body.material.encode("utf-8") != signed.random_raw:
        raise RuleError(RULE, "seed material is not the signed 'random' object verbatim",
                        finding="random_org_mismatch")
    if body.serial != str(signed.serial) or body.hashed_api_key != signed.hashed_api_key:
        raise RuleError(RULE, "serial or hashed_api_key differ from the signed object",
                        finding="random_org_mismatch")
    # issue 21 item 1: every response (the first of an API key too) is bound to time and,
    # through userData where present, to this draw
    check_fresh(state, random_org_time(signed.completion_time),
                f"RANDOM.ORG response serial {signed.serial}")
    check_user_data(state, body, signed.random_raw)
    last = state.random_org_serials.get(signed.hashed_api_key)
    if last is None:
        return
    if signed.serial <= last:
        raise RuleError(RULE, f"RANDOM.ORG serial {signed.serial} is not after the last "
                        f"recorded serial {last} of this API key (a response used twice or "
                        "out of order)", hint="request a fresh signed response",
                        finding="random_org_serial_reused")
    if signed.serial != last + 1 and not (body.gap_reason or "").strip():
        raise RuleError(RULE, f"RANDOM.ORG serials {last + 1}..{signed.serial - 1} of this "
                        "API key were never recorded (an unlogged request: a possible "
                        "re-roll)", hint="import every response, or state why with "
                        "--gap-reason", finding="random_org_serial_gap")


def _head_judge_keys(state: TournamentState, size: int) -> list[bytes]:
    return [base64.b64decode(o.public_key) for o in state.officials.values()
            if Role.HEAD_JUDGE in o.roles and o.added_seq <= size
            and (o.revoked_seq is None or o.revoked_seq > size)]


def _commit_reveal(state: TournamentState, body: SeedRecorded) -> None:
    com = state.commitments.get(body.commit_seq or 0)
    if com is None:
        raise RuleError(RULE, f"seq {body.commit_seq} is not a seed commitment",
                        hint="commit first with 'tourney seed commit'",
                        finding="commit_unknown")
    if com.revealed_seq is not None:
        raise RuleError(RULE, f"commitment {com.seq} was already revealed at seq "
                        f"{com.revealed_seq}", finding="commit_reused")
    if (body.chain, body.round) != (com.chain, com.round):
        raise RuleError(RULE, f"the reveal names {body.chain} round {body.round} but the "
                        f"commitment is for {com.chain} round {com.round}",
                        finding="drand_round_mismatch")
    if body.ctx != com.ctx:
        raise RuleError(RULE, f"the reveal's ctx {body.ctx!r} is not the commitment's "
                        f"{com.ctx!r}", finding="draw_seed_other_ctx")
    salt = _hex(body.salt, "salt", "reveal_mismatch")
    secret = _hex(body.secret, "secret", "reveal_mismatch")
    if commitment(salt, secret).hex() != com.commitment:
        raise RuleError(RULE, f"reveal does not open commitment seq {com.seq}",
                        finding="reveal_mismatch")
    _sealed_before_beacon(state, body, com.seq, com.time, com.chain, com.round)
    rand = _beacon(body, com.chain, com.round)
    if body.material != reveal_material(salt, secret, rand):
        raise RuleError(RULE, "commit-reveal material is not commit-reveal/v1:salt:secret:"
                        "beacon randomness", finding="seed_mismatch")


def _sealed_before_beacon(state: TournamentState, body: SeedRecorded, commit_seq: int,
                          commit_time: str, chain: str, rnd: int) -> None:
    """The commitment is inside a head-judge checkpoint, and was made before the beacon
    round was published (T16).  The audit also checks the note's root against the log."""
    bad = "no checkpoint proves the commitment predates beacon round"
    if body.checkpoint is None:
        raise RuleError(RULE, f"{bad} {rnd}: the reveal carries no checkpoint",
                        finding="commitment_not_sealed")
    note = body.checkpoint.encode("utf-8")
    try:
        cp, sigs = parse_checkpoint_note(note)
        origin = f"tourney/{state.log}"
        if cp.origin != origin:
            raise CheckpointError(f"origin {cp.origin!r} is not {origin!r}")
        for pub in _head_judge_keys(state, cp.size):
            if any(s.key_hash == note_key_hash(origin, pub) for s in sigs):
                verify_checkpoint_note(note, origin, pub, expected_origin=origin)
                break
        else:
            raise CheckpointError("not signed by a head judge of this tournament")
    except CheckpointError as exc:
        raise RuleError(RULE, f"{bad} {rnd}: {exc.message}",
                        finding="commitment_not_sealed") from None
    if not commit_seq <= cp.size <= state.size:
        raise RuleError(RULE, f"{bad} {rnd}: the checkpoint (size {cp.size}) does not cover "
                        f"the commitment at seq {commit_seq}", finding="commitment_not_sealed")
    published = drand.round_time(chain, rnd)
    if parse_time(commit_time).timestamp() >= published:
        raise RuleError(RULE, f"{bad} {rnd}: committed at {commit_time} (the latest claimed "
                        "time of the log up to the commitment), after the round was "
                        "published", finding="commitment_not_sealed")
    _witnessed_before(state, note, published, f"{bad} {rnd}")


def _witnessed_before(state: TournamentState, note: bytes, published: int,
                      bad: str) -> None:
    """Issue 21 item 2: under a genesis witness policy, claimed times are not enough: a
    valid cosignature of an unrevoked witness on the checkpoint covering the commitment
    must be older than the beacon round (an independent clock saw the commitment)."""
    if state.ledger_policy.witness_quorum == 0:
        return
    from ledger.proofs.checkpoint import split_note
    from ledger.proofs.cosign import cosignatures, witnesses_of

    cp, _sigs = parse_checkpoint_note(note)
    witnesses = witnesses_of(state)
    live = {w.key_id for w in witnesses.values()
            if w.revoked_seq is None or w.revoked_seq > cp.size}
    text, sigs = split_note(note)
    stamps = [co.timestamp for co in cosignatures(text, sigs, witnesses)
              if co.valid and co.key_id in live]
    if not stamps or min(stamps) >= published:
        seen = "none" if not stamps else f"the earliest is unix {min(stamps)}"
        raise RuleError(RULE, f"{bad}: the genesis policy asks for witnesses, and no witness "
                        f"cosigned the checkpoint before the round was published ({seen})",
                        hint="have a witness cosign the commitment's checkpoint before the "
                             "beacon round (pick a round far enough ahead with --lead)",
                        finding="commitment_not_sealed")


def check_commitment(state: TournamentState, body: SeedCommitted) -> None:
    if len(body.commitment) != 64 or not all(c in "0123456789abcdef"
                                             for c in body.commitment):
        raise RuleError(RULE, "commitment is not 64 lowercase hex digits",
                        finding="rule_violation")
    try:
        drand.chain_of(body.chain)
    except drand.BeaconError as exc:
        raise RuleError(RULE, exc.message, finding=exc.code) from None
    if not 1 <= body.round <= drand.MAX_ROUND:
        raise RuleError(RULE, f"beacon round {body.round} is out of range")
    if not body.reason.strip():
        raise RuleError("LEDGER-RAND-1", "a commitment needs a reason", hint="pass --reason")
    # issue 21 items 2–3: the draw has no other commitment, and the round is still in the
    # future by the log's own latest time
    check_commitment_unique(state, body)
    latest = latest_unix(state)
    if latest is not None and drand.round_time(body.chain, body.round) <= latest:
        raise RuleError(RULE, f"{body.chain} round {body.round} was published before the "
                        f"log's latest event ({state.latest_time}): a commitment must "
                        "precede its beacon round", hint="pick a later round",
                        finding="commitment_not_sealed")


def _parent(ctx: str) -> str:
    return ctx.rpartition("/")[0]


def _same_decision(state: TournamentState, body: DrawMade) -> bool:
    """An unbound seed may serve several draws of ONE decision only: back to back (the
    draws of one command, e.g. ``<log>/R3/bye`` then ``<log>/R3/pairing``), under one
    parent context at least two levels deep."""
    if state.last_draw != [state.size, body.seed_seq]:
        return False
    prev = next((c for c, seq in state.draws.items() if seq == state.size), None)
    parent = _parent(body.ctx)
    return prev is not None and "/" in parent and _parent(prev) == parent


def check_draw_hygiene(state: TournamentState, body: DrawMade) -> None:
    """A seed serves exactly one draw context; player draws are over players still in;
    a committed draw uses its reveal (issue 21 item 3)."""
    check_not_bypassed(state, body)
    seed = state.seeds[body.seed_seq]
    if seed.ctx is not None:
        if body.ctx != seed.ctx and not body.ctx.startswith(seed.ctx + "/"):
            raise RuleError("LEDGER-RAND-1", f"seed seq {seed.seq} was recorded for "
                            f"{seed.ctx!r}, not for {body.ctx!r}",
                            hint="record a fresh seed for this draw",
                            finding="draw_seed_other_ctx")
    elif body.seed_seq in state.used_seeds and not _same_decision(state, body):
        raise RuleError("LEDGER-RAND-1", f"seed seq {seed.seq} already served another "
                        "decision (a seed serves exactly one draw context)",
                        hint="record a fresh seed for this draw", finding="draw_seed_reused")
    if body.universe is None:
        gone = not_still_in(state, body.items)
        if gone:
            raise RuleError("LEDGER-RAND-1", f"draw items {gone} are not registered players "
                            "still in the event", hint="draw over the active roster, or "
                            "declare another universe (--universe tables)",
                            finding="draw_items_not_roster")
    elif body.universe == "players":
        if body.items != registered(state) and body.items != roster(state):
            raise RuleError("LEDGER-RAND-1", "a draw over the players must list every "
                            "registered player or the whole active roster",
                            hint="omit --items to draw over the active roster",
                            finding="draw_items_not_roster")
    elif not _UNIVERSE.match(body.universe):
        raise RuleError("LEDGER-RAND-1", f"universe {body.universe!r} is not a short "
                        "lowercase name", hint="e.g. --universe tables")


@checks(SeedRecorded)
def _seed_recorded(state: TournamentState, body: SeedRecorded, actor: str) -> None:
    check_seed(state, body)  # every provenance


@checks(SeedCommitted)
def _seed_committed(state: TournamentState, body: SeedCommitted, actor: str) -> None:
    check_commitment(state, body)


draw_checks(check_draw_hygiene)
