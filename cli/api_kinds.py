"""What each desk command signs, how it is saved and what it writes for the caller
(issue 29 item 1; ADR "desk-polish").

Owns: ``KINDS`` (each signing desk command → the event kinds it signs, as alternatives:
``"a+b|c"`` signs both ``a`` and ``b``, or else ``c`` — e.g. a result of an individual
or of a team event), ``roles_of`` (who may sign a command in a format: read from the ONE
roles table, ``ledger.core.signing.roles_for_kind`` — the table the write guard, the
audit and PostgreSQL share, ADR 0029; this module names kinds, never roles), ``STEPS``
(commands not saved in one step: ``usecases.command_specs.Steps``), ``Supplied`` and
``SUPPLIED`` (a command's parameter the server gives itself because the command WRITES
there — never a path the caller chooses: ``seed commit --out`` a private temporary file
whose contents are returned in the answer; ``publish DIR`` the server's own publish
directory, ``tourney serve --publish-dir``), ``given_back`` (the RETURNED files as the
answer's ``files``) and ``renamed`` (the temporary path replaced by the file's name in
what the command said).

The kinds of a command cannot be read off its signature, so ``KINDS`` is the small
explicit map; ``tests/test_desk_polish_specs.py`` checks each kind against the roles
table and runs commands to see that what they write is what is named here.

May import: ``ledger.core.signing``, ``ledger.core.format_socket``, ``ledger.wire.events``,
``usecases.command_specs``, the standard library.
"""

from __future__ import annotations

import base64
import enum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from usecases.command_specs import Steps

if TYPE_CHECKING:
    from ledger.core.format_plugin import FormatPlugin

#: each signing desk command → the kinds it signs (``+``: all of them; ``|``: or else)
KINDS: dict[str, str] = {
    "player/add": "player_registered",
    "player/import": "player_registered",
    "player/late": "player_added_late",
    "player/rename": "player_renamed",
    "player/withdraw": "player_withdrawn",
    "team/add": "team_registered",
    "team/import": "team_registered",
    "team/late": "team_added_late",
    "registration/close": "registration_closed",
    "deck/register": "deck_registered",
    "deck/check": "deck_checked",
    "deck/draw": "draw_made",
    "deck/start": "deck_check_started",
    "deck/end": "deck_check_ended",
    "deck/correct": "deck_corrected",
    "deck/publish": "deck_published",
    "deck/deadline": "deck_deadline_set",
    "official/bind": "official_added",
    "round/pair": "round_paired",
    "round/post": "pairings_posted",
    "round/start": "round_started",
    "round/time": "round_time_called",
    "round/extend": "time_extended",
    "call/open": "call_opened",
    "call/claim": "call_claimed",
    "call/close": "call_closed",
    "round/void": "pairing_voided",
    "round/override": "pairing_overridden",
    "seed/record": "seed_recorded",
    "seed/import-random-org": "seed_recorded",
    "seed/import-drand": "seed_recorded",
    "seed/commit": "seed_committed+checkpoint",
    "seed/reveal": "seed_recorded",
    "pages/set": "public_pages_set",
    "announce": "announcement_made",
    "result/record": "result_recorded|seat_result_recorded",
    "result/correct": "result_corrected|seat_result_corrected",
    "result/amend": "result_amended|seat_result_amended",
    "result/import": "result_recorded|seat_result_recorded",
    "result/eom": "eom_decided",
    "result/wrong-table": "penalty_issued+result_corrected|penalty_issued+result_amended",
    "report/accept": "result_recorded|seat_result_recorded",
    "report/reject": "report_rejected",
    "penalty/issue": "penalty_issued|penalty_issued+result_recorded",   # a deciding LoG
    "penalty/reissue-sheet": "score_sheet_reissued",
    "disqualify": "player_disqualified|player_disqualified+result_recorded",
    "slowplay/call": "slow_play_called",
    "slowplay/rule": "slow_play_ruled",
    "ruling": "ruling_made",
    "appeal/raise": "challenge_raised",
    "appeal/decide": "challenge_decided",
    "drop": "player_dropped|player_dropped+result_recorded",   # a match in progress
    "undrop": "player_undropped",
    "level": "level_amended",
    "forfeit": "forfeiture_declared",
    "tbp-override": "tbp_overridden",
    "cut": "cut_made|finalists_decided|standings_finalized",
    "bracket": "bracket_seeded",
    "checkpoint": "checkpoint",
    "publish": "checkpoint+report_published",
}

#: commands not saved in one step (every other is ``Steps.ONE``)
STEPS: dict[str, Steps] = {
    "result/import": Steps.RESUMABLE,   # row by row; a second run skips recorded tables
    "seed/commit": Steps.ONCE,          # a fresh secret each run, and the secret file
    "publish": Steps.ONCE,              # checkpoint, report, checkpoint, then the site
}


class Supplied(enum.Enum):
    """Where the server points a parameter the command writes to."""

    RETURNED = "returned"        # a new file in a private directory, returned, deleted
    PUBLISH_DIR = "publish-dir"  # the server's own publish directory (--publish-dir)


#: (command, parameter) → (the CLI's spelling: an option, or "" for the positional
#: argument; where it points; a returned file's name, ``{seq}`` the log size after);
#: such a parameter is not in the command's spec
SUPPLIED: dict[tuple[str, str], tuple[str, Supplied, str]] = {
    ("seed/commit", "out"): ("--out", Supplied.RETURNED, "seed-commit-{seq}.secret"),
    ("publish", "directory"): ("", Supplied.PUBLISH_DIR, ""),
}


def alternatives(path: str) -> list[tuple[str, ...]]:
    """``KINDS[path]`` as its alternatives, each the kinds signed together."""
    text = KINDS.get(path, "")
    return [tuple(k.strip() for k in alt.split("+")) for alt in text.split("|") if alt]


def roles_of(path: str, plugin: FormatPlugin | None) -> tuple[str, ...]:
    """The roles that may sign ``path`` in an event of ``plugin``'s format, from the
    roles table: of each alternative whose kinds the format knows, the roles that may
    sign every one of its kinds; then all of those.  Empty: a read, or no kind known."""
    from ledger.core.signing import roles_for_kind

    out: set[str] = set()
    for alt in alternatives(path):
        sets = [roles_for_kind(plugin, k) for k in alt]
        if not sets or not all(sets):
            continue         # a kind this format does not have (a team's, another's)
        common = frozenset.intersection(*sets)
        out.update(r.value for r in common)
    return tuple(sorted(out))


def given_back(returned: list[tuple[str, Path, str]], seq: int
                ) -> list[tuple[dict[str, str], str]]:
    """The files the command wrote for the caller, as the answer's ``files`` (with the
    temporary path each replaces in the command's words)."""
    out: list[tuple[dict[str, str], str]] = []
    for name, target, shown in returned:
        if not target.is_file():
            continue
        raw = target.read_bytes()
        try:
            content, encoding = raw.decode("utf-8"), "utf-8"
        except UnicodeDecodeError:
            content, encoding = base64.b64encode(raw).decode("ascii"), "base64"
        out.append(({"param": name, "name": shown.format(seq=seq), "encoding": encoding,
                     "content": content}, str(target)))
    return out


def renamed(data: Any, old: str, new: str) -> Any:
    if isinstance(data, str):
        return data.replace(old, new)
    if isinstance(data, list):
        return [renamed(x, old, new) for x in data]
    if isinstance(data, dict):
        return {k: renamed(v, old, new) for k, v in data.items()}
    return data
