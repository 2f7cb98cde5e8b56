"""Commands signed in the official's browser: prepare, sign, submit (issue 29 item 2;
docs/adr/0046-browser-keys-prepared-commands.md).

The server never holds the key.  It decides the command as usual, but with a
``BrowserSigner``: a ``Signer`` that signs nothing itself.  At the first signature it has
not been given it records the exact bytes and stops the decision (``WriteAborted``:
nothing is saved); the browser signs those bytes and submits them with the signature;
the server decides again, at the same pinned time, and the signer hands back each
submitted signature only if the bytes decided now are the bytes submitted and the
signature verifies with the official's bound public key.  A command writing k events needs
k signatures in order (each event's ``prev`` hashes the previous leaf, signature
included), so the conversation is repeated until the decision completes and is saved.
A head judge's checkpoint is signed the same way (``checkpoint``: the note's text is the
message); the automatic one after a command is deferred to it
(``ledger.proofs.checkpoint_store.checkpoint_if_head_judge``).

Owns: ``Signed`` (one submitted signature), ``BrowserSigner``, ``Ask`` (why the browser is
asked to sign), ``Answer`` (one step's outcome and its JSON), ``bound_key`` (the official's
public key from the log), ``choose_time`` (the pinned time and its bounds) and ``step``
(one prepare or submit; a command saved in several writes — ``result import`` — is
written write by write, and the answer says how much is in: ``written``).  Stateless:
everything the server needs comes back in the submission; a replayed submission can never
append twice, because the bytes hold ``seq`` and ``prev``.

May import: ``ledger.*``, the standard library.
"""

from __future__ import annotations

import base64
import binascii
import enum
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from ledger.errors import UsageError, VerificationError, WriteAborted
from ledger.storage.save_watch import watching
from ledger.wire.clock import later_time, parse_time, pinned_time
from ledger.wire.events import SIG_DOMAIN
from ledger.wire.keys import Signer, key_id, verify_signature

if TYPE_CHECKING:
    from ledger.core.state import TournamentState

R = TypeVar("R")

#: how old a prepared time may be when it is submitted (the genesis time tolerance is
#: 300 s by default: a pinned time never trips LEDGER-TIME-1)
TIME_BOUND = timedelta(minutes=5)


@dataclass(frozen=True)
class Signed:
    """One signature the browser made: ``message`` is what it signed (the bytes it was
    given: ``b"tourney-event/v1\\n"`` + the canonical event, or a checkpoint note's
    text), ``sig`` its signature."""

    message: bytes
    sig: bytes

    @classmethod
    def from_json(cls, item: Any) -> Signed:
        """``{"bytes": b64, "sig": b64}``; anything else is a usage error."""
        if not isinstance(item, dict):
            raise UsageError("each signed item is {\"bytes\": …, \"sig\": …}",
                             hint="send back the bytes you were given and their signature")
        try:
            msg = base64.b64decode(str(item.get("bytes", "")), validate=True)
            sig = base64.b64decode(str(item.get("sig", "")), validate=True)
        except (binascii.Error, ValueError):
            raise UsageError("a signed item is not base64",
                             hint="send \"bytes\" and \"sig\" as standard base64") from None
        if not (msg.startswith(SIG_DOMAIN) or _note_fields(msg)) or len(sig) != 64:
            raise UsageError("a signed item is not an event's or a checkpoint's bytes with "
                             "a 64-byte Ed25519 signature",
                             hint="send back exactly the bytes you were given, signed")
        return cls(msg, sig)


class Stop(enum.Enum):
    """Why a ``BrowserSigner`` stopped a decision."""

    NEED = "need"        # a signature not given yet
    MOVED = "moved"      # the bytes decided now are not the ones submitted
    FORGED = "forged"    # the right bytes, a signature that does not verify


@dataclass
class _Record:
    count: int = 0
    used: int = 0
    stop: Stop | None = None
    index: int = 0
    message: bytes = b""
    checkpoint_deferred: bool = False


class BrowserSigner(Signer):
    """Signs with signatures made in the official's browser (see the module docstring).
    No private key: ``signs_here`` is False and ``private_key`` does not exist."""

    signs_here = False

    def __init__(self, public_key_raw: bytes, name: str, signed: Sequence[Signed]) -> None:
        object.__setattr__(self, "name", name)
        self.__dict__["public_key_raw"] = public_key_raw      # the cached property's slot
        self.__dict__["key_id"] = key_id(public_key_raw)
        object.__setattr__(self, "signed", tuple(signed))
        object.__setattr__(self, "record", _Record())

    signed: tuple[Signed, ...]
    record: _Record

    __eq__ = object.__eq__
    __hash__ = object.__hash__

    def sign(self, message: bytes) -> bytes:
        rec = self.record
        i = rec.count
        rec.count += 1
        if rec.stop is None:
            stop = Stop.NEED if i >= len(self.signed) else \
                Stop.MOVED if message != self.signed[i].message else \
                None if verify_signature(self.public_key_raw, self.signed[i].sig, message) \
                else Stop.FORGED
            if stop is None:
                rec.used = i + 1
                return self.signed[i].sig
            rec.stop, rec.index, rec.message = stop, i, message
        raise WriteAborted(f"signature {i} is to be made in the official's browser")

    def defer_checkpoint(self) -> None:
        """The command's automatic checkpoint is left for the official to sign."""
        self.record.checkpoint_deferred = True


class Ask(enum.Enum):
    """Why the browser is asked to sign ``to_sign``."""

    SIGN = "sign"                    # the first signature of a prepared command
    NEXT = "next"                    # the command writes several events: the next one
    DECIDED_AGAIN = "decided_again"  # the log moved since: these are the new bytes
    TIME = "time"                    # the prepared time was out of bounds: decided anew


_WORDS = {Ask.SIGN: "sign these bytes to write the command",
          Ask.NEXT: "the command writes another event: sign it too",
          Ask.DECIDED_AGAIN: "decided again: the log moved since you signed; nothing was "
                             "written; sign these",
          Ask.TIME: "decided again at a fresh time (the prepared time was too old or not "
                    "this server's); nothing was written; sign these"}


@dataclass(frozen=True)
class Answer(Generic[R]):
    """One step: ``done`` (``result`` is the run's, saved) or the bytes to sign next.
    ``status``: 200 done or a first/next signature, 409 decided again."""

    done: bool
    status: int
    time: str
    result: R | None = None
    ask: Ask | None = None
    index: int = 0               # signatures kept: the browser signs ``to_sign`` as this one
    to_sign: bytes = b""
    signatures_used: int = 0
    checkpoint_deferred: bool = False
    summary: dict[str, Any] = field(default_factory=dict)
    written: int = 0             # events of this command saved already (several writes)

    def json(self) -> dict[str, Any]:
        """The protocol part of the HTTP answer (the run's own answer is added by the
        caller when ``done``)."""
        if self.done:
            out: dict[str, Any] = {"done": True, "time": self.time,
                                   "signatures_used": self.signatures_used}
            if self.checkpoint_deferred:
                out["checkpoint"] = ("deferred: this command's checkpoint is signed by the "
                                     "head judge's browser as its own command "
                                     "(checkpoint/sign)")
            return out
        ask = self.ask or Ask.SIGN
        out = {"ok": False, "done": False, "ask": ask.value, "message": _WORDS[ask],
               "time": self.time, "index": self.index,
               "to_sign": base64.b64encode(self.to_sign).decode(), "summary": self.summary}
        if self.written:
            out["written"] = self.written
            out["message"] = (f"part of this command is written ({self.written} events, "
                              "in the log now); " + out["message"])
        if self.status == 409:
            out["error"] = {"kind": "rule", "message": _WORDS[ask],
                            "hint": "check the summary, sign the new bytes and submit again",
                            "rule": None}
        return out


def _note_fields(message: bytes) -> dict[str, Any] | None:
    """A checkpoint note's text (``origin``, ``size``, ``root`` lines: what a head judge
    signs for ``checkpoint``), else None."""
    try:
        lines = message.decode("utf-8").split("\n")
    except UnicodeDecodeError:
        return None
    if len(lines) < 4 or lines[-1] != "" or not lines[0] or " " in lines[0] or \
            not lines[1].isdigit() or len(lines[2]) != 44:
        return None
    return {"kind": "checkpoint", "origin": lines[0], "size": int(lines[1]),
            "root": lines[2]}


def summary_of(message: bytes) -> dict[str, Any]:
    """What the browser shows before signing: the event's seq, kind, time and body (a
    checkpoint: its origin, size and root)."""
    if not message.startswith(SIG_DOMAIN):
        return _note_fields(message) or {}
    try:
        ev = json.loads(message[len(SIG_DOMAIN):])
    except ValueError:
        return {}
    return {k: ev.get(k) for k in ("seq", "kind", "time", "actor", "body")}


@dataclass(frozen=True)
class BoundKey:
    """An official's current public key, as the log binds it."""

    key_id: str
    public_key_raw: bytes
    name: str


def bound_key(state: TournamentState, kid: str) -> BoundKey:
    """The official ``kid``'s public key (a usage error when it is no current official)."""
    off = state.officials.get(kid)
    if off is None or off.revoked_seq is not None:
        raise UsageError(f"key {kid} is not a current official of this event",
                         hint="the organizer binds your browser's key: tourney official "
                              "bind --public-key B64 --name NAME --role ROLE")
    return BoundKey(off.key_id, base64.b64decode(off.public_key), off.name)


def choose_time(asked: str | None, *, now: str, last_time: str) -> tuple[str, Ask | None]:
    """The time to decide at, and why ``asked`` was not it.  A fresh time is ``now``, or
    the last event's time when this server's clock is behind it (a skewed second
    writer: never a time before the head).  ``asked`` is kept when it is a time no
    later than the fresh one and at most ``TIME_BOUND`` older than ``now`` (else
    ``Ask.TIME``) and not before the log's last event (else ``Ask.DECIDED_AGAIN``: the log
    moved past it)."""
    fresh = later_time(last_time, now)
    if not asked:
        return fresh, None
    try:
        t, n, f = parse_time(asked), parse_time(now), parse_time(fresh)
    except ValueError:
        return fresh, Ask.TIME
    if not (t <= f and n - t <= TIME_BOUND):
        return fresh, Ask.TIME
    if last_time and t < parse_time(last_time):
        return fresh, Ask.DECIDED_AGAIN
    return asked, None


def step(run: Callable[[Signer], R], key: BoundKey, *, time: str | None,
         signed: Sequence[Signed], now: str, last_time: str) -> Answer[R]:
    """One prepare (no ``signed``, no ``time``) or submit: decide ``run`` with the
    browser's signatures at the chosen time.  A forged signature over the right bytes is a
    ``VerificationError`` (422); nothing is written unless the answer is ``done``."""
    at, why = choose_time(time, now=now, last_time=last_time)
    signer = BrowserSigner(key.public_key_raw, key.name, () if why else signed)
    result: R | None = None
    committed = [0]     # the browser's signatures in the log already (a save of its own)

    def on_save(_n: int) -> None:
        committed[0] = signer.record.used
    with pinned_time(at), watching(on_save):
        try:
            result = run(signer)
        except WriteAborted:
            pass
        except Exception:
            if signer.record.stop is None:   # a refusal of the command itself
                raise
    rec = signer.record
    if rec.stop is None:
        return Answer(True, 200, at, result, signatures_used=rec.used,
                      checkpoint_deferred=rec.checkpoint_deferred)
    written = committed[0]
    if rec.stop is Stop.FORGED:
        raise VerificationError(
            f"signature {rec.index} does not verify with {key.name}'s bound key "
            f"{key.key_id}", hint="sign the bytes with the key the head judge bound; " + (
                f"the first {written} events of this command were written" if written
                else "nothing was written"))
    if why is not None and signed:
        ask = why
    elif rec.stop is Stop.MOVED:
        ask = Ask.DECIDED_AGAIN
    else:
        ask = Ask.SIGN if rec.index == 0 else Ask.NEXT
    if written and ask is Ask.SIGN:
        ask = Ask.NEXT
    summary = summary_of(rec.message)
    # the signatures a save of this command already put in the log are not sent again:
    # deciding it again finds that part done (``result import``: a row is unchanged)
    return Answer(False, 409 if ask in (Ask.TIME, Ask.DECIDED_AGAIN) else 200,
                  str(summary.get("time") or at), ask=ask, index=rec.index - written,
                  to_sign=rec.message, summary=summary, written=written)
