"""A whole number typed into a console form (server.desk_forms): decimal digits of any
script are read, a digit-like sign that is not a decimal digit is a usage error naming
the field, never a server error (found by the console's hostile-form test: '²')."""

from __future__ import annotations

import pytest

from ledger.errors import UsageError
from server.desk_forms import args_from
from usecases.command_specs import CommandSpec, Param, ParamKind

SPEC = CommandSpec(path="drop", words=("drop",), summary="", help="",
                   params=(Param("number", ParamKind.INTEGER, required=True,
                                 positional=True),))


@pytest.mark.parametrize(("typed", "read"), [("17", 17), (" 4 ", 4), ("-2", -2),
                                              ("１２", 12)])
def test_decimal_digits_are_read(typed: str, read: int) -> None:
    assert args_from(SPEC, {"number": typed}, {}) == {"number": read}


@pytest.mark.parametrize("typed", ["²", "1²", "⑦", "1_000", "12345678901234", "1.5", "x"])
def test_other_signs_are_a_usage_error_naming_the_field(typed: str) -> None:
    with pytest.raises(UsageError, match="not a whole number"):
        args_from(SPEC, {"number": typed}, {})
