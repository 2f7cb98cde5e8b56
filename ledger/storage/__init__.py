"""Storage (docs/DESIGN.md §3): the ledger on SQLite or PostgreSQL, the writer turn and
write sessions, snapshots, the checkpoint and cosignature tables, stations.
"""
