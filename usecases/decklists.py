"""Decklists handed in by players and published by the organizer (issue 30 item 4; ADR
0056): one implementation for ``tourney deck deadline|publish --top``, the API
(``cli.api_book``) and the player's ``/deck`` page.

Owns: ``set_deadline`` (the organizer's ``deck_deadline_set``), ``own_deck_refusal`` (why
player N may not hand in a list at ``time``, or None), ``submit_own_deck`` (a player's own
``deck_submitted``, signed by the station with their credential, REPORT-15: only the hash on
the log), the station-side text store (``deck_dir``, ``keep_text``, ``kept_text``: the list
of a hash, kept off the public log until published), ``logged_text`` (the list a registering
event kept on the log), ``top_numbers`` (the first K of the final standings) and
``publish_top`` (``deck_published`` for the top K, all or nothing).

May import: ``ledger.*``, ``projections.*``, ``msgspec``, the standard library.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from ledger.core.citing import acting_scope
from ledger.errors import UsageError
from ledger.formats.officiating.deck_floor import DeckDeadlineSet, DeckPublished, DeckSubmitted
from ledger.formats.officiating.deck_submit_rules import deadline_refusal
from ledger.formats.officiating.decklist_rules import list_hash
from ledger.wire.clock import format_time

if TYPE_CHECKING:
    from ledger.core.aggregate import Tournament
    from ledger.core.state import TournamentState
    from ledger.storage.location import Location
    from ledger.wire.events import SignedEvent
    from ledger.wire.keys import Signer

#: a list longer than this is not a decklist (the page refuses it, nothing kept)
MAX_LIST_CHARS = 20_000
#: where a PostgreSQL-backed station keeps players' list texts (a SQLite one: beside its file)
DECK_DIR_ENV = "TOURNEY_DECKLISTS"


def parse_deadline(text: str) -> str:
    """``--at`` as the log's time form (RFC 3339 UTC with Z); an offset is converted, a
    time without one is refused (the log's clock is UTC)."""
    try:
        dt = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise UsageError(f"--at {text!r} is not an ISO 8601 time",
                         hint="e.g. --at 2026-06-01T09:30:00Z") from None
    if dt.tzinfo is None:
        raise UsageError(f"--at {text!r} has no time zone",
                         hint="end it with Z (UTC) or an offset such as +02:00")
    return format_time(dt.astimezone(UTC))


def set_deadline(t: Tournament, signer: Signer, time: str, at: str) -> SignedEvent:
    return t.record(DeckDeadlineSet(at=parse_deadline(at)), signer, time)


def own_deck_refusal(state: TournamentState, number: int, time: str) -> str | None:
    """Why player ``number`` may not hand in their list at ``time`` (the log's clock), or
    None (the rules are the ledger's: ``deck_submit_rules``; this is the page's question)."""
    o = getattr(state.fmt, "officiating", None)
    if o is None:
        return "this event takes no decklists"
    if number in o.decks:
        return (f"your list is registered (seq {o.deck_seqs.get(number)}): a registered "
                "list does not change")
    return deadline_refusal(o, time)


def check_text(text: str) -> str:
    """The list as handed in: not blank, at most ``MAX_LIST_CHARS`` characters."""
    if not text.strip():
        raise UsageError("the decklist is empty", hint="paste your list or choose its file")
    if len(text) > MAX_LIST_CHARS:
        raise UsageError(f"the decklist is longer than {MAX_LIST_CHARS} characters",
                         hint="hand in the list itself, one card a line")
    return text


def submit_own_deck(t: Tournament, signer: Signer, time: str, number: int, credential: str,
                    text: str, device_sig: str | None = None,
                    device_use: int | None = None) -> SignedEvent:
    """Player ``number`` hands in ``text`` with ``credential`` (REPORT-15): the log keeps
    its hash; the caller keeps the text (``keep_text``) once this is recorded.  The
    ledger's own rules refuse a second list (BR-DECK-1) or one after the deadline
    (DECK-LIST-1) when it is recorded: no second copy of them here."""
    with acting_scope(credential, device_sig, device_use):
        ev: SignedEvent = t.record(DeckSubmitted(number=number,
                                                 sha256=list_hash(check_text(text))),
                                   signer, time)
    return ev


# -- the station-side store: the text of a list off the public log ------------------------
def deck_dir(location: Location) -> Path:
    """Where the lists' texts are kept: ``<ledger file>.decklists/`` for SQLite, else
    ``$TOURNEY_DECKLISTS`` (default ``./decklists``)."""
    if location.is_postgres:
        return Path(os.environ.get(DECK_DIR_ENV, "decklists"))
    return Path(f"{location.path}.decklists")


def keep_text(store: Path, text: str) -> Path:
    """Keep ``text`` under its hash (written whole, then renamed: never half a list)."""
    store.mkdir(parents=True, exist_ok=True, mode=0o700)
    path = store / f"{list_hash(text)}.txt"
    tmp = path.with_suffix(".part")
    tmp.write_bytes(text.encode("utf-8"))
    tmp.replace(path)
    return path


def kept_text(store: Path, sha256: str) -> str | None:
    """The kept text of ``sha256`` when it still hashes to it, else None."""
    path = store / f"{sha256}.txt"
    try:
        text = path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    return text if list_hash(text) == sha256 else None


def logged_text(body: object) -> str | None:
    """The list kept on the log by a registering event's body (``list``), if any."""
    text = getattr(body, "list", None)
    return text if isinstance(text, str) else None


def top_numbers(state: TournamentState, k: int) -> list[int]:
    """The players of the first ``k`` ranked rows of the final standings (the format's
    projection: the cut's order where the event had one); refused while a round is open."""
    from projections.standings_doc import standings_view

    view = standings_view(state)
    if view.open_round is not None:
        raise UsageError(f"round {view.open_round.number} is in progress: publish the lists "
                         "of the final standings after the event",
                         hint="publish one list with 'tourney deck publish N --file F'")
    rows = [r for r in view.rows if r.rank is not None and r.revoked is None]
    if any(r.members for r in rows[:k]):
        raise UsageError("a team event ranks teams: publish the members' lists one by one",
                         hint="tourney deck publish N --file F")
    return [r.number for r in rows[:k]]


def publish_top(t: Tournament, signer: Signer, time: str, k: int,
                texts: Mapping[str, str]) -> list[SignedEvent]:
    """``deck_published`` for each of the top ``k`` players not yet published, in rank
    order, each with the text of its current hash from ``texts`` (hash → text: the log's,
    the station's store, copies given); refused whole (nothing written) when one has no
    registered list or its text is not available."""
    if k < 1:
        raise UsageError("--top must be at least 1")
    o = t.state.fmt.officiating
    todo: list[tuple[int, str]] = []
    missing: list[str] = []
    for n in top_numbers(t.state, k):
        if n in o.decks_published:
            continue
        want = o.decks.get(n)
        text = texts.get(want) if want is not None else None
        if want is None:
            missing.append(f"#{n} has no registered list")
        elif text is None or list_hash(text) != want:
            missing.append(f"the text of #{n}'s list (sha256 {want[:16]}…) is not "
                           "available here")
        else:
            todo.append((n, text))
    if missing:
        raise UsageError("nothing published: " + "; ".join(missing),
                         hint="pass --dir with the lists as handed in (any file names; "
                         "each is matched by its SHA-256), or publish the others one by one")
    if not todo:
        raise UsageError(f"the lists of the top {k} are all published already")
    return [t.record(DeckPublished(number=n, list=text), signer, time) for n, text in todo]
