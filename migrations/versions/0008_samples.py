"""samples: `pplabel identify --sample N --seed S` draws once and stores the sample, so every rater sees the same
posts whatever is matched later

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "samples",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("keyword_set_id", sa.Integer(), nullable=False),
        sa.Column("match_run_id", sa.Integer(), nullable=True),
        sa.Column("candidates", sa.Integer(), nullable=False),
        sa.Column("drawn_by", sa.String(length=100), nullable=False),
        sa.Column("drawn_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["keyword_set_id"], ["keyword_sets.id"]),
        sa.ForeignKeyConstraint(["match_run_id"], ["match_runs.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("seed", "size", name="uq_samples_seed_size"),
    )
    op.create_table(
        "sample_posts",
        sa.Column("sample_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("site", sa.String(length=100), nullable=False),
        sa.Column("question_id", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["sample_id"], ["samples.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("sample_id", "position"),
    )


def downgrade() -> None:
    op.drop_table("sample_posts")
    op.drop_table("samples")
