"""The database schema, declared once: the mining, labeling and benchmark tables on one metadata.

Importing any part loads all three, so every package (mining included, which never imports ``labeling``) reads
the other side's tables through these models rather than by name, and the migrations are held against this one
declaration (tests/test_db.py).
"""

from core.schema import bench, labeling, mining  # noqa: F401  (every table on the one metadata)
