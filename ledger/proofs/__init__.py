"""Proofs and witnesses (docs/DESIGN.md §4): the Merkle tree, signed checkpoints and their
notes, witness cosignatures, the witness, appeal proof files.
"""
