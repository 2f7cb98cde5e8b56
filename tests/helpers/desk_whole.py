"""Whole events run from the staff console alone (issue 29's proof), and the same script
through the CLI, for tests/test_desk_event_*.py.

Owns: ``opening`` (key files, ``tourney init`` of ``fmt``, the scorekeeper, judge and
station, a staff card for the head judge, scorekeeper and judge: the only steps done at
the terminal), ``Console`` (an official's clicks and typing in ``/desk``'s forms in a real
chromium: a command's form filled field by field, a file chosen for a CSV upload, a
result entered by table number on the result page, "Check first" before a penalty, a
disqualification's confirmation, the slips printed), ``Terminal`` (the same steps as
``tourney`` command lines, written here independently of the console's forms),
``tables`` (a round's tables, read at the terminal), ``twin`` (a copy of the opening for
the CLI's run) and ``same_events`` (the two logs, event for event: actor, kind, body).

May import: ``tests.helpers.*``, ``cli.api_runner``, ``ledger.storage.location``, the standard
library (Playwright objects are passed in).
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

from tests.helpers.api_event import Opening, bodies, card_token
from tests.helpers.browser import ARTIFACTS
from tests.helpers.cli_runner import Cli, remember_secret
from tests.helpers.live import GENEROUS_S, running

SIZES = {"desktop": {"width": 1280, "height": 800}, "tablet": {"width": 820, "height": 1180}}
DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "desk"
OFFICIALS = {"sk": "scorekeeper", "judge": "judge", "st": "station"}
#: the serve options of the opening's keys (the server signs for hj, sk and judge)
SERVE = ("--station-key", "st.pem", "--staff-key", "hj.pem", "--staff-key", "sk.pem",
         "--staff-key", "judge.pem")


def opening(d: Path, fmt: str, *init: str) -> Opening:
    d.mkdir(parents=True, exist_ok=True)
    cli = Cli(d, d / "t.db")
    for stem in ("hj", *OFFICIALS):
        cli("keys", "new", "--name", f"{stem} person", "--out", f"{stem}.pem")
        remember_secret(d / f"{stem}.pem")
    log = cli("init", "--name", f"{fmt} from the desk", "--format", fmt, *init, "--key",
              "hj.pem", "--json").doc["tournament"]
    for stem, role in OFFICIALS.items():
        cli("official", "add", "--role", role, "--name", stem, "--public-key",
            f"{stem}.pem.pub", "--key", "hj.pem")
    op = Opening(cli, d, str(log))
    hj = next(o["name"] for o in cli("official", "list", "--json").doc["officials"]
              if "head_judge" in o["roles"])
    op.tokens["hj"] = card_token(cli, d, "hj", hj)
    for stem in ("sk", "judge"):
        op.tokens[stem] = card_token(cli, d, stem, stem)
    return op


def twin(op: Opening, d: Path) -> Cli:
    """A copy of the opening (same keys, same genesis) for the CLI's run of the script."""
    shutil.copytree(op.d, d)
    return Cli(d, d / "t.db")


def tables(cli: Cli, n: int | None = None) -> tuple[int, list[dict[str, Any]]]:
    doc = cli("round", "show", *(() if n is None else (str(n),)), "--json").doc
    return int(doc["round"]), list(doc["tables"])


def same_events(a: Cli, b: Cli) -> None:
    x, y = bodies(a), bodies(b)
    assert [e[1] for e in x] == [e[1] for e in y], "the two logs' kinds differ"
    for k, (p, q) in enumerate(zip(x, y, strict=True)):
        assert p == q, f"event {k + 1}: {p} != {q}"


class Desk(Protocol):
    def do(self, who: str, path: str, **args: Any) -> dict[str, Any]: ...

    def by_table(self, who: str, rnd: int, table: int, winner: int,
                 seat: int | None = None) -> dict[str, Any]: ...

    def check(self, who: str, path: str, **args: Any) -> str | None: ...

    def slips(self, n: int) -> int | None: ...

    def shot(self, who: str, name: str) -> None: ...

    def held(self, who: str, shown: bool) -> str | None: ...


#: the CLI's positional arguments of the commands the scripts run, by name
POSITIONAL = {"player/add": ("name",), "player/late": ("name",), "player/import": ("file",),
              "team/import": ("file",), "team/add": ("members",), "drop": ("number",),
              "undrop": ("number",), "round/post": ("number",), "disqualify": ("number",),
              "penalty/issue": ("number",), "penalty/offer": ("number",),
              "result/import": ("file",), "forfeit": ("number",)}
FILES = {"player/import", "team/import", "result/import"}
#: the option that says False of a flag with its opposite
OFF = {"last_battle": "--before-last-battle", "hold_pairings": "--no-hold-pairings"}


def done(desk: Desk, who: str, path: str, **args: Any) -> dict[str, Any]:
    """``desk.do(…)``, which must succeed (the whole-event scripts' every step but the
    refusals they look for)."""
    out = desk.do(who, path, **args)
    assert out["ok"], (path, args, out)
    return out


def bracket_to_champion(desk: Desk, cli: Cli, seed: dict[str, Any],
                        seen: dict[str, Any]) -> None:
    """Run ``bracket`` (seeded once by ``seed``) and enter every bracket table's result by
    table, side a winning, until the bracket is decided (its refusal kept in
    ``seen["bracket_end"]``; ``seen["results"]`` counted)."""
    while True:
        br = desk.do("hj", "bracket", **seed)
        seed = {}
        if not br["ok"]:
            seen["bracket_end"] = br
            return
        n, ts = tables(cli)
        for t in ts:
            if t["result"] is None and len(t["players"]) == 2:
                assert desk.by_table("sk", n, t["table"], t["players"][0])["ok"]
                seen["results"] += 1


class Terminal:
    """The scripts' steps as ``tourney`` command lines, each official with their key."""

    def __init__(self, cli: Cli) -> None:
        self.cli = cli

    def do(self, who: str, path: str, **args: Any) -> dict[str, Any]:
        opts: list[str] = []
        pos: list[str] = []
        for k, v in args.items():
            if k in POSITIONAL.get(path, ()):
                if path in FILES:
                    f = self.cli.cwd / f"upload-{path.replace('/', '-')}.csv"
                    f.write_text(v)
                    v = str(f)
                pos += [str(x) for x in v] if isinstance(v, list) else [str(v)]
            elif v is True:
                opts.append("--" + k.replace("_", "-"))
            elif v is False and k in OFF:
                opts.append(OFF[k])
            elif v is not False:
                opts += ["--" + k.replace("_", "-"), str(v)]
        run = self.cli(*path.split("/"), *opts, *pos, "--key", f"{who}.pem", code=None)
        return {"ok": run.code == 0, "text": run.out + run.err}

    def by_table(self, who: str, rnd: int, table: int, winner: int,
                 seat: int | None = None) -> dict[str, Any]:
        where = {} if seat is None else {"seat": seat}
        return self.do(who, "result/record", round=rnd, table=table, **where, winner=winner)

    def check(self, who: str, path: str, **args: Any) -> str | None:
        return None

    def slips(self, n: int) -> int | None:
        return None

    def shot(self, who: str, name: str) -> None:
        return None

    def held(self, who: str, shown: bool) -> str | None:
        return None


#: each named field of the command's form: how many there are, its tag and type, its
#: value and (a select) its options' values
FIELDS_JS = (
    "names => Object.fromEntries(names.map(k => {"
    " const all = document.querySelectorAll(`form.cmd [name=\"${k}\"]`); const e = all[0];"
    " return [k, e ? [all.length, e.tagName.toLowerCase() + ':' + (e.type || ''),"
    " e.value || '', e.options ? [...e.options].map(o => o.value) : []]"
    " : [0, '', '', []]]; }))")


class Console:
    """The scripts' steps as an official's clicks and typing in ``/desk`` (one browser
    context per official, signed in by their staff card)."""

    def __init__(self, browser: Any, base: str, tokens: dict[str, str], size: str,
                 label: str) -> None:
        self.browser, self.base, self.tokens, self.size = browser, base, tokens, size
        self.label = label
        self.pages: dict[str, Any] = {}
        self.actions = 0
        self.searched = 0          # forms reached by the console's command search
        self.typed = 0             # forms reached by their address (no search hit)

    def page(self, who: str) -> Any:
        if who not in self.pages:
            ctx = self.browser.new_context(viewport=SIZES[self.size])
            ctx.set_default_timeout(15_000)
            p = ctx.new_page()
            p.goto(f"{self.base}/c/{self.tokens[who]}")
            self.pages[who] = p
        return self.pages[who]

    def close(self) -> None:
        for p in self.pages.values():
            p.context.close()

    def _open(self, who: str, path: str) -> Any:
        """The command's form, reached as an official does: "/" to the console's command
        search, its words typed, the command's link followed."""
        p = self.page(who)
        p.goto(self.base + "/desk")
        p.keyboard.press("/")
        p.keyboard.type(path.replace("/", " "))
        link = p.locator(f'ul.cmds li:visible a[href="/desk/do/{path}"]')
        if link.count():
            link.first.click()
            p.wait_for_url(f"**/desk/do/{path}")
            self.searched += 1
        else:                                  # a command the search words do not reach
            p.goto(f"{self.base}/desk/do/{path}")
            self.typed += 1
        return p

    def _fill(self, p: Any, path: str, args: dict[str, Any]) -> Any:
        # what each field is, its value and a select's options, read in one call (a call
        # to the browser costs more than what it reads; it was one call a field)
        fields = p.evaluate(FIELDS_JS, list(args))
        last = None
        for k, v in args.items():
            count, kind, value, options = fields[k]
            assert count == 1, f"{count} fields named {k!r} in the form of {path}"
            el = p.locator(f'form.cmd [name="{k}"]')
            if kind == "input:file":
                el.set_input_files({"name": f"{k}.csv", "mimeType": "text/csv",
                                    "buffer": str(v).encode("utf-8")})
            elif kind.startswith("select") and isinstance(v, bool):
                # a flag with its opposite (--hold-pairings / --release-pairings)
                said = [o for o in options if o]
                el.select_option(said[0] if v else said[1])
            elif kind.startswith("select"):
                el.select_option(str(v))
            elif kind == "input:checkbox":
                el.set_checked(bool(v))
            elif kind.startswith("textarea"):
                el.fill("\n".join(str(x) for x in v) if isinstance(v, list) else str(v))
            else:
                el.click()
                if value:                      # a value given by the form: cleared first
                    el.fill("")
                el.type(str(v))                # typed, as an official types
                last = el
        return last

    def _outcome(self, p: Any) -> dict[str, Any]:
        box = p.locator("#outcome")
        box.wait_for()
        self.actions += 1
        return {"ok": "done" in (box.get_attribute("class") or ""), "text": box.inner_text()}

    def do(self, who: str, path: str, **args: Any) -> dict[str, Any]:
        p = self._open(who, path)
        last = self._fill(p, path, args)
        with p.expect_navigation():
            if last is not None and path != "disqualify":
                last.press("Enter")            # the form's first button: Sign and record
            else:
                p.locator("form.cmd button.go").click()
        if path == "disqualify":               # asked twice: the values, then "Yes, sign it"
            assert "This cannot be taken back" in p.inner_text("main"), p.inner_text("main")
            self.shot(who, "disqualify-confirm")
            with p.expect_navigation():
                p.get_by_role("button", name="Yes, sign it").click()
        return self._outcome(p)

    def by_table(self, who: str, rnd: int, table: int, winner: int,
                 seat: int | None = None) -> dict[str, Any]:
        """The result page: the round and table typed, Enter (a team table: then its
        seat, Enter), "One of us won", the winner picked, signed."""
        p = self.page(who)
        p.goto(self.base + "/desk/result")
        p.fill("#r-round", str(rnd))
        p.fill("#r-table", str(table))
        with p.expect_navigation():
            p.keyboard.press("Enter")
        if seat is not None:
            assert "seat by seat" in p.inner_text("main"), p.inner_text("main")
            p.fill("#r-seat", str(seat))
            with p.expect_navigation():
                p.keyboard.press("Enter")
        p.get_by_label("One of us won").check()
        p.select_option("select[name$='.winner']", str(winner))
        with p.expect_navigation():
            p.get_by_role("button", name="Sign and record").click()
        return self._outcome(p)

    def check(self, who: str, path: str, **args: Any) -> str | None:
        """"Check first": what would be recorded, signing nothing."""
        p = self._open(who, path)
        self._fill(p, path, args)
        with p.expect_navigation():
            p.get_by_role("button", name="Check first").click()
        out = self._outcome(p)
        assert out["ok"] and "nothing signed" in out["text"], out
        self.shot(who, "check-first")
        return str(out["text"])

    def slips(self, n: int) -> int | None:
        """The round's slips page in print media: the number of slips shown."""
        p = self.page("sk")
        # the pages follow the log a moment behind the command that paired the round:
        # until they have it, the slips page says it is not posted (a wait on that, never
        # a fixed sleep; it showed once the reads of the tables took 0.05 s, not 1 s)
        end = time.monotonic() + GENEROUS_S
        while True:
            p.goto(f"{self.base}/desk/slips/{n}")
            if "is not posted" not in p.inner_text("main") or time.monotonic() > end:
                break
            time.sleep(0.1)
        p.emulate_media(media="print")
        assert not p.locator("nav.site").is_visible()
        count = int(p.locator(".slip").count())
        self.shot("sk", f"slips-{n}-print")
        p.emulate_media(media="screen")
        return count

    def held(self, who: str, shown: bool) -> str | None:
        """The console's "held for checking" line, once it is ``shown`` (or gone)."""
        p = self.page(who)
        end = time.monotonic() + 10
        while True:
            p.goto(self.base + "/desk")
            line = p.locator("p.status", has_text="Held for checking")
            text = str(line.inner_text()) if line.count() else ""
            if bool(text) == shown or time.monotonic() > end:
                return text
            time.sleep(0.2)

    def shot(self, who: str, name: str) -> None:
        p = self.page(who)
        full = f"desk-event-{self.label}-{self.size}-{name}"
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        p.screenshot(path=str(ARTIFACTS / f"{full}.png"))
        if os.environ.get("TOURNEY_DESK_SHOTS"):
            DOCS.mkdir(parents=True, exist_ok=True)
            p.screenshot(path=str(DOCS / f"{full}.png"))


@contextmanager
def console_on(op: Opening, browser: Any, size: str, name: str) -> Iterator[Console]:
    """A server over the opening's ledger as ``tourney serve`` runs it for a desk (the
    station's key, the head judge's, scorekeeper's and judge's keys held, the console's
    own command runner) and a ``Console`` on it, closed after."""
    from cli.api_runner import ApiRunner
    from ledger.storage.location import Location

    d = op.d
    with running(op.cli.ledger, station_key=d / "st.pem",
                 staff_keys=(d / "hj.pem", d / "sk.pem", d / "judge.pem"),
                 runner=ApiRunner(Location(str(op.cli.ledger)))) as (base, _hub):
        console = Console(browser, base, op.tokens, size, name)
        try:
            yield console
        finally:
            console.close()
