"""check findings: ppcheck's findings on the code blocks of questions, and which questions were checked

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "checked_posts",
        sa.Column("site", sa.String(length=100), nullable=False),
        sa.Column("question_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("question_refreshed_at", sa.DateTime(), nullable=False),
        sa.Column("checker_version", sa.String(length=40), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("blocks", sa.Integer(), nullable=False),
        sa.Column("skipped_blocks", sa.JSON(), nullable=False),
        sa.Column("checked_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("site", "question_id"),
    )
    op.create_table(
        "check_findings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("site", sa.String(length=100), nullable=False),
        sa.Column("question_id", sa.BigInteger(), nullable=False),
        sa.Column("block", sa.Integer(), nullable=False),
        sa.Column("line", sa.Integer(), nullable=False),
        sa.Column("column", sa.Integer(), nullable=False),
        sa.Column("rule", sa.String(length=10), nullable=False),
        sa.Column("root_cause", sa.String(length=80), nullable=False),
        sa.Column("message", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_check_findings_site_question_id", "check_findings", ["site", "question_id"])
    op.create_index("ix_check_findings_rule", "check_findings", ["rule"])


def downgrade() -> None:
    op.drop_index("ix_check_findings_rule", table_name="check_findings")
    op.drop_index("ix_check_findings_site_question_id", table_name="check_findings")
    op.drop_table("check_findings")
    op.drop_table("checked_posts")
