"""HotC Swiss double elimination with a random top cut (RULES.md §2, format ``hotc-swiss-de``).

``plugin.HOTC`` is the format's plug-in (``ledger.plugin.FormatPlugin``); the registry
(``ledger.formats.registry``) plugs it in.  Its modules: ``model`` (state), ``events``
(wire kinds), ``apply`` (transitions), ``plan`` (every decision, shared by commands and
checks), ``checks`` (rules the audit re-runs), ``commands`` (verbs), ``pairing``,
``results``, ``cut``.
"""
