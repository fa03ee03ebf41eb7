"""rater name key: a rater's identity is the trimmed, case-folded name ("Ann " and "ann" are one rater)

Existing raters get their key; raters whose names differ only in case or spaces (made before this revision) keep
apart with a numbered key ("ann#2") until `pplabel raters merge` joins them.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _key(name: str) -> str:  # core.schema.labeling.rater_key, frozen here as this revision applies it
    return " ".join(str(name).split()).casefold()


def upgrade() -> None:
    with op.batch_alter_table("raters") as batch_op:
        batch_op.add_column(sa.Column("name_key", sa.String(length=100), nullable=True))
    conn = op.get_bind()
    raters = sa.table("raters", sa.column("id", sa.Integer), sa.column("name", sa.String),
                      sa.column("name_key", sa.String))  # fmt: skip
    seen: dict[str, int] = {}
    for rid, name in conn.execute(sa.select(raters.c.id, raters.c.name).order_by(raters.c.id)).all():
        key = _key(name)
        seen[key] = seen.get(key, 0) + 1
        if seen[key] > 1:
            key = f"{key}#{seen[key]}"
        conn.execute(sa.update(raters).where(raters.c.id == rid).values(name_key=key))
    with op.batch_alter_table("raters") as batch_op:
        batch_op.alter_column("name_key", existing_type=sa.String(length=100), nullable=False)
        batch_op.create_unique_constraint("uq_raters_name_key", ["name_key"])


def downgrade() -> None:
    with op.batch_alter_table("raters") as batch_op:
        batch_op.drop_constraint("uq_raters_name_key", type_="unique")
        batch_op.drop_column("name_key")
