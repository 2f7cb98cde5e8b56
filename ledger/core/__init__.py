"""The event core (docs/DESIGN.md §2, §6, §10): the tournament aggregate and its state, the
format socket and plug-in base, the core rules, the roster, parameters, DRAW-v1, the
result vocabulary and the exact matcher.
"""
