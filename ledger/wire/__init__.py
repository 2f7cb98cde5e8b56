"""The wire format and signatures (docs/DESIGN.md §4-5): canonical encoding, the event
envelope and bodies, keys and signatures, the text rule, the clock's time format.

Importing the package registers the core bodies that live beside ``events``
(``ledger.wire.pages``: the public pages, ADR 0023; ``ledger.wire.reports``: players'
credentials and reports, ADR 0027), so every process that decodes a leaf
knows them, whatever it imported first.
"""

from ledger.wire import calls as _calls  # noqa: F401  (registers its bodies too)
from ledger.wire import pages as _pages  # noqa: F401  (registers its bodies in BODY_TYPES)
from ledger.wire import reports as _reports  # noqa: F401  (registers its bodies too)
