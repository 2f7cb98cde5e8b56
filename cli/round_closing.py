"""What a command that may have closed a round prints: the words of
``usecases.rounds.after_round_closed``'s answer (the stop rule's verdict, or the bracket's
progress, or the champion, or the format's own word that a round is complete; the automatic
checkpoint when a head judge signed, else a hint to run ``tourney checkpoint``).  Shared by
``tourney result record|correct|import`` and ``tourney drop``.

Owns: ``closing`` and ``closing_words``.

May import: ``cli.common``, ``usecases.*``, ``ledger.*`` (no format package).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cli.common import Session, seq_span

if TYPE_CHECKING:
    from ledger.core.state import TournamentState
    from ledger.storage.store import Ledger
    from ledger.wire.events import SignedEvent
    from ledger.wire.keys import Signer
    from usecases.rounds import AfterRound


def closing(s: Session, led: Ledger, log: str, signer: Signer, state: TournamentState,
            events: list[SignedEvent]) -> tuple[dict[str, Any], list[str]]:
    """What a command that may have closed a round adds to its output (JSON, lines): the
    words of ``usecases.rounds.after_round_closed``'s answer (the verdict, the champion,
    the checkpoint a head judge's command signs, else a hint to sign one)."""
    from cli.common import note
    from usecases.rounds import Closing, after_round_closed

    def failed(out: AfterRound) -> None:
        done = (f"round {out.round} complete" if out.closing is Closing.GAME
                else f"{seq_span(events)} written")
        note(f"{done}, but the checkpoint failed")

    return closing_words(after_round_closed(
        led, log, signer, state, events, mirror=lambda: s.checkpoint_dir(led, log),
        failed=failed))


def closing_words(out: AfterRound | None) -> tuple[dict[str, Any], list[str]]:
    """An ``AfterRound`` as the CLI prints it (JSON fields, lines)."""
    from cli.common import WrittenCheckpoint
    from usecases.rounds import Closing

    if out is None:
        return {"round_closed": None, "verdict": None, "champion": None,
                "checkpoint": None}, []
    cp = None if out.checkpoint is None else \
        WrittenCheckpoint(out.checkpoint.size, out.checkpoint.root, out.checkpoint.path)
    if out.closing is Closing.GAME or out.closed is None:
        return {"game_complete": True, "verdict": out.verdict,
                "checkpoint": None if cp is None else cp.json()}, \
            [out.verdict] + ([] if cp is None else [f"checkpoint: {cp}"])
    closed, n, champ = out.closed, out.round, out.champion is not None
    if out.closing is Closing.SWISS:
        gone = (f"; eliminated: {', '.join(f'#{p}' for p in closed.eliminated)}"
                if closed.eliminated else "")
        lines = [f"round {n} closed: {out.verdict}{gone}"]
    else:
        lines = [f"round {n} closed (top cut): {out.verdict}"]
    extra: dict[str, Any] = {
        "round_closed": {"round": n, "phase": closed.phase.value,
                         "undefeated": closed.undefeated, "one_loss": closed.one_loss,
                         "eliminated": list(closed.eliminated),
                         "swiss_over": closed.swiss_over},
        "verdict": out.verdict, "champion": out.champion, "checkpoint": None}
    if champ:
        extra["sealed"] = cp is not None  # the end-of-event checkpoint (docs/DESIGN.md §4)
    if cp is not None:
        extra["checkpoint"] = cp.json()
        lines.append(f"{'end-of-event checkpoint (sealed)' if champ else 'checkpoint'}: {cp}")
    elif champ:
        hint = ("the event is not sealed until the head judge signs the end-of-event "
                "checkpoint: tourney checkpoint --key FILE (or tourney publish)")
        extra["hint"] = hint
        lines.append(f"hint: {hint}")
    else:
        hint = "the head judge should now sign a checkpoint: tourney checkpoint --key FILE"
        extra["hint"] = hint
        lines.append(f"hint: {hint}")
    return extra, lines
