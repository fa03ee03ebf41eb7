"""bench_runs/bench_results.site: a benchmark run names its PP by (site, id) like every other table

Runs stored before this revision name Stack Overflow PPs (the only kind a case could name then), so rows with a
PP get ``stackoverflow``; rows of cases without a PP keep no site.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = ("bench_runs", "bench_results")


def upgrade() -> None:
    for table in TABLES:
        with op.batch_alter_table(table) as batch_op:
            batch_op.add_column(sa.Column("site", sa.String(length=100), nullable=True))
            batch_op.drop_index(f"ix_{table}_question_id")
            batch_op.create_index(f"ix_{table}_site_question_id", ["site", "question_id"], unique=False)
        op.execute(sa.text(f"UPDATE {table} SET site = 'stackoverflow' WHERE question_id IS NOT NULL"))


def downgrade() -> None:
    conn = op.get_bind()
    for table in TABLES:
        other = conn.execute(sa.text(f"SELECT count(*) FROM {table} WHERE site <> 'stackoverflow'")).scalar()
        if other:
            raise RuntimeError(
                f"cannot downgrade below 0010: {other} {table} rows name a PP of another site than Stack Overflow "
                "(the older schema would read them as Stack Overflow posts); delete those runs first"
            )
    for table in TABLES:
        with op.batch_alter_table(table) as batch_op:
            batch_op.drop_index(f"ix_{table}_site_question_id")
            batch_op.create_index(f"ix_{table}_question_id", ["question_id"], unique=False)
            batch_op.drop_column("site")
