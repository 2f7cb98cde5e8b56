"""A canonical leaf read by its shape alone: the presumed signature job (issue 22 item 9).

Owns: ``Job`` (raw public key, signature, message), ``presumed_job`` (a leaf's signature job
read straight from its bytes, as if the leaf were canonical) and ``reads_as`` (the fold's
cheap confirmation that it does).  Below both the signature pool (``audit.sigpool``) and the
workers' stateless pass (``audit.prechecks``), which the pool runs: so they import each other
in one direction (docs/adr/0039-layering-layers-and-rule-ids.md).

May import: the standard library.
"""

from __future__ import annotations

import binascii

Job = tuple[bytes, bytes, bytes]  # (raw public key, signature, message)
#: a canonical leaf: ``{"event":{"actor":"<key id>",…},"sig":"<base64>"}`` (sorted keys)
_ENVELOPE = b'{"event":'
_HEAD = _ENVELOPE + b'{"actor":"'
_SIG = b',"sig":"'


def presumed_job(leaf: bytes, keys: dict[str, bytes], domain: bytes
                 ) -> tuple[str, Job] | None:
    """(actor, job) of ``leaf`` read as a canonical leaf: the actor is the first field of
    the event, the signature the last field of the leaf, the signing input ``domain`` + the
    bytes between ``{"event":`` and ``,"sig":"``; ``None`` when the bytes do not read so or
    the actor has no key."""
    if not leaf.startswith(_HEAD) or not leaf.endswith(b'"}'):
        return None
    end = leaf.find(b'"', len(_HEAD))
    cut = leaf.rfind(_SIG)
    if end < 0 or cut < end:
        return None
    try:
        actor = leaf[len(_HEAD):end].decode("utf-8")
        sig = binascii.a2b_base64(leaf[cut + len(_SIG):-2], strict_mode=True)
    except (UnicodeDecodeError, binascii.Error):
        return None
    pub = keys.get(actor)
    if pub is None:
        return None
    return actor, (pub, sig, domain + leaf[len(_ENVELOPE):cut])


def reads_as(leaf: bytes, actor: str, sig: bytes) -> bool:
    """``leaf`` begins with ``actor`` as the first field of the event and ends with ``sig``
    (canonical base64) as its last field — so ``presumed_job`` reads exactly this actor and
    signature (base64 holds no comma or quote: the last ``,"sig":"`` is this field's)."""
    return (leaf.startswith(b"".join((_HEAD, actor.encode("utf-8"), b'"'))) and
            leaf.endswith(b"".join((_SIG, binascii.b2a_base64(sig, newline=False), b'"}'))))
