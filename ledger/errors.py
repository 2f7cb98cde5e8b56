"""The one error hierarchy of tourney.

Owns: ``TourneyError`` and its subclasses, each with the CLI exit code of docs/DESIGN.md §8
and a one-line message that names what was wrong and what to do.  The CLI has one catch
point that prints ``error.cli_message()`` and exits with ``error.exit_code``.

May import: nothing from this project (leaf module).
"""

from __future__ import annotations

import errno
from enum import IntEnum


class ExitCode(IntEnum):
    """Exit codes of the CLI contract (docs/DESIGN.md §8)."""

    OK = 0
    INTERNAL = 1
    USAGE = 2
    REFUSED = 3
    VERIFICATION = 4
    STORAGE = 5


class TourneyError(Exception):
    """Base class: every expected failure of tourney is one of these."""

    exit_code: ExitCode = ExitCode.INTERNAL
    code: str = "internal_error"

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def cli_message(self) -> str:
        """One line for stderr: what was wrong, then what to do."""
        line = f"error: {self.message}"
        if self.hint:
            line += f" ({self.hint})"
        return line.replace("\n", " ")

    def to_json(self) -> dict[str, object]:
        return {"ok": False, "error": {"code": self.code, "message": self.message,
                                       "hint": self.hint, "exit_code": int(self.exit_code)}}


class UsageError(TourneyError):
    """Bad input on the command line or in an input file (exit 2)."""

    exit_code = ExitCode.USAGE
    code = "usage"


class RuleError(TourneyError):
    """A command refused by the rules (exit 3); names the rule it enforces."""

    exit_code = ExitCode.REFUSED
    code = "refused"

    def __init__(self, rule: str, message: str, *, hint: str | None = None,
                 finding: str = "rule_violation") -> None:
        super().__init__(f"{message} [{rule}]", hint=hint)
        self.rule = rule
        self.finding = finding


class VerificationError(TourneyError):
    """A signature, proof, checkpoint or audit did not verify (exit 4)."""

    exit_code = ExitCode.VERIFICATION
    code = "verification_failed"


class StorageError(TourneyError):
    """The ledger could not be opened, read or written (exit 5)."""

    exit_code = ExitCode.STORAGE
    code = "storage"


class ConcurrencyError(StorageError):
    """Another writer won the race for the same seq and retries ran out (exit 5)."""

    code = "concurrent_write"


class WriteAborted(Exception):  # noqa: N818 - not an error: a pause in a conversation
    """Raised by a signer that cannot sign now (a key held in the official's browser:
    ``usecases.prepared``): it stops the decision, so nothing is saved.  Not a
    ``TourneyError``: no ``except TourneyError`` in a command may take it for a refusal
    and go on; a batch of writes (``WriteSession.write_batch``) sets aside only the
    command that raised it.  The signer itself records why it stopped."""


#: OS errors that are the storage's fault, not the path's: exit 5 (issue 21, item 13)
STORAGE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EROFS, errno.EFBIG})


def write_failure(exc: OSError, message: str, *, hint: str | None = None) -> TourneyError:
    """The error for a failed file write: a full, read-only or failing disk is a storage
    error (exit 5) naming the cause; anything else (a bad path, no permission) usage."""
    text = f"{message}: {exc.strerror or exc}"
    if exc.errno in STORAGE_ERRNOS:
        return StorageError(text, hint=hint or "free disk space or write elsewhere; nothing "
                                               "partial was kept")
    return UsageError(text, hint=hint)
