"""What an extension cites (issue 30 item 2; ADR 0052 and the ``clock`` ADR): a
``time_extended`` citing a judge call (CALL-6) or a deck check (BR-EXT-3) cites a
finished one at its own table, once, and records what the record proposes for it
(``call_extension.propose`` / ``propose_check``: the audit recomputes it,
``extension_proposal_mismatch``).

Owns: ``check_cited``.

May import: ``ledger.core.state``, ``ledger.errors``, ``ledger.formats.officiating.*``.
"""

from __future__ import annotations

from ledger.core.state import TournamentState
from ledger.errors import RuleError
from ledger.formats.officiating.call_extension import Proposal, propose, propose_check
from ledger.formats.officiating.floor import TimeExtended
from ledger.formats.officiating.rules import refusing_match_state


def check_cited(state: TournamentState, body: TimeExtended) -> None:
    """The call or deck check ``body`` cites, if any (one at most)."""
    if isinstance(body.call, int) and isinstance(body.deck_check, int):
        raise RuleError("CALL-6", "an extension cites one judge call or one deck check",
                        hint="record one extension for each", finding="call_invalid")
    if isinstance(body.call, int):
        _cited_call(state, body, body.call)
    elif isinstance(body.deck_check, int):
        _cited_check(state, body, body.deck_check)


def _cited_check(state: TournamentState, body: TimeExtended, seq: int) -> None:
    """BR-EXT-3: an extension citing a deck check cites an ended check of its own table,
    once, and records the minutes its start → end proposes (``propose_check``)."""
    o = refusing_match_state(state).officiating
    rec = o.deck_checks.get(seq)
    if rec is None or not rec.ended_seq or (rec.round, rec.table) != (body.round, body.table):
        raise RuleError("BR-EXT-3", f"seq {seq} is not an ended deck check at round "
                        f"{body.round} table {body.table}", hint="see 'tourney deck checks'",
                        finding="call_invalid")
    done = o.deck_extended.get(seq)
    if done is not None:
        raise RuleError("BR-EXT-3", f"deck check {seq} was already extended at seq "
                        f"{done[0]}", hint="one extension per deck check",
                        finding="call_invalid")
    _same_proposal(body, propose_check(state, seq, rec), f"deck check {seq}",
                   "'tourney deck checks'")


def _same_proposal(body: TimeExtended, p: Proposal, what: str, where: str) -> None:
    """The extension records what the record proposes (the audit recomputes it)."""
    turns = body.proposed_turns if isinstance(body.proposed_turns, int) else 0
    if body.proposed != p.minutes or turns != p.turns:
        said = f"{body.proposed} minute(s)" + (f" and {turns} turn(s)" if turns else "")
        raise RuleError(p.rule, f"{what}: the record proposes {p.amount}, the extension "
                        f"says {said}", hint=f"{where} gives the proposal",
                        finding="extension_proposal_mismatch")


def _cited_call(state: TournamentState, body: TimeExtended, seq: int) -> None:
    """CALL-6: an extension citing a judge call cites a closed call of its own table, once,
    and records the minutes the record proposes for it (``call_extension.propose``)."""
    call = state.calls.calls.get(seq)
    if call is None or call.closed_seq is None or \
            (call.round, call.table) != (body.round, body.table):
        raise RuleError("CALL-6", f"seq {seq} is not a closed judge call at round "
                        f"{body.round} table {body.table}", hint="see 'tourney call list "
                        "--all'", finding="call_invalid")
    done = state.calls.extended.get(call.seq)
    if done is not None:
        raise RuleError("CALL-6", f"judge call {call.seq} was already extended at seq "
                        f"{done[0]}", hint="one extension per call", finding="call_invalid")
    p = propose(state, call)
    if p.turns or isinstance(body.proposed_turns, int):
        _same_proposal(body, p, f"judge call {call.seq}", "'tourney call show'")
        return
    want = p.minutes
    if body.proposed != want:
        raise RuleError("CALL-6", f"judge call {call.seq}: the record proposes {want} "
                        f"minute(s), the extension says {body.proposed}",
                        hint="'tourney call show' gives the proposal",
                        finding="extension_proposal_mismatch")
