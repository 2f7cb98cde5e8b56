"""HotC Swiss double elimination with a random top cut (RULES.md §2, format ``hotc-swiss-de``).

Its modules register themselves with the ledger core when the core loads them:
``ledger.events`` imports ``hotc.events`` (wire kinds), ``ledger.state`` imports
``hotc.apply`` (state transitions) and ``ledger.rules`` imports ``hotc.checks`` (rules).
"""
