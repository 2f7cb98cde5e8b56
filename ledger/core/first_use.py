"""A class attribute built on first read (issue 22, ADR 0025 sixth pass).

Owns: ``on_first_use`` — a format plug-in's attribute (its rulebook, its transitions, its
result vocabulary) whose modules are imported only when a command first reads it, so
that a read command (``standings``, ``round show``) folds events without importing the
format's checks, commands or vocabulary.  After the first read the value replaces the
descriptor on the class it was read through: later reads are plain class attributes
(the fold reads ``transitions`` once per event).

May import: the standard library only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, cast

T = TypeVar("T")


class _OnFirstUse(Generic[T]):
    def __init__(self, build: Callable[[type[Any]], T]) -> None:
        self.build = build
        self.name = ""

    def __set_name__(self, owner: type[Any], name: str) -> None:
        self.name = name

    def __get__(self, obj: object, owner: type[Any]) -> T:
        value = self.build(owner)
        setattr(owner, self.name, value)
        return value


def on_first_use(build: Callable[[type[Any]], T]) -> T:
    """A class attribute whose value is ``build(cls)``, computed when first read through
    ``cls`` (typed as the value, so it can stand where a ``ClassVar[T]`` is declared)."""
    return cast(T, _OnFirstUse(build))
