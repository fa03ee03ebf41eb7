"""published ids: keep the PP id as a published file spelled it, so exports give it back unchanged

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    for table in ("pp_labels", "final_labels"):
        with op.batch_alter_table(table) as batch_op:
            batch_op.add_column(sa.Column("published_id", sa.String(length=40), nullable=True))


def downgrade() -> None:
    for table in ("pp_labels", "final_labels"):
        with op.batch_alter_table(table) as batch_op:
            batch_op.drop_column("published_id")
