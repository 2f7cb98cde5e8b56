"""Tournament formats: one folder each, plugged into the core through ``ledger.core.format_socket``.

The core (``ledger/`` minus this package) never imports anything here; the application
layers (CLI, audit, simulate) import ``ledger.formats.registry``, which lists the formats.
"""
