"""The live server's writer: one long-lived writer session that commits queued player
reports, drops and staff decisions together (issue 19; issue 22 item 8; ADR 0027).

Owns: ``Station`` — the station key (an official with the ``station`` role), the staff
keys the server was started with (``--staff-key``: a decision on the staff page is signed
with the deciding official's own key), and one writer thread.  Requests put a ``Job`` (its
commands, decided in order on the ledger as it is) on a queue and wait for its future; the
writer takes every job queued at that moment (at most ``BATCH``), decides them on the
aggregate it keeps in memory (``Ledger.session``: it catches up with what other writers —
the desk, a second server — appended) and commits them in one transaction
(``WriteSession.write_batch``).  A job is answered only after that commit: a receipt is
never given for an event that could still be lost.  Each commit sets ``size``, which the
response after a staff decision waits for (``Hub.fresh``): the staff page shows it.  A
refused command writes nothing and its refusal goes back to its request; the rest of the
batch is not affected.  What a job does is a use case of ``usecases`` (a player's report
and the result both reports agree on: ``usecases.results.agreed_result``), and so is what
follows when a job closed a round (``usecases.rounds.after_round_closed``, as at the desk).

May import: ``ledger.*``, ``usecases.*``, ``server.cards``, the standard library.
"""

from __future__ import annotations

import concurrent.futures
import queue
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ledger.core.state import TournamentState
from ledger.errors import RuleError, StorageError, TourneyError, UsageError, WriteAborted
from ledger.storage.location import Location
from ledger.wire.events import Role, SignedEvent
from ledger.wire.keys import Signer

if TYPE_CHECKING:
    from usecases.rounds import AfterRound

BATCH = 256          # jobs decided and committed together, at most
Command = Callable[[Any, str], Any]


def _at(command: Command, time: str) -> Command:
    """``command`` decided at ``time`` whatever the batch's clock says."""
    return lambda t, _now: command(t, time)


@dataclass
class Job:
    """Commands decided in order; the first one's outcome answers the request, the
    others (an agreement after a report) are best-effort and may be refused silently."""

    commands: Sequence[Command]
    future: concurrent.futures.Future[Any] = field(default_factory=concurrent.futures.Future)


class Station:
    """The server's station and its writer thread (see the module docstring)."""

    def __init__(self, location: Location, key: Path, log: str,
                 staff_keys: Sequence[Path] = ()) -> None:
        from ledger.wire.keys import load_signer

        self.location, self.log = location, log
        self.signer = load_signer(key)
        self.staff: dict[str, Signer] = {}
        for path in staff_keys:
            s = load_signer(path)
            self.staff[s.key_id] = s
        from server.cards import REFUSALS, Throttle

        #: refused reports and drops per player (a card cannot hammer the station)
        self.refusals = Throttle(REFUSALS)
        self._q: queue.Queue[Job | None] = queue.Queue()
        #: the log size after the newest commit (a response after a staff decision waits
        #: until the hub has folded it: ``Hub.fresh``)
        self.size = 0
        #: the newest round the server's writes closed: its verdict and checkpoint
        #: (``usecases.rounds.AfterRound``; None: none yet)
        self.closed: AfterRound | None = None
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()

    # -- roles ------------------------------------------------------------------------
    def check_role(self, state: TournamentState) -> None:
        if Role.STATION not in state.active_roles(self.signer.key_id):
            raise UsageError(f"key {self.signer.key_id} is not a station of this event",
                             hint="the head judge adds it: tourney official add --role "
                                  "station --public-key FILE.pub")
        for kid in self.staff:
            if not SIGNING_ROLES.intersection(state.active_roles(kid)):
                raise UsageError(f"staff key {kid} is not a current scorekeeper, judge, "
                                 "time-keeper or head judge of this event",
                                 hint="see 'tourney official list'")

    # -- the writer ---------------------------------------------------------------------
    def submit(self, *commands: Command) -> concurrent.futures.Future[Any]:
        """Queue one job; its future holds the first command's result or refusal."""
        from ledger.wire.clock import pinned

        self._ensure_started()
        at = pinned()   # a time pinned by the request (usecases.prepared) holds in the writer
        if at is not None:
            commands = tuple(_at(c, at) for c in commands)
        job = Job(commands)
        self._q.put(job)
        return job.future

    def run(self, *commands: Command) -> Any:
        """``submit`` and wait (a thread that may block)."""
        return self.submit(*commands).result()

    def _ensure_started(self) -> None:
        with self._start_lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name="station-writer",
                                                daemon=True)
                self._thread.start()

    def close(self) -> None:
        with self._start_lock:
            thread, self._thread = self._thread, None
        if thread is not None:
            self._q.put(None)
            thread.join(timeout=30)

    def _loop(self) -> None:
        from ledger.storage.store import Ledger

        try:
            if not self.location.is_postgres:
                # a long-lived writer must not hold a rollback-journal connection while
                # another process switches the file to WAL (its files would be removed
                # under it): the server is a writer, so the file is put in WAL first
                from ledger.storage import sqlite_probe as sq

                if not sq.holds_wal_header(self.location.path):
                    sq.switch_to_wal(self.location.path)
            led = Ledger(self.location)
        except TourneyError as exc:
            self._fail_all(exc)
            return
        with led:
            session = self._session(led)
            while True:
                first = self._q.get()
                if first is None:
                    return
                jobs = [first]
                while len(jobs) < BATCH:
                    try:
                        nxt = self._q.get_nowait()
                    except queue.Empty:
                        break
                    if nxt is None:
                        self._q.put(None)
                        break
                    jobs.append(nxt)
                if session is None:
                    session = self._session(led)
                if session is None:
                    err = StorageError("the station cannot read the ledger")
                    for job in jobs:
                        job.future.set_exception(err)
                    continue
                session = self._commit(led, session, jobs)

    def _session(self, led: Any) -> Any:
        """A writer session from the stored ledger, or None while it cannot be read (a
        storage fault: the next job tries again, so reporting resumes when it clears)."""
        try:
            return led.session(self.log)
        except Exception:  # noqa: BLE001 — a request must never hang
            return None

    def _commit(self, led: Any, session: Any, jobs: list[Job]) -> Any:
        commands: list[Command] = []
        first: list[int] = []
        for job in jobs:
            first.append(len(commands))
            commands += job.commands
        try:
            results = session.write_batch(commands)
        except TourneyError as exc:
            for job in jobs:
                job.future.set_exception(exc)
            return self._session(led)             # start again from the stored ledger
        except Exception as exc:  # noqa: BLE001 — a request must never hang
            err = StorageError(f"the station could not write: {exc}")
            for job in jobs:
                job.future.set_exception(err)
            return self._session(led)
        self.size = session.state.size
        for job, k in zip(jobs, first, strict=True):
            out = results[k]
            if isinstance(out, (TourneyError, WriteAborted)):
                job.future.set_exception(out)
            else:
                job.future.set_result(out)
        self._after_round(led, session, [results[k:k + len(job.commands)]
                                         for job, k in zip(jobs, first, strict=True)])
        return session

    def _after_round(self, led: Any, session: Any, outputs: list[list[Any]]) -> None:
        """A round closed by what the server wrote: ``usecases.rounds.after_round_closed``,
        as the desk's ``result record`` does — its verdict kept in ``closed``, and the
        checkpoint signed at once by the head judge's key when the server holds it
        (``--staff-key``; docs/DESIGN.md §4), so the receipts of that round upgrade to
        inclusion proofs; otherwise the head judge's next command (``round pair``) takes
        it.  A failed checkpoint is left to that next command."""
        from usecases.rounds import after_round_closed, events_of, head_judge_of, round_outcome

        state = session.state
        for out in outputs:
            events = events_of(out)
            try:
                found = round_outcome(state, events) if events else None
            except Exception:  # noqa: BLE001 — the writer thread must never die
                found = None
            if found is None:
                continue
            self.closed = found
            signer = head_judge_of(state, self.staff.values())
            if signer is not None:
                try:
                    self.closed = after_round_closed(led, self.log, signer, state, events)
                except Exception:  # noqa: BLE001 — a storage fault too: the next head
                    pass           # judge's command checkpoints
            return

    def _fail_all(self, exc: TourneyError) -> None:
        while True:
            job = self._q.get()
            if job is None:
                return
            job.future.set_exception(exc)

    # -- what a player does ----------------------------------------------------------------
    def report(self, round_no: int, table: int, number: int, credential: str,
               given: dict[str, str]) -> SignedEvent:
        """Record one report and, under ``self_report_policy=auto``, the result both
        reports agree on (the rules refuse what may not be: ``RuleError``)."""
        ev: SignedEvent = self.run(*self.report_commands(round_no, table, number,
                                                         credential, given))
        return ev

    def report_commands(self, round_no: int, table: int, number: int, credential: str,
                        given: dict[str, str], device_sig: str | None = None,
                        device_use: int | None = None) -> tuple[Command, Command]:
        from usecases.results import agreed_result

        signer = self.signer
        return (lambda t, now: t.report_result(round_no, table, number, credential, given,
                                               signer, now, device_sig, device_use),
                lambda t, now: agreed_result(t, now, signer, round_no, table, number))


#: roles whose officials decide on the staff page (those that record results at the desk)
STAFF_ROLES = frozenset({Role.SCOREKEEPER, Role.JUDGE, Role.HEAD_JUDGE})
#: roles whose key the server may hold (``--staff-key``) or a browser may sign with: the
#: staff page's and the time-keeper's (round start and time; what each may sign is the
#: roles table's, ``ledger.core.signing``)
SIGNING_ROLES = STAFF_ROLES | {Role.TIME_KEEPER}


def refusal_words(err: RuleError | UsageError) -> str:
    """A refusal as a player reads it: the player's sentence of its rule
    (``ledger.core.player_words.refusal``; issue 32), never the rule id or an option;
    ``refusal_why`` keeps the CLI's sentence for a "why?" detail."""
    from ledger.core.player_words import refusal

    return refusal(err).text


def refusal_why(err: RuleError | UsageError) -> str:
    """The CLI's sentence of a refusal, rule id and all (staff and a "why?" detail)."""
    from ledger.core.player_words import refusal

    return refusal(err).why
