"""What happens after a round closes, for the desk and the station alike (issue 28 item 2).

Owns: ``after_round_closed`` — given the events one command wrote and the state they
left: which round they closed (``Closing``: a Swiss round, a bracket round, the final
with its champion, or a round the format closes without a ``round_closed`` event, such
as a Wheel of Time Game), the verdict in words (what comes next: the format's
``next_step`` / ``round_verdict``), the champion, and the automatic checkpoint
(docs/DESIGN.md §4: written at once when the signer is a head judge, so the round's
receipts upgrade to inclusion proofs; the end-of-event checkpoint seals the event).
``round_outcome`` is the same answer without the checkpoint; ``head_judge_of`` picks,
among the keys a station holds, the one that may sign it; ``events_of`` gathers the signed
events among a station job's outputs.  ``result record``, ``result
import``, ``drop`` and the live server's writer (``server.station``) call these; what
they print or show of the answer is theirs.

May import: ``ledger.*``, ``projections.result_words``.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ledger.core.plugin import require_plugin
from projections.result_words import player_label

if TYPE_CHECKING:
    from ledger.core.state import TournamentState
    from ledger.formats.match.events import RoundClosed
    from ledger.storage.store import Ledger
    from ledger.wire.events import SignedEvent
    from ledger.wire.keys import Signer


class Closing(enum.Enum):
    """Which kind of round the events closed."""

    SWISS = "swiss"          # a Swiss round: its verdict says what comes next
    BRACKET = "bracket"      # a bracket round, the bracket goes on
    CHAMPION = "champion"    # the final: the champion is declared
    GAME = "game"            # a round the format completes without ``round_closed``


@dataclass(frozen=True)
class Checkpoint:
    """The checkpoint signed after the round: stored in the ledger, maybe mirrored to a
    note file (``path``)."""

    size: int
    root: bytes
    path: Path | None = None


@dataclass(frozen=True)
class AfterRound:
    """A round the events closed, what comes next, and its checkpoint (None: the signer
    is no head judge, or it was not asked for)."""

    closing: Closing
    round: int
    verdict: str
    closed: RoundClosed | None = None        # the ``round_closed`` body (not for GAME)
    champion: int | None = None              # the final's (or a last Swiss round's)
    checkpoint: Checkpoint | None = None


def round_outcome(state: TournamentState, events: list[SignedEvent]) -> AfterRound | None:
    """The round ``events`` closed and its verdict (None: they closed none)."""
    from ledger.formats.match.events import ChampionDeclared, RoundClosed
    from ledger.formats.match.model import Phase

    plugin = require_plugin(state.format.id if state.format else "")
    round_no = getattr(events[0].body, "round", 0) if events else 0
    said = plugin.round_verdict(state, round_no)
    if said is not None:
        return AfterRound(Closing.GAME, round_no, said)
    closed = next((e.body for e in events if isinstance(e.body, RoundClosed)), None)
    if closed is None:
        return None
    champ = next((e.body for e in events if isinstance(e.body, ChampionDeclared)), None)
    number = None if champ is None else champ.number
    if closed.phase is Phase.SWISS:  # what comes next is the format's to say (defect 13)
        verdict = (f"{closed.undefeated} undefeated; "
                   + ("Swiss phase over: " if closed.swiss_over else "Swiss continues: ")
                   + plugin.next_step(state))
        return AfterRound(Closing.SWISS, closed.round, verdict, closed, number)
    if number is not None:
        return AfterRound(Closing.CHAMPION, closed.round,
                          f"champion: {player_label(state, number)}", closed, number)
    return AfterRound(Closing.BRACKET, closed.round,
                      f"{closed.undefeated} players remain in the bracket: pair the next "
                      "bracket round with tourney bracket", closed)


def after_round_closed(led: Ledger, log: str, signer: Signer, state: TournamentState,
                       events: list[SignedEvent], *,
                       mirror: Callable[[], Path | None] = lambda: None,
                       failed: Callable[[AfterRound], None] = lambda _out: None
                       ) -> AfterRound | None:
    """``round_outcome`` and, when a round closed, the automatic checkpoint signed by
    ``signer`` if it is a head judge (docs/DESIGN.md §4).  ``mirror()`` names the
    directory its note file is also written to (None: the ledger only); ``failed(out)`` is
    called before a failed checkpoint's error propagates (what was written stays)."""
    from ledger.errors import TourneyError
    from ledger.proofs.checkpoint_store import checkpoint_if_head_judge

    out = round_outcome(state, events)
    if out is None:
        return None
    where = mirror()
    try:
        cp = checkpoint_if_head_judge(led, log, signer, where, state=state)
    except TourneyError:
        failed(out)
        raise
    if cp is None:
        return out
    path = None if where is None else where / f"{cp.size}.note"
    return AfterRound(out.closing, out.round, out.verdict, out.closed, out.champion,
                      Checkpoint(cp.size, cp.root, path))


def head_judge_of(state: TournamentState, signers: Iterable[Signer]) -> Signer | None:
    """The first of ``signers`` that is a current head judge (who signs a checkpoint)."""
    from ledger.wire.events import Role

    return next((s for s in signers if Role.HEAD_JUDGE in state.active_roles(s.key_id)),
                None)


def events_of(outputs: Iterable[Any]) -> list[SignedEvent]:
    """The signed events among commands' outputs (an event, a list or tuple of them)."""
    from ledger.wire.events import SignedEvent

    found: list[SignedEvent] = []
    for out in outputs:
        if isinstance(out, SignedEvent):
            found.append(out)
        elif isinstance(out, list | tuple):
            found += events_of(out)
    return found
