"""What a judge sees on the staff page during a deck check (issue 30 item 4): each check in
progress with the table's players and their registered lists — the text when the list was
kept on the log or handed in from the player's card (the station's store,
``usecases.decklists``), else its hash (``deck register --hash-only``: the paper sheet is
the list).

Owns: ``DeckInCheck``, ``checks_in_progress`` (read from the followed state and the
registering events' leaves, on a read-only connection of its own).

May import: ``ledger.*``, ``server.hub``, ``usecases.decklists``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from server.hub import Hub


@dataclass
class DeckInCheck:
    start_seq: int
    round: int
    table: int
    started: str
    #: (player number, the list's text or None, its sha256, the registering event's seq)
    lists: list[tuple[int, str | None, str, int]] = field(default_factory=list)


def checks_in_progress(hub: Hub) -> list[DeckInCheck]:
    """The deck checks started and not ended, oldest first, with the lists."""
    from ledger.formats.match.model import MatchState
    from ledger.formats.match.plan import open_round
    from ledger.storage.store import Ledger
    from ledger.wire.events import open_leaf
    from usecases.decklists import deck_dir, kept_text

    st = hub.follower.state
    store = deck_dir(hub.location)
    if not isinstance(st.fmt, MatchState):
        return []
    o = st.fmt.officiating
    going = sorted((seq, c) for seq, c in o.deck_checks.items() if not c.ended_seq)
    if not going:
        return []
    rnd = open_round(st)
    out: list[DeckInCheck] = []
    with Ledger(hub.location, readonly=True) as led:
        for seq, c in going:
            tab = next((t for t in rnd.tables if t.table == c.table), None) \
                if rnd is not None and rnd.number == c.round else None
            item = DeckInCheck(start_seq=seq, round=c.round, table=c.table, started=c.started)
            for n in tab.players if tab is not None else []:
                reg = o.deck_seqs.get(n)
                if reg is None:
                    continue
                leaf = led.raw_leaf(st.log, reg)
                text = getattr(open_leaf(leaf).body, "list", None) if leaf else None
                if not isinstance(text, str):    # a list handed in from the card
                    text = kept_text(store, o.decks[n])
                item.lists.append((n, text, o.decks[n], reg))
            out.append(item)
    return out
