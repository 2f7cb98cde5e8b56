"""``tourney player cards``, ``tourney player card`` and ``tourney official card``: players'
and staff credentials on printed cards (issue 19, ADR 0027).

Owns: the command-line shapes and output of those commands, the drawing of each card's
128-bit token (``secrets``, here only: never in replayed code) and the private files that
are the token's only copy (the page and the CSV, mode 0600, written next to their final
name before the ledger write and moved into place after it, so a refused write leaves no
file and a written credential always has its card).  What is allowed is the ledger's
(``ledger.core.report_rules``: REPORT-1..3); the page is ``projections.cards``.  Names no
format.

May import: ``typer``, ``cli.common``, ``projections.cards``, ``ledger.*``.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Annotated, Any

import typer

from cli.common import JsonOpt, KeyOpt, Session, events_brief
from cli.sheet_language import LanguageOpt
from ledger.errors import RuleError, UsageError

UrlOpt = Annotated[str, typer.Option(
    "--url", metavar="URL", help="The live server's address players reach (its QR code "
    "points to URL/c/TOKEN), e.g. http://192.168.1.20:8000.")]
OutOpt = Annotated[Path, typer.Option("--out", metavar="FILE",
                                      help="The printable page to write (must not exist).")]
CsvOpt = Annotated[Path | None, typer.Option(
    "--csv", metavar="FILE", help="Also a CSV for mail-merge: number,name,url "
    "(must not exist).")]


# one card's options (``player card`` and ``official card``)
ReissueOpt = Annotated[bool, typer.Option(
    "--reissue", help="A lost card: revoke the live credential and issue a new one.")]
RevokeOpt = Annotated[bool, typer.Option(
    "--revoke", help="Revoke the live credential (no new card).")]
ReasonOpt = Annotated[str, typer.Option("--reason", metavar="TEXT",
                                        help="Why (kept in the event).")]
CardUrlOpt = Annotated[str | None, typer.Option(
    "--url", metavar="URL", help="The live server's address (not with --revoke).")]
CardOutOpt = Annotated[Path | None, typer.Option(
    "--out", metavar="FILE", help="The card's page (must not exist; not with --revoke).")]


def _check_url(url: str) -> str:
    from cli.web_url import check_url

    return check_url(url).rstrip("/")


def _check_out(path: Path | None, option: str) -> None:
    if path is None:
        return
    if path.exists():
        raise UsageError(f"{option} {path} already exists (it may hold live cards)",
                         hint=f"choose another {option} FILE, or remove that file first")
    if not path.parent.is_dir():
        raise UsageError(f"{option} {path}: folder {path.parent} does not exist",
                         hint="create the folder or choose another path")


def _private(path: Path, text: str) -> Path:
    """``text`` into a new 0600 file beside ``path``; returns the temporary path."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    return tmp


def _issue(s: Session, numbers: list[int] | None, url: str, out: Path, csv_out: Path | None,
           revoke: tuple[int | str, str] | None = None,
           official: str | None = None, language: str = "en") -> tuple[list[Any], Any]:
    """Draw a token per player (or for one official: a staff card), write the files
    privately, record the credentials (and a revocation first, for a re-issue) in one
    write, then move the files into place."""
    from cli.sheet_language import sheet_language
    from ledger.core.credentials import live_credential, live_official_credential, token_sha256
    from projections.cards import Card, card_url, cards_csv, render_cards

    sheet = sheet_language(language)
    base = _check_url(url)
    _check_out(out, "--out")
    _check_out(csv_out, "--csv")
    signer = s.signer()
    temps: list[tuple[Path, Path]] = []
    with s.ledger() as led:
        log = s.tournament(led)
        state = led.load(log).state
        if official is not None:
            off = state.officials.get(official)
            if off is None or off.revoked_seq is not None:
                raise RuleError("REPORT-1", f"key {official} is not a current official",
                                hint="see 'tourney official list'")
            holders: list[int | str] = [official]
            names: dict[int | str, str] = {official: f"{off.name} (staff)"}
        else:
            if numbers is None:
                numbers = [n for n in sorted(state.players)
                           if live_credential(state, n) is None]
                if not numbers:
                    raise UsageError("every registered player already has a live card",
                                     hint="re-issue a lost one: tourney player card N "
                                          "--reissue --reason TEXT")
            for n in numbers:
                if n not in state.players:
                    raise RuleError("REPORT-1", f"player {n} is not registered",
                                    hint="see 'tourney player list'")
            holders = list(numbers)
            names = {n: state.players[n].name for n in numbers}
        tokens = {h: secrets.token_hex(16) for h in holders}   # 128 bits each
        cards = [Card(number=h if isinstance(h, int) else 0, name=names[h],
                      url=card_url(base, tokens[h])) for h in holders]
        try:
            temps.append((_private(out, render_cards(
                state.name, cards, tr=sheet.translations, lang=sheet.code, dir_=sheet.dir)), out))
            if csv_out is not None:
                temps.append((_private(csv_out, cards_csv(cards)), csv_out))

            def record(t: Any, time: str) -> tuple[list[Any], Any]:
                events = []
                if revoke is not None:
                    who = revoke[0]
                    cred = live_credential(t.state, who) if isinstance(who, int) else \
                        live_official_credential(t.state, who)
                    if cred is None:
                        raise RuleError("REPORT-3", f"{_holder(who)} has no live card",
                                        hint="issue one without --reissue")
                    events.append(t.revoke_credential(cred.credential, revoke[1], signer,
                                                      time))
                for h in holders:
                    kw: dict[str, Any] = {"number": h} if isinstance(h, int) else \
                        {"official": h}
                    events.append(t.issue_credential(token_sha256(tokens[h]), signer, time,
                                                     **kw))
                return events, t
            events, agg = led.write(log, record)
        except BaseException:
            for tmp, _ in temps:
                tmp.unlink(missing_ok=True)
            raise
    for tmp, final in temps:
        os.replace(tmp, final)
    return events, agg


def _holder(who: int | str) -> str:
    return f"player {who}" if isinstance(who, int) else f"official {who}"


def _emit(s: Session, events: list[Any], out: Path, csv_out: Path | None,
          what: str) -> None:
    issued = [e for e in events if e.kind == "credential_issued"]
    lines = [f"seq {e.seq}: {e.kind} {e.body.credential}"
             + (f" ({_holder(e.body.number or e.body.official)})"
                if e.kind == "credential_issued" else "") for e in events]
    lines.append(f"{what}: {len(issued)} card(s) in {out}"
                 + (f" and {csv_out}" if csv_out else "")
                 + " (mode 0600: the tokens exist only there; keep them private)")
    s.emit({"ok": True, "tournament": events[0].log if events else None,
            "events": events_brief(events),
            "credentials": [{"number": e.body.number, "official": e.body.official,
                             "credential": e.body.credential, "seq": e.seq}
                            for e in issued],
            "out": str(out), "csv": None if csv_out is None else str(csv_out)}, lines)


def _numbers(text: str | None) -> list[int] | None:
    if text is None:
        return None
    try:
        nums = [int(p) for p in text.split(",") if p.strip()]
    except ValueError:
        nums = []
    if not nums or any(n < 1 for n in nums) or len(set(nums)) != len(nums):
        raise UsageError(f"--players {text!r} is not a list of distinct player numbers",
                         hint="e.g. --players 1,2,5")
    return nums


def player_cards(
    ctx: typer.Context,
    url: UrlOpt,
    out: OutOpt,
    players: Annotated[str | None, typer.Option(
        "--players", metavar="N,N,…", help="Only these players (default: every registered "
        "player without a live card).")] = None,
    csv_out: CsvOpt = None,
    language: LanguageOpt = "en",
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Issue players' credentials and write their printable cards (head judge or
    organizer): a QR code of URL/c/TOKEN per player, several cards per sheet, in the
    --language given (English by default).

    The log records each credential's id and the SHA-256 of its token, never the token:
    the page (and --csv) are the token's only copy, written mode 0600.

    Example: tourney player cards --url http://192.168.1.20:8000 --out cards.html --csv cards.csv --key hj.pem
    """
    s = Session(ctx, key=key, json=json)
    events, _ = _issue(s, _numbers(players), url, out, csv_out, language=language)
    _emit(s, events, out, csv_out, "issued")


def player_card(
    ctx: typer.Context,
    number: Annotated[int, typer.Argument(metavar="NUMBER", min=1, help="Player number.")],
    reissue: ReissueOpt = False,
    revoke: RevokeOpt = False,
    reason: ReasonOpt = "",
    url: CardUrlOpt = None,
    out: CardOutOpt = None,
    csv_out: CsvOpt = None,
    language: LanguageOpt = "en",
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """One player's card (head judge or organizer): a first card, a re-issue of a lost one
    (--reissue: revoke + issue), or a revocation (--revoke); in the --language given.

    Example: tourney player card 17 --reissue --reason "lost card" --url http://192.168.1.20:8000 --out card-17.html --key hj.pem
    """
    _one_card(Session(ctx, key=key, json=json), number, reissue, revoke, reason, url, out,
              csv_out, language)


def official_card(
    ctx: typer.Context,
    official: Annotated[str, typer.Argument(metavar="KEY_ID", help="The official's key id "
                                            "(see 'tourney official list').")],
    reissue: ReissueOpt = False,
    revoke: RevokeOpt = False,
    reason: ReasonOpt = "",
    url: CardUrlOpt = None,
    out: CardOutOpt = None,
    csv_out: CsvOpt = None,
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """A staff card for an official: it opens the live server's staff page.

    Issued by the head judge or organizer. Scanning it signs a phone or laptop in to
    /staff, where decisions are signed with the official's own key — which the server must
    hold: tourney serve --staff-key FILE.

    Example: tourney official card 3f9a0c1d2e4b5a67 --url http://192.168.1.20:8000 --out staff-card.html --key hj.pem
    """
    _one_card(Session(ctx, key=key, json=json), official, reissue, revoke, reason, url, out,
              csv_out)


def _one_card(s: Session, who: int | str, reissue: bool, revoke: bool, reason: str,
              url: str | None, out: Path | None, csv_out: Path | None,
              language: str = "en") -> None:
    """A first card, a re-issue (revoke + issue) or a revocation, for a player (``who``
    a number) or an official (a key id)."""
    from ledger.core.credentials import live_credential, live_official_credential

    if reissue and revoke:
        raise UsageError("--reissue and --revoke exclude each other",
                         hint="--reissue revokes and issues; --revoke only revokes")
    if (reissue or revoke) and not reason.strip():
        raise UsageError("a revocation needs a reason", hint="pass --reason TEXT")
    if revoke:
        if url is not None or out is not None or csv_out is not None or language != "en":
            raise UsageError("--revoke writes no card",
                             hint="drop --url, --out, --csv and --language")
        signer = s.signer()
        with s.ledger() as led:
            log = s.tournament(led)

            def rev(t: Any, time: str) -> Any:
                cred = live_credential(t.state, who) if isinstance(who, int) else \
                    live_official_credential(t.state, who)
                if cred is None:
                    raise RuleError("REPORT-3", f"{_holder(who)} has no live card",
                                    hint="see 'tourney report list'")
                return t.revoke_credential(cred.credential, reason.strip(), signer, time)
            ev = led.write(log, rev)
        holder = {"number": who} if isinstance(who, int) else {"official": who}
        s.emit({"ok": True, "tournament": ev.log, "events": events_brief([ev]),
                "credential": ev.body.credential, **holder},
               f"seq {ev.seq}: credential {ev.body.credential} of {_holder(who)} revoked")
        return
    if url is None or out is None:
        noun = "player" if isinstance(who, int) else "official"
        raise UsageError("a card needs --url URL and --out FILE",
                         hint=f"e.g. tourney {noun} card {who} --url "
                              f"http://192.168.1.20:8000 --out card-{who}.html")
    events, _ = _issue(s, [who] if isinstance(who, int) else None, url, out, csv_out,
                       official=None if isinstance(who, int) else who,
                       revoke=(who, reason.strip()) if reissue else None, language=language)
    _emit(s, events, out, csv_out, "re-issued" if reissue else "issued")
