"""One line of a table's result and a player's label, as every command prints them.

Owns: ``label`` (``#7 Ada Lovelace``: ``projections.result_words.player_label``, the
same words a round's verdict uses in ``usecases.rounds``).  Kept apart from
``cli.round_cmd`` so that recording a result does not import the round-display module for
it (issue 22 item 6); a result's words are its format's
(``projections.result_words.describe``).

May import: ``projections.result_words``.
"""

from __future__ import annotations

from projections.result_words import player_label as label

__all__ = ["label"]
