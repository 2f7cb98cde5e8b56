"""Claimed times in the audit (docs/AUDIT.md §2 step 10, issue 12 defect 6).

Owns: ``time_findings`` — which event's claimed time is malformed, which one *jumped*
(ahead of both neighbours by more than the genesis tolerance: a far-future clock; its
honest successor is not blamed) and which one *regressed* (behind the latest earlier
non-jumping event by more than the tolerance).  Ordering is by ``seq``; times are claims.

May import: ``ledger.wire.clock``, ``audit.findings``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date, datetime

from audit.findings import Finding, finding
from ledger.wire.clock import parse_time


def _all_valid(times: Sequence[str]) -> bool:
    """Every time of tourney's shape is a real instant: its distinct dates parse and no
    hour, minute or second is out of range (cheap: a few string comparisons each)."""
    try:
        for day in {t[:10] for t in times}:
            date.fromisoformat(day)
    except ValueError:
        return False
    return all(t[11:13] <= "23" and t[14:16] <= "59" and t[17:19] <= "59" for t in times)


def _parse(text: str) -> datetime | None:
    if len(text) < 20 or text[4] != "-" or text[10] != "T":
        return None
    try:
        return parse_time(text)
    except ValueError:
        return None


_SHAPE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}Z\Z")


def time_findings(times: Sequence[str], tolerance_s: int) -> list[Finding]:
    """Findings for the claimed times of events 1..n (``times[i-1]`` is seq i's)."""
    # Fast path (an honest log): every time has the one shape tourney writes, and they
    # never decrease; then no time can jump or regress, and only the dates need checking.
    if all(_SHAPE.match(t) for t in times) and \
            all(a <= b for a, b in zip(times, times[1:], strict=False)) and _all_valid(times):
        return []
    out: list[Finding] = []
    parsed = [_parse(t) for t in times]
    for i, (text, t) in enumerate(zip(times, parsed, strict=True), start=1):
        if t is None:
            out.append(finding("time_malformed", i, f"time {text[:40]!r} is not RFC 3339 "
                               "UTC ending in Z"))
    n = len(parsed)

    def ahead(i: int, j: int) -> bool:  # 0-based: event i ahead of event j by > tolerance
        a, b = parsed[i], parsed[j]
        return a is not None and b is not None and (a - b).total_seconds() > tolerance_s

    jumped = [False] * n
    for i in range(n):
        has_prev, has_next = i > 0, i + 1 < n
        if not has_next:
            continue  # a last event after a long pause is not a jump: nothing to compare
        jumped[i] = ahead(i, i + 1) and (not has_prev or ahead(i, i - 1))
    ref: datetime | None = None
    for i, t in enumerate(parsed):
        if t is None:
            continue
        if jumped[i]:
            out.append(finding("time_jump", i + 1, f"time {times[i]} is ahead of both "
                               f"neighbours by more than {tolerance_s} s"))
            continue
        if ref is not None and (ref - t).total_seconds() > tolerance_s:
            out.append(finding("time_regressed", i + 1, f"time {times[i]} is more than "
                               f"{tolerance_s} s before an earlier event "
                               f"({ref.isoformat()})"))
        ref = t if ref is None else max(ref, t)
    return out
