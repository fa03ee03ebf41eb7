"""benchmark: the published benchmark's cases with their RQ4 assessment (benchmark_cases), and ppbench's run
records (bench_runs, one per measured process; bench_results, one verdict per case and invocation)

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "bench_results",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("session_id", sa.String(length=40), nullable=False),
        sa.Column("case_name", sa.String(length=100), nullable=False),
        sa.Column("question_id", sa.BigInteger(), nullable=True),
        sa.Column("pp_index", sa.Integer(), nullable=True),
        sa.Column("pp_ids", sa.JSON(), nullable=False),
        sa.Column("symptom", sa.String(length=40), nullable=False),
        sa.Column("metric", sa.String(length=40), nullable=True),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("reproduced", sa.Boolean(), nullable=True),
        sa.Column("ratio", sa.Float(), nullable=True),
        sa.Column("ci_low", sa.Float(), nullable=True),
        sa.Column("ci_high", sa.Float(), nullable=True),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.Column("record", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("bench_results", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_bench_results_case_name"), ["case_name"], unique=False)
        batch_op.create_index(batch_op.f("ix_bench_results_question_id"), ["question_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_bench_results_session_id"), ["session_id"], unique=False)

    op.create_table(
        "bench_runs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("session_id", sa.String(length=40), nullable=False),
        sa.Column("case_name", sa.String(length=100), nullable=False),
        sa.Column("question_id", sa.BigInteger(), nullable=True),
        sa.Column("pp_index", sa.Integer(), nullable=True),
        sa.Column("pp_ids", sa.JSON(), nullable=False),
        sa.Column("variant", sa.String(length=10), nullable=False),
        sa.Column("repeat", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.Column("wall_s", sa.Float(), nullable=True),
        sa.Column("cpu_s", sa.Float(), nullable=True),
        sa.Column("peak_rss_bytes", sa.BigInteger(), nullable=True),
        sa.Column("record", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("bench_runs", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_bench_runs_case_name"), ["case_name"], unique=False)
        batch_op.create_index(batch_op.f("ix_bench_runs_question_id"), ["question_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_bench_runs_session_id"), ["session_id"], unique=False)

    op.create_table(
        "benchmark_cases",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("question_id", sa.BigInteger(), nullable=False),
        sa.Column("pp_index", sa.Integer(), nullable=False),
        sa.Column("published_id", sa.String(length=40), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("library", sa.String(length=40), nullable=True),
        sa.Column("profiler_status", sa.Integer(), nullable=False),
        sa.Column("xla_status", sa.Integer(), nullable=False),
        sa.Column("documentation_applies", sa.Boolean(), nullable=False),
        sa.Column("symptom1", sa.String(length=80), nullable=True),
        sa.Column("symptom2", sa.String(length=80), nullable=True),
        sa.Column("root_cause", sa.String(length=80), nullable=True),
        sa.Column("introducing_stage", sa.String(length=80), nullable=True),
        sa.Column("exposing_stage", sa.String(length=80), nullable=True),
        sa.Column("imported_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["question_id"], ["questions.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("question_id", "pp_index", name="uq_benchmark_cases_pp"),
    )
    with op.batch_alter_table("benchmark_cases", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_benchmark_cases_question_id"), ["question_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("benchmark_cases", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_benchmark_cases_question_id"))

    op.drop_table("benchmark_cases")
    with op.batch_alter_table("bench_runs", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_bench_runs_session_id"))
        batch_op.drop_index(batch_op.f("ix_bench_runs_question_id"))
        batch_op.drop_index(batch_op.f("ix_bench_runs_case_name"))

    op.drop_table("bench_runs")
    with op.batch_alter_table("bench_results", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_bench_results_session_id"))
        batch_op.drop_index(batch_op.f("ix_bench_results_question_id"))
        batch_op.drop_index(batch_op.f("ix_bench_results_case_name"))

    op.drop_table("bench_results")
