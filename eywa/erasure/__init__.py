"""Erasure: the cascade that removes turns and everything derived from them, with a proof.

``plan`` is pure (selector checks, keyed hashes, the report), ``cascade`` runs the steps over
the stores (``eywa.stores.erasure`` holds the store side), ``proof`` checks zero residue,
``retention`` erases what is past a space's retention period through the same cascade,
``merges`` re-evaluates the identity merges an erasure took evidence from.
"""

from eywa.erasure.cascade import continue_erasure, erase, resume_erasures, start_erasure
from eywa.erasure.plan import ErasureProof, ErasureReport, content_mac, selector_of
from eywa.erasure.proof import erasure_proof

__all__ = [
    "ErasureProof",
    "ErasureReport",
    "content_mac",
    "continue_erasure",
    "erase",
    "erasure_proof",
    "resume_erasures",
    "selector_of",
    "start_erasure",
]
