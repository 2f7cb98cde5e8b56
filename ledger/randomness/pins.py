"""Keys pinned in the project for offline verification of foreign randomness.

Owns: ``RANDOM_ORG_KEYS`` (the RSA keys RANDOM.ORG signs Signed-API responses with) and
``DRAND_CHAINS`` (drand League-of-Entropy chains: public key, scheme, genesis time, period).
A ledger never changes meaning under a new release: keys are only ever added here, each
with where it came from (docs/adr/0008-verifiable-randomness.md).

May import: nothing from this project (data only).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class RsaPin:
    """An RSA public key (e = 65537 unless said) with its provenance."""

    name: str
    modulus_hex: str
    exponent: int
    provenance: str


#: RANDOM.ORG Signed API signing key.  Provenance: the modulus as quoted in a public
#: third-party repository and in ../shared/testvectors/randomness/random_org.json; it
#: verifies the Signed API manual's generateSignedIntegers example (serial 79924).  Cross-
#: check against RANDOM.ORG's published certificate before a production event and add the
#: certificate's fingerprint here (ADR 0008).
RANDOM_ORG_KEYS: tuple[RsaPin, ...] = (
    RsaPin(
        name="random.org-2014",
        modulus_hex=(
            "ecedc74162e74f30828ffab0a08e2f8ff4fddb7ef07bbe2bc1c256db0e12bb320a565027e7285a25"
            "c69e429769987c2642ddda53c1b56daee7df197b85d78f921f9a12460cde254e84965d9022a3cf0d"
            "b1ee55124089d992c827b3c47888692524f2275fa7e606312bb7562b8c8f01e47ab3de4a226e4a88"
            "66056e67541f26881b9acad3eb88a68220dd786dd70dc398e320f34bbdf86cda9150d6216b76839f"
            "0bf1aee6f23217d6b41976cba9d72836de30a27d356bbbdb757b2fe04615e12f60c3eaf22791549e"
            "f271abca7925c4a22f46be0cc28eecb618124e5ece353b97f4ed59ea1b1722eaeab26e5120af44a8"
            "3444d816726c49592bcb24cfb4eee58798dd160e1098705411fcdf71640c9318f82db0ef447327e5"
            "422ba1f900ee0fbded67ff2109d9ce195987e0e021bde38d70f9d06a89b1dedc774a23259bb319fe"
            "812d267c836299389dcab41d6efe76781d541474fe99368a77984c7b3226abef04838d1cc68386b2"
            "7f11daf293ad13aa3ca5ed1dee556edd74c70bd90be6a6775ea95de92c7db49d99436a038d33e53c"
            "885818c2dd78485799852b8670c2869389ad6bec6ff7a1e0cdfcb1651c70141397db01bd6464adb4"
            "826b3971640f98e4a38f109dcd211f068ca14dc1b77c064f589372e76e8712a7713cd81543d608b8"
            "cd177d32d0610a519cfffc62f12e56ac5868f25fac67e742abf8ae5582d39065"),
        exponent=65537,
        provenance="third-party quote of the RANDOM.ORG signing key; verifies the Signed API "
                   "manual example; not yet cross-checked against the certificate",
    ),
)

Scheme = Literal["bls-unchained-g1-rfc9380", "pedersen-bls-chained"]


@dataclass(frozen=True)
class DrandChain:
    name: str
    chain_hash: str
    public_key_hex: str
    scheme: Scheme
    genesis_time: int  # unix seconds of round 1
    period: int        # seconds between rounds


#: drand League of Entropy mainnet chains (public keys as published in the chains' /info).
DRAND_CHAINS: dict[str, DrandChain] = {
    "quicknet": DrandChain(
        name="quicknet",
        chain_hash="52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971",
        public_key_hex=(
            "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3a"
            "c6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5"
            "a6e9c76a4bc09e76eae8991ef5ece45a"),
        scheme="bls-unchained-g1-rfc9380",
        genesis_time=1692803367,
        period=3,
    ),
    "default": DrandChain(
        name="default",
        chain_hash="8990e7a9aaed2ffed73dbd7092123d6f289930540d7651336225dc172e51b2ce",
        public_key_hex=(
            "868f005eb8e6e4ca0a47c8a77ceaa5309a47978a7c71bc5cce96366b5d7a569937c529eeda66c729"
            "3784a9402801af31"),
        scheme="pedersen-bls-chained",
        genesis_time=1595431050,
        period=30,
    ),
}
