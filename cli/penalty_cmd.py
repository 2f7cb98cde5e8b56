"""``tourney penalty issue|offer|reissue-sheet|list|guide`` and ``tourney disqualify``
(RULES.md §4).

Owns: the command-line shape of the officiating commands: parsing the penalty and
``--applies-to`` names, printing the Guide's default and the upgrade offer from prior
offences (TC-20), and writing the events in one save (the penalty and, when it decides the
match in progress, the loss it gives).  What is allowed is the ledger's
(``ledger.formats.officiating``), never decided here.

May import: ``msgspec``, ``typer``, ``cli.common``, ``ledger.*``, ``projections.*``.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
import typer

from cli.common import JsonOpt, KeyOpt, Session, auto_checkpoint, events_brief, seq_span
from ledger.errors import RuleError, UsageError

app = typer.Typer(no_args_is_help=True, help=(
    "Penalties of the Penalty Guide (judge): issue, offer (what the Guide allows, writes "
    "nothing), list, guide.\n\n"
    "Example: tourney penalty issue 7 --infraction 3.5.3.2 --penalty warning --key judge.pem"))

_Opt = typer.Option
NumberArg = Annotated[int, typer.Argument(metavar="NUMBER", min=1, help="Player number.")]
InfractionOpt = Annotated[str, _Opt("--infraction", metavar="PG", help=(
    "Penalty Guide section, e.g. 3.5.3.2 (see 'tourney penalty guide')."))]
PenaltyOpt = Annotated[str, _Opt("--penalty", metavar="RANK", help=(
    "caution, warning, loss_of_game (log) or loss_of_match (lom)."))]


def _penalty(text: str) -> Any:
    from ledger.formats.officiating.catalogue import parse_penalty
    try:
        return parse_penalty(text)
    except RuleError as exc:
        raise UsageError(f"--penalty {text!r} is not a penalty", hint=exc.hint) from None


def _applies(text: str | None) -> Any:
    from ledger.formats.match.officiating_model import AppliesTo
    if text is None:
        return None
    try:
        return AppliesTo(text.replace("-", "_"))
    except ValueError:
        raise UsageError(f"--applies-to {text!r} is not a place a penalty applies",
                         hint="one of " + ", ".join(a.value for a in AppliesTo)) from None


def _infraction(text: str) -> Any:
    from ledger.formats.officiating.catalogue import infraction
    try:
        return infraction(text)
    except RuleError as exc:
        raise UsageError(exc.message, hint=exc.hint) from None


def _offer_lines(number: int, inf: Any, a: Any, level: int) -> list[str]:
    lines = [f"#{number}: {inf.section} {inf.name}: default at level {level}: {a.default}"]
    if a.prior:
        lines.append(f"upgrade offered: prior penalties in group {inf.group} at seq "
                     f"{', '.join(map(str, a.prior))}: may be raised up to "
                     f"{a.ceiling.value} (BR-PEN-RANK-4/5)")
    else:
        lines.append(f"no prior penalty in group {inf.group}: no upgrade")
    return lines


def _offer_json(inf: Any, a: Any, level: int) -> dict[str, Any]:
    return {"infraction": inf.section, "name": inf.name, "group": inf.group,
            "level": level, "default": a.default, "prior": a.prior,
            "upgrade_to": a.ceiling.value if a.ceiling else None, "remedy": inf.remedy}


@app.command("offer")
def penalty_offer(ctx: typer.Context, number: NumberArg, infraction: InfractionOpt,
                  penalty: PenaltyOpt = "warning", json: JsonOpt = False) -> None:
    """What the Guide allows for this player now: default, prior offences, upgrade (writes
    nothing).

    Example: tourney penalty offer 7 --infraction 3.5.3.2
    """
    from ledger.formats.officiating.rules import assess, level

    s = Session(ctx, json=json)
    inf, pen = _infraction(infraction), _penalty(penalty)
    with s.ledger() as led:
        st = led.load(s.tournament(led)).state
    a = assess(st, number, inf, pen)
    lvl = level(st)
    need = "needs a justification" if a.needs_justification else (
        "an upgrade" if a.upgrade else "within the default")
    s.emit({"ok": True, "number": number, **_offer_json(inf, a, lvl), "penalty": pen.value,
            "upgrade": a.upgrade, "needs_justification": a.needs_justification},
           _offer_lines(number, inf, a, lvl) + [f"{pen.value}: {need}"])


@app.command("issue")
def penalty_issue(
    ctx: typer.Context,
    number: NumberArg,
    infraction: InfractionOpt,
    penalty: PenaltyOpt,
    applies_to: Annotated[str | None, _Opt(
        "--applies-to", metavar="WHERE", show_default=False, help=(
            "LoG: current_game, next_game, first_game_of_next_match, none; LoM: "
            "current_match, next_match, none (default: the match in progress, else the "
            "next one; AMB-B20)."))] = None,
    description: Annotated[str, _Opt("--description", metavar="TEXT", help=(
        "What happened (required for LoG / LoM: the report to the head judge)."))] = "",
    justification: Annotated[str, _Opt("--justification", metavar="TEXT", help=(
        "Why a penalty outside the default (or for 3.22 / 4.6) was chosen."))] = "",
    report_to: Annotated[str | None, _Opt("--report-to", metavar="KEY_ID",
                                          show_default=False, help=(
        "Head judge a LoG / LoM is reported to (default: the head judge)."))] = None,
    member: Annotated[bool, _Opt("--member", help=(
        "Team events: the representative penalised as a member, not the team (their "
        "number also names the team; another member's number names the member, "
        "BR-TEAM-6, ADR 0026)."))] = False,
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Issue a penalty (judge or head judge); a LoG / LoM that decides the match in
    progress also records that loss, and one for the next match is applied when it is
    paired.

    Example: tourney penalty issue 7 --infraction 3.5.3.2 --penalty warning --key judge.pem
    """
    from ledger.formats.officiating.commands import issue_penalty
    from ledger.formats.officiating.events import PenaltyIssued
    from ledger.formats.officiating.rules import assess, level, member_penalty

    s = Session(ctx, key=key, json=json)
    inf, pen, where = _infraction(infraction), _penalty(penalty), _applies(applies_to)
    signer = s.signer()
    with s.ledger() as led:
        log = s.tournament(led)
        before = led.load(log).state
        a = assess(before, number, inf, pen, member_penalty(before, number, member))
        lvl = level(before)
        events, _agg = led.write(log, lambda t, time: (issue_penalty(
            t, signer, time, number=number, section=inf.section, penalty=pen,
            applies_to=where, description=description.strip(),
            justification=justification.strip(), report_to=report_to,
            member=member), t))
        cp = auto_checkpoint(s, led, log, signer, f"{seq_span(events)} written") \
            if len(events) > 1 else None
    b = events[0].body
    assert isinstance(b, PenaltyIssued)
    lines = _offer_lines(number, inf, a, lvl)
    lines.append(f"{seq_span(events)}: {b.penalty.value} to #{number} for {inf.section}"
                 + (" (upgrade)" if b.upgrade else "")
                 + (f", applies to {b.applies_to.value}" if b.applies_to.value != "none"
                    else "") + (f", reported to {b.report_to}" if b.report_to else ""))
    raised = not isinstance(b.raised_from, msgspec.UnsetType)
    if raised:
        lines.append(f"score sheet re-issued (seq {b.reissued_seq}) and penalties are "
                     "recorded on score sheets: the Warning is raised to loss_of_match "
                     "(BR-PEN-3.18.3)")
    if len(events) > 1:
        lines.append(f"the match is lost by penalty: seq {events[1].seq}")
    s.emit({"ok": True, "tournament": log, "seq": events[0].seq, "kind": events[0].kind,
            **_offer_json(inf, a, lvl), "penalty": b.penalty.value,
            "raised_from": pen.value if raised else None, "upgrade": b.upgrade,
            "applies_to": b.applies_to.value, "events": events_brief(events),
            "checkpoint": cp.json() if cp else None}, lines)


@app.command("reissue-sheet")
def penalty_reissue_sheet(
    ctx: typer.Context,
    number: NumberArg,
    reason: Annotated[str, _Opt("--reason", metavar="TEXT", help=(
        "How the scores were recovered (required)."))],
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Re-issue a lost score sheet (organizer or head judge, PG §3.18.3): the player's
    3.18.3 penalty is then W ~ LoM instead of DQ; with --param
    penalties_on_score_sheets=true a Warning is raised to LoM at once.

    Example: tourney penalty reissue-sheet 7 --reason "scores confirmed from the table slips" --key hj.pem
    """
    from ledger.formats.officiating.commands import reissue_sheet

    s = Session(ctx, key=key, json=json)
    if not reason.strip():
        raise UsageError("--reason is empty", hint="say how the scores were recovered")
    signer = s.signer()
    with s.ledger() as led:
        log = s.tournament(led)
        events, _agg = led.write(log, lambda t, time: (reissue_sheet(
            t, signer, time, number=number, reason=reason.strip()), t))
    s.emit({"ok": True, "tournament": log, "seq": events[0].seq, "kind": events[0].kind,
            "number": number, "events": events_brief(events)},
           [f"seq {events[0].seq}: #{number}'s score sheet re-issued; the 3.18.3 penalty "
            "is now W ~ LoM ('tourney penalty issue "
            f"{number} --infraction 3.18.3 --penalty warning')"])


@app.command("list")
def penalty_list(ctx: typer.Context,
                 number: Annotated[int | None, typer.Argument(
                     metavar="[NUMBER]", show_default=False,
                     help="Only this player's history.")] = None,
                 json: JsonOpt = False) -> None:
    """Every penalty and disqualification (or one player's), oldest first.

    Example: tourney penalty list 7
    """
    from projections.penalties import penalty_rows, row_text

    s = Session(ctx, json=json)
    with s.ledger() as led:
        log = s.tournament(led)
        rows = penalty_rows(led.raw_leaves(log), number)
    s.emit({"tournament": log, "number": number, "penalties": rows},
           [row_text(r) for r in rows] or ["no penalties"])


@app.command("guide")
def penalty_guide(section: Annotated[str | None, typer.Argument(
        metavar="[PG]", show_default=False, help="One section, e.g. 3.5.")] = None,
        json: JsonOpt = False) -> None:
    """The Penalty Guide catalogue (PG §3, §4): section, name, defaults, remedy.

    Example: tourney penalty guide 3.5
    """
    from ledger.formats.officiating.catalogue import CATALOGUE, range_text

    rows = [i for k, i in CATALOGUE.items()
            if section is None or k == section or k.startswith(section.rstrip(".") + ".")]
    if not rows:
        raise UsageError(f"no Penalty Guide section {section!r}",
                         hint="run 'tourney penalty guide' for the list")
    doc = [{"infraction": i.section, "name": i.name, "group": i.group,
            "level_1": range_text(i.level1), "level_2_and_above": range_text(i.level2),
            "remedy": i.remedy} for i in rows]
    from cli.common import emit
    emit(json, {"infractions": doc},
         [f"{d['infraction']:<9} {d['name']} | L1 {d['level_1']} | L2+ "
          f"{d['level_2_and_above']}" for d in doc])


def disqualify(
    ctx: typer.Context,
    number: NumberArg,
    infraction: InfractionOpt,
    reason: Annotated[str, _Opt("--reason", metavar="TEXT", help="Why (required).")],
    keep_standing: Annotated[bool, _Opt("--keep-standing", help=(
        "Do not revoke the standing (default: revoked, BR-PEN-RANK-9(b))."))] = False,
    prize_policy: Annotated[str, _Opt("--prize-policy", metavar="void|pass_down", help=(
        "Revoked place and prizes: void (the place stays empty) or pass_down."))] = "void",
    member: Annotated[bool, _Opt("--member", help=(
        "Team events: the representative disqualified as a member, not the team (their "
        "number also names the team; another member's number names the member, "
        "the team drops, BR-DROP-4, ADR 0026)."))] = False,
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Disqualify a player (head judge): removed at once, a match in progress is lost,
    earlier results stand for every opponent; allowed after the event ends.

    Example: tourney disqualify 7 --infraction 4.1 --reason "marked cards" --key hj.pem
    """
    from ledger.formats.match.officiating_model import PrizePolicy
    from ledger.formats.officiating.commands import disqualify as dq

    s = Session(ctx, key=key, json=json)
    inf = _infraction(infraction)
    if not reason.strip():
        raise UsageError("--reason is empty", hint="say why the player is disqualified")
    try:
        policy = PrizePolicy(prize_policy.replace("-", "_"))
    except ValueError:
        raise UsageError(f"--prize-policy {prize_policy!r} is not void or pass_down") from None
    signer = s.signer()
    with s.ledger() as led:
        log = s.tournament(led)
        events, _agg = led.write(log, lambda t, time: (dq(
            t, signer, time, number=number, section=inf.section, reason=reason.strip(),
            standing_revoked=not keep_standing, prize_policy=policy, member=member), t))
        cp = auto_checkpoint(s, led, log, signer, f"{seq_span(events)} written")
    lines = [f"{seq_span(events)}: #{number} disqualified for {inf.section}"
             + ("; the match in progress is lost" if len(events) > 1 else "")]
    s.emit({"ok": True, "tournament": log, "seq": events[0].seq, "kind": events[0].kind,
            "number": number, "events": events_brief(events),
            "checkpoint": cp.json() if cp else None}, lines)
