"""The console's command words in the page's language (issue 31: the desk's command
forms in Japanese and Arabic).

Owns: ``commands_path`` (``server/locale/<lang>/LC_MESSAGES/commands.po``, the site's
third gettext domain, keyed by the English text of the command specs), ``CommandWords``
(what the console's templates call as ``cw``: a command's name, summary and help, a
field's words, label, help and choices, a panel's title, a form's refusal, each in the
page's language), ``label_words`` (the English words of a parameter: its name with
spaces), ``help_blocks`` (a command's help as prose paragraphs and example lines),
``messages`` (every string the console shows for a list of specs, with where it is
shown: what ``python -m cli.command_words --pot`` writes for a translator) and
``CONSOLE_SENTENCES`` (the console's and staff page's own sentences: why a form or a
page is refused, as patterns, and the words joining roles: their one home is
``commands.po``, never ``sentences.po``) and ``CommandWords.say`` (the one pipeline of a
sentence a console or staff page shows: its own words, else the server's sentence
patterns).  The site's ``tourney.po``
stands behind ``commands.po`` (the officials' roles are its words).

The specs stay English and unchanged (``usecases.command_specs``): the CLI, the HTTP API
and its OpenAPI document are contracts.  Words are translated when a page is rendered:
an exact entry, else a pattern (``server.format_words.match``, ``%(name)s`` fields
copied), else the English text, never a message id.  English is the identity, so the
English console keeps its bytes.

May import: ``server.format_words``, ``server.i18n``, ``usecases.command_specs``,
``markupsafe``, the standard library.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from pathlib import Path

from markupsafe import Markup, escape

from server.format_words import _Pattern, compile_po, match, patterns_of
from server.i18n import LOCALE, Language, translations
from usecases.command_specs import CommandSpec, ParamKind

DOMAIN = "commands"
#: the line of a help paragraph that shows the command typed, kept as it is (code)
EXAMPLE = "Example: "
#: the console's own sentences: its refusals of a posted form (``server.desk_forms``,
#: ``server.desk_common``; by pattern, the option's spelling copied), why a staff page
#: refuses (``server.desk_*``, ``server.staff_routes``, ``server.forms``) and the
#: joiners of roles
CONSOLE_SENTENCES: tuple[str, ...] = (
    "Sign in with your staff card (its QR code) first.",
    "Your staff card belongs to an official who no longer has a role in this event.",
    "Your staff card belongs to an official who is no longer a scorekeeper, judge or "
    "head judge of this event.",
    "This form is out of date or did not come from this site; open the console again.",
    "This form is out of date or did not come from this site; open the staff page again.",
    "The desk has no such command; pick one from the console.",
    "Round %(n)s has no table %(table)s; check the number.",
    "Round %(n)s has no table %(table)s seat %(seat)s; check the number.",
    "Round %(n)s is not posted; post it first, then print its slips.",
    "missing %(label)s",
    "%(label)s %(value)s is not a whole number",
    "%(label)s %(value)s is not a number",
    "%(label)s %(value)s is not one of its choices",
    "type a number for %(label)s",
    "one of %(choices)s",
    "say %(yes)s or %(no)s",
    "choose a file or paste its contents",
    "fill it in",
    "this server does not hold your key, so it cannot sign for you",
    "a key in your browser cannot sign %(command)s (it is saved in several steps): run it "
    "at the desk's terminal with your key file",
    "turn JavaScript on: a key made in your browser signs it (see the key page)",
    "restart it with --staff-key YOUR.pem, or run the command at the desk with your key",
    "this command has no check: it is decided when it is signed",
    "sign it, or check the rules first",
    "sign in with your staff card and send the form from the console",
    "the desk has no command %(what)s",
    "pick one from the console",
    "Example:",
    " or ",       # joins the roles a command needs ("needs head judge or judge")
    ", ",         # joins the roles a command is for
)
_CODE = re.compile(r"^[A-Z0-9]{1,3}$")     # a choice that is a code (O1, Q5): as it is
#: what is typed inside a translated text (escaped HTML): a quoted command or value, an
#: option's spelling
_TYPED = re.compile(r"&#39;(?:(?!&#39;)[^\n]){1,160}?&#39;|--[a-z][a-z0-9-]*")


def commands_path(lang: Language) -> Path:
    return LOCALE / lang.value / "LC_MESSAGES" / f"{DOMAIN}.po"


@lru_cache(maxsize=None)
def command_translations(lang: Language) -> gettext.NullTranslations:
    """``commands.po`` in ``lang``, compiled in memory at first use, the site's
    ``tourney.po`` behind it (the officials' roles); English: none."""
    po = commands_path(lang)
    site = translations(lang)
    if lang is Language.EN or not po.exists():
        return site
    return compile_po(po, lang, DOMAIN, site)


@lru_cache(maxsize=None)
def _patterns(lang: Language) -> tuple[_Pattern, ...]:
    return patterns_of(commands_path(lang), lang) if lang is not Language.EN else ()


def label_words(name: str) -> str:
    """A parameter's English words: its name with spaces (``seed_material`` → "seed
    material"), the message id of its label."""
    return name.replace("_", " ")


def option_words(spelling: str) -> str:
    """An option's English words (``--not-upheld`` → "not upheld")."""
    return spelling.lstrip("-").replace("-", " ").replace("_", " ")


def help_blocks(text: str) -> list[tuple[str, str]]:
    """A command's help as blocks: ("p", a paragraph on one line) or ("example", the
    command typed, after ``Example: ``)."""
    out: list[tuple[str, str]] = []
    for para in text.strip().split("\n\n"):
        lines = [ln.strip() for ln in para.strip().splitlines() if ln.strip()]
        prose: list[str] = []
        for ln in lines:
            if ln.startswith(EXAMPLE):
                if prose:
                    out.append(("p", " ".join(" ".join(prose).split())))
                    prose = []
                out.append(("example", ln[len(EXAMPLE):]))
            else:
                prose.append(ln)
        if prose:
            out.append(("p", " ".join(" ".join(prose).split())))
    return out


def is_code(choice: str) -> bool:
    return bool(_CODE.match(choice))


class CommandWords:
    """The command words in one language: ``cw(text)``, and a few helpers by what is
    shown.  English: every text as it is, and no label words (the console shows the
    CLI's option spelling alone, as it always did)."""

    def __init__(self, lang: Language) -> None:
        self.lang = lang
        self.english = lang is Language.EN
        self._memo: dict[str, str] = {}

    def __call__(self, text: object) -> str:
        s = "" if text is None else str(text)
        if self.english or not s.strip():
            return s
        out = self._memo.get(s)
        if out is None:
            out = match(s, command_translations(self.lang), _patterns(self.lang), self)
            if len(self._memo) < 1 << 14:     # the specs' words; a refusal's text may vary
                self._memo[s] = out
        return out

    def say(self, text: object, then: Callable[[str], str]) -> str:
        """A sentence a console or staff page shows (its problem, a refused command's
        sentence or hint, ``/desk/say``'s answer) in this language: the console's own
        words first (``CONSOLE_SENTENCES``, ``commands.po``), else ``then`` (the server's
        sentence patterns, ``Pages.sentences``: the ledger's refusals), else English.
        The one pipeline: templates call ``cw.say(problem, ps)``, the refusals
        ``sayer(ps)``."""
        s = "" if text is None else str(text)
        if self.english:
            return s
        out = self(s)
        return out if out != s else then(s)

    def sayer(self, then: Callable[[str], str]) -> Callable[[str], str]:
        """``say`` with ``then`` bound (what ``server.sentences.refusal_words`` takes)."""
        return lambda text: self.say(text, then)

    def mark(self, text: object) -> Markup:
        """``text`` as HTML, what is typed in it (an option's spelling, a quoted command or
        value, its quotes too) in ``<code>``, so a right-to-left page keeps it left to
        right; English: the text escaped, as the console always showed it."""
        s = str(escape("" if text is None else str(text)))
        if self.english:
            return Markup(s)
        return Markup(_TYPED.sub(lambda m: f"<code>{m.group(0)}</code>", s))

    def marked(self, text: object) -> Markup:
        """``text`` translated, then ``mark``ed."""
        return self.mark(self(text))

    def name(self, spec: CommandSpec) -> str:
        return self(" ".join(spec.words))

    def summary(self, spec: CommandSpec) -> str:
        return self(spec.summary)

    def label(self, name: str) -> str:
        """The words beside a field's option spelling ("" in English)."""
        return "" if self.english else self(label_words(name))

    def choice(self, choice: str) -> str:
        return choice if is_code(choice) else self(choice)

    def option(self, spelling: str) -> str:
        """The words beside an option's spelling in a choice between two (``--upheld``
        / ``--not-upheld``): "" in English."""
        return "" if self.english else self(option_words(spelling))

    def roles(self, roles: Sequence[str], joiner: str = " or ") -> str:
        """The roles a command needs or is for, in words ("head judge or judge")."""
        return self(joiner).join(self(r.replace("_", " ")) for r in roles)

    def help(self, spec: CommandSpec) -> list[tuple[str, str]]:
        return [(k, t if k == "example" else self(t)) for k, t in help_blocks(spec.help)]

    def finds(self, spec: CommandSpec, q: str) -> bool:
        """Whether the console's search ``q`` (lowercase) finds ``spec`` in this
        language's words too."""
        return not self.english and (q in self.name(spec).lower()
                                     or q in self.summary(spec).lower())


@lru_cache(maxsize=None)
def command_words(lang: Language) -> CommandWords:
    return CommandWords(lang)


def messages(specs: Iterable[CommandSpec], panels: Sequence[str] = ()) -> dict[str, str]:
    """Every string the console shows for ``specs`` (and the panels' titles), each with
    where it is first shown: the message ids of ``commands.po``."""
    out: dict[str, str] = {}

    def add(text: str, where: str) -> None:
        if text.strip() and text not in out:
            out[text] = where

    for title in panels:
        add(title, "a panel of the console")
    for text in CONSOLE_SENTENCES:
        add(text, "the console's own words (a refusal, a joiner)")
    for spec in specs:
        where = " ".join(spec.words)
        add(where, "a command's name")
        add(spec.summary, f"{where}: summary")
        for kind, text in help_blocks(spec.help):
            if kind == "p":
                add(text, f"{where}: help")
        for p in spec.params:
            add(label_words(p.name), f"{where}: a field's label")
            if p.off:
                add(option_words(p.off), f"{where}: the opposite of {p.opts[0]}")
            add(p.help, f"{where} {p.name}: a field's help")
            if p.kind is ParamKind.CHOICE:
                for c in p.choices:
                    if not is_code(c):
                        add(c, f"{where} {p.name}: a choice")
    return out
