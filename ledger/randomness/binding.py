"""Seeds bound to time and to their draw (issue 21 items 1–3, THREATS T16, T21, T23; ADR 0016).

Owns the rules that stop a head judge from *choosing* among genuine randomness:

* ``check_fresh`` — a verified seed (a drand beacon, a RANDOM.ORG response) was published
  after every event already in the log (its latest claimed time, so after genesis and
  after the event that made the draw necessary): a past beacon is not a seed
  (``seed_predates_need``).
* ``check_beacon_once`` — one drand beacon seeds one ``seed_recorded`` per log
  (``drand_beacon_reused``).
* ``check_user_data`` — a RANDOM.ORG ``userData``, where present, names this draw: the
  seed's ctx, or the log id (``random_org_userdata_mismatch``), so one response cannot
  seed two tournaments.
* ``check_commitment_unique`` — one commitment per draw context (and one open commitment
  without a context at a time): committing again for the same draw is grinding
  (``commitment_duplicate``).
* ``check_not_bypassed`` — a draw under a committed context uses that commitment's reveal
  (unless the reveal already served a draw of it, as a voided round's re-pair does):
  abandoning a commitment and typing material instead is ``commitment_bypassed``.
* ``commitment_time`` — a commitment is judged by the latest claimed time of the events up
  to it, never by its own (a backdated commitment).

Pure functions of the state before the event: the command side and the audit call them
through ``ledger.randomness.rules`` (one implementation).

May import: ``ledger.errors``, ``ledger.wire.events``, ``ledger.core.state``, ``ledger.wire.clock``,
``ledger.randomness.drand``.
"""

from __future__ import annotations

from datetime import UTC, datetime

import msgspec

from ledger.core.state import TournamentState
from ledger.errors import RuleError
from ledger.wire.clock import later_time, parse_time
from ledger.wire.events import DrawMade, SeedCommitted, SeedRecorded

RULE = "DESIGN-6"


def _iso(unix: float) -> str:
    return datetime.fromtimestamp(unix, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def latest_unix(state: TournamentState) -> float | None:
    """The log's latest claimed time so far as unix seconds (None: empty or malformed;
    the audit flags a malformed time itself, ``time_malformed``)."""
    try:
        return parse_time(state.latest_time).timestamp() if state.latest_time else None
    except ValueError:
        return None


def check_fresh(state: TournamentState, published: float | None, what: str) -> None:
    """``published`` (unix seconds) is after the latest claimed time of the log so far."""
    latest = latest_unix(state)
    if latest is None:
        return
    if published is None:
        raise RuleError(RULE, f"{what} carries no publication time: nothing shows it was "
                        f"made after the log's latest event ({state.latest_time})",
                        hint="use a fresh response or beacon", finding="seed_predates_need")
    if published <= latest:
        raise RuleError(RULE, f"{what} was published at {_iso(published)}, not after the "
                        f"log's latest event ({state.latest_time}): a seed must be newer "
                        "than the events that made its draw necessary (else the head judge "
                        "could pick among past ones)", hint="take a beacon round or a "
                        "RANDOM.ORG response made from now on", finding="seed_predates_need")


def check_beacon_once(state: TournamentState, chain: str, rnd: int) -> None:
    seq = state.beacons_used.get(f"{chain}:{rnd}")
    if seq is not None:
        raise RuleError(RULE, f"drand {chain} round {rnd} already seeded seq {seq}: a beacon "
                        "serves one seed per log", hint="take a later round",
                        finding="drand_beacon_reused")


def random_org_time(text: str) -> float | None:
    """RANDOM.ORG ``completionTime`` ("2014-06-03 17:15:13Z") as unix seconds, or None."""
    if not text:
        return None
    t = text.strip().replace(" ", "T", 1)
    if t.endswith("Z") and "." not in t:
        t = t[:-1] + ".000000Z"
    try:
        return parse_time(t).timestamp()
    except ValueError:
        return None


class _UserData(msgspec.Struct):
    userData: object = None  # noqa: N815 - RANDOM.ORG's field name


def check_user_data(state: TournamentState, body: SeedRecorded, random_raw: bytes) -> None:
    """``userData`` of the signed ``random`` object, when present, names this draw."""
    try:
        data = msgspec.json.decode(random_raw, type=_UserData).userData
    except (msgspec.DecodeError, msgspec.ValidationError):
        return  # verify_signed already parsed it; nothing more to say
    if data is None:
        return
    wanted = [body.ctx] if body.ctx else [state.log]
    ok = isinstance(data, str) and (data in wanted or (
        not body.ctx and data.startswith(state.log + "/")))
    if not ok:
        raise RuleError(RULE, f"the RANDOM.ORG response's userData {str(data)[:80]!r} does "
                        f"not name this draw ({wanted[0]!r}): it was requested for another "
                        "event or draw", hint="request a response with userData set to the "
                        "seed's --ctx (or the tournament id)",
                        finding="random_org_userdata_mismatch")


def covers(com_ctx: str, ctx: str) -> bool:
    return ctx == com_ctx or ctx.startswith(com_ctx + "/")


def check_commitment_unique(state: TournamentState, body: SeedCommitted) -> None:
    for com in state.commitments.values():
        same = com.ctx == body.ctx if body.ctx is not None else (
            com.ctx is None and com.revealed_seq is None)
        if same:
            raise RuleError(RULE, f"seq {com.seq} already committed for "
                            f"{body.ctx or 'a draw without a context'}: one commitment per "
                            "draw (several would let the head judge reveal the one they "
                            "like)", hint="reveal the existing commitment",
                            finding="commitment_duplicate")
    if body.ctx is not None and any(covers(body.ctx, c) for c in state.draws):
        raise RuleError(RULE, f"{body.ctx!r} was already drawn: a commitment precedes its "
                        "draw", hint="commit for the next draw's context",
                        finding="commitment_duplicate")


def check_not_bypassed(state: TournamentState, body: DrawMade) -> None:
    for com in state.commitments.values():
        if com.ctx is None or not covers(com.ctx, body.ctx):
            continue
        if com.revealed_seq == body.seed_seq:
            continue
        if com.revealed_seq is not None and com.revealed_seq in state.used_seeds:
            continue  # the reveal served its draw; a re-pair after a void draws afresh
        how = "is not revealed" if com.revealed_seq is None else \
            f"was revealed at seq {com.revealed_seq}"
        raise RuleError(RULE, f"draw {body.ctx!r} uses seed seq {body.seed_seq}, but "
                        f"commitment seq {com.seq} for {com.ctx!r} {how}: a committed draw "
                        "uses its reveal", hint="reveal the commitment ('tourney seed "
                        "reveal') and draw with its seed", finding="commitment_bypassed")


def commitment_time(state: TournamentState, own: str) -> str:
    """The time a commitment is judged by: the latest claimed time up to and including it."""
    return later_time(state.latest_time, own)
