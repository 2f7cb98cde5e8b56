"""Verifiable seed sources (docs/DESIGN.md §6, §11): RANDOM.ORG signed responses, drand beacons,
commit-reveal.  Pure verification functions over foreign bytes and the keys pinned in
``ledger.randomness.pins``; the rules (``ledger.randomness.rules``) call them at record time
and on every audit replay.
"""
