"""The page matrix for single-elim: every page of ``tourney serve`` at every moment
of its event, in a real browser (``tests/test_page_matrix.py`` says what each cell checks;
the cells run through ``tests/helpers/page_matrix_run.py``, the browser and the event are
``tests/conftest.py``'s ``matrix_*`` fixtures).  One file per format, so the matrix spreads
over pytest-xdist's workers (issue 33)."""

from __future__ import annotations

import pytest

from tests.helpers.page_matrix_run import (
    Events,
    Tabs,
    desktop_cell,
    desktop_cells,
    ja_cell,
    ja_cells,
    needs_browser,
    phone_cell,
    phone_cells,
)

FMT = "single-elim"
pytestmark = needs_browser


@pytest.mark.parametrize(("moment", "page"), phone_cells(FMT))
def test_phone(matrix_tabs: Tabs, matrix_events: Events, matrix_axe: str, moment: str,
               page: str) -> None:
    phone_cell(matrix_tabs, matrix_events, matrix_axe, FMT, moment, page)


@pytest.mark.parametrize("page", desktop_cells(FMT))
def test_desktop_and_no_js(matrix_tabs: Tabs, matrix_events: Events, page: str) -> None:
    desktop_cell(matrix_tabs, matrix_events, FMT, page)


@pytest.mark.parametrize("page", ja_cells(FMT))
def test_phone_in_japanese(matrix_tabs: Tabs, matrix_events: Events, matrix_axe: str,
                           page: str) -> None:
    ja_cell(matrix_tabs, matrix_events, matrix_axe, FMT, page)
