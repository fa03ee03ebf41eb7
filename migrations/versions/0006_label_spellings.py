"""label spellings: keep how an imported file wrote each label beside its code, so exports write it back

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    for table in ("pp_labels", "final_labels"):
        with op.batch_alter_table(table) as batch_op:
            batch_op.add_column(sa.Column("spellings", sa.JSON(), nullable=True))


def downgrade() -> None:
    for table in ("pp_labels", "final_labels"):
        with op.batch_alter_table(table) as batch_op:
            batch_op.drop_column("spellings")
