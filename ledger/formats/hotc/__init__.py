"""HotC Swiss double elimination with a random top cut (RULES.md §2, format ``hotc-swiss-de``).

``plugin.HOTC`` is the format's plug-in (``ledger.core.format_plugin.FormatPlugin``); the registry
(``ledger.formats.registry``) plugs it in.  Its modules: ``revision`` (HOTC_2013 and
HOTC_2013_R2, ADR 0010), ``model`` (state), ``events`` (wire kinds), ``cut_apply``
(transitions), ``plan`` (every decision, shared by commands and checks), ``bye`` (the R2
bye choice), ``checks`` (rules the audit re-runs), ``commands`` (verbs), ``slow_play``
(R2 calls and rulings), ``results``, ``cut``.
"""
