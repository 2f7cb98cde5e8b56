"""Officiating on the log (RULES.md §1.3, §3.3, §4): the Penalty Guide catalogue, penalties,
disqualification, and their effects on match results — a shared layer every format that
plays matches merges into its rulebook (docs/adr/0007-officiating-layer.md).

May import: the core (``ledger.*`` minus formats) and ``ledger.formats.match.*``.
"""
