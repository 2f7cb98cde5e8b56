"""A log time as a page shows it (issue 31 item 1: "dates and times in the locale's form
and the event's time zone").

Owns: ``clock_text`` (an ISO UTC time from the log, e.g. ``2026-05-02T09:44:10Z``, as
the visible text of a page: in the event's zone, ``tourney pages set --time-zone``, in
the page language's CLDR form through Babel, with the zone's abbreviation),
``zone_label`` and ``zone_of`` (the zone as a page names it) and ``install`` (the Jinja2
filters ``hm``, ``hms``, ``day_hm``, ``bare_hm`` and ``zone`` that read the page's
``lang`` and the event's zone, ``d.time_zone``, from the template's context; and
``number``, a count in the language's form: ``number_text``).  The
``<time datetime=...>`` attribute keeps the ISO UTC value; only the text changes.
English pages of an event in UTC keep their exact text ("09:44 UTC"), so pages and
samples recorded before keep their bytes.  The projections may call ``clock_text`` with
the zone and language as parameters.

Nothing here reads the wall clock: the time formatted is the log's.

May import: ``babel``, ``jinja2``, the standard library.
"""

from __future__ import annotations

from datetime import UTC, datetime, tzinfo
from enum import Enum
from functools import lru_cache
from typing import Any

UTC_NAME = "UTC"


class Form(str, Enum):
    """What of the time a page shows."""

    HM = "hm"          # hours and minutes: "09:44 UTC", "18:44 JST"
    HMS = "hms"        # with seconds: "09:44:10 UTC"
    DAY_HM = "day_hm"  # with the date: "2026-05-02 09:44 UTC", "2026/05/02 18:44 JST"
    BARE_HM = "bare_hm"  # without the zone (a big clock whose label names it): "09:44"


@lru_cache(maxsize=64)
def _zone(name: str) -> tzinfo | None:
    """The zone ``name`` names in this machine's tz database, or None (the page then shows
    UTC: a ledger may name a zone an older database lacks)."""
    import zoneinfo

    if name == UTC_NAME:
        return None
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        return None


def _parse(iso: str) -> datetime | None:
    try:
        dt = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    except ValueError:
        return None
    return dt if dt.tzinfo is not None else dt.replace(tzinfo=UTC)


def zone_label(moment: datetime) -> str:
    """The zone's abbreviation at ``moment`` ("JST", "CEST"; "+0530"-like where the tz
    database has none, written as it has it)."""
    return moment.tzname() or UTC_NAME


def clock_text(iso: str, zone: str = UTC_NAME, lang: str = "en",
               form: Form = Form.HM) -> str:
    """``iso`` (a log time, UTC) as a page's visible text, in ``zone`` and ``lang``'s form.

    English in UTC is the text pages always showed (``09:44 UTC``); otherwise Babel's
    ``short`` time (``medium`` with seconds) and ``short`` date of ``lang``, and the zone's
    abbreviation: ``18:44 JST`` in Japanese, ``6:44 PM JST`` in English.  A time that is
    not ISO is shown as it is."""
    tz = _zone(zone)
    if tz is None and lang == "en":
        return {Form.HM: f"{iso[11:16]} UTC", Form.HMS: f"{iso[11:19]} UTC",
                Form.DAY_HM: f"{iso[:10]} {iso[11:16]} UTC", Form.BARE_HM: iso[11:16]}[form]
    dt = _parse(iso)
    if dt is None:
        return iso
    local = dt.astimezone(tz or UTC)
    from babel.dates import format_date, format_time

    try:
        clock = format_time(local, "medium" if form is Form.HMS else "short", locale=lang)
        day = format_date(local, "short", locale=lang) if form is Form.DAY_HM else ""
    except (ValueError, LookupError):      # a language Babel has no data for
        clock, day = local.strftime("%H:%M:%S" if form is Form.HMS else "%H:%M"), \
            local.strftime("%Y-%m-%d") if form is Form.DAY_HM else ""
    label = "" if form is Form.BARE_HM else zone_label(local)
    return " ".join(x for x in (day, clock, label) if x)


def zone_of(iso: str, zone: str = UTC_NAME) -> str:
    """The abbreviation ``zone`` has at the log time ``iso`` ("UTC", "JST")."""
    tz, dt = _zone(zone), _parse(iso)
    if tz is None or dt is None:
        return UTC_NAME
    return zone_label(dt.astimezone(tz))


def number_text(n: int, lang: str = "en") -> str:
    """A count in ``lang``'s CLDR form (Babel's ``format_decimal``): "4,096" in English
    and Japanese, as it is below 1,000 (so small events' pages keep their bytes)."""
    from babel.numbers import format_decimal

    try:
        return str(format_decimal(n, locale=lang))
    except (ValueError, LookupError):
        return str(n)


def _event_zone(ctx: Any) -> str:
    d = ctx.get("d")
    return str(getattr(d, "time_zone", UTC_NAME)) if d is not None else UTC_NAME


def _filter(form: Form) -> Any:
    import jinja2

    @jinja2.pass_context
    def show(ctx: Any, iso: str) -> str:
        return clock_text(iso, _event_zone(ctx), str(ctx.get("lang") or "en"), form)

    return show


def install(env: Any) -> None:
    """Give ``env`` the filters ``hm``, ``hms``, ``day_hm``, ``bare_hm`` (``{{ t|hm }}``),
    ``zone`` (``{{ t|zone }}``: the event zone's abbreviation at that time) and ``number``
    (``{{ n|number }}``: "4,096")."""
    import jinja2

    for form in Form:
        env.filters[form.value] = _filter(form)
    env.filters["zone"] = jinja2.pass_context(lambda ctx, iso: zone_of(iso, _event_zone(ctx)))
    env.filters["number"] = jinja2.pass_context(
        lambda ctx, n: number_text(n, str(ctx.get("lang") or "en")))
