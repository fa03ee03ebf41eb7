"""site-qualified posts: questions, answers and comments are keyed by (site, id); everything pointing at a question
holds (site, question_id) with a composite foreign key

Existing rows keep the site they were acquired for: a question's stored ``site`` (the scrape's or import's site
parameter), normalised to the API's name (``ai.stackexchange.com`` -> ``ai``); where it is empty, the site of its
link; else Stack Overflow. Answers, comments, candidates, match checks, decisions, labels and finals take the site of
their question. Downgrading refuses while one id is stored for two sites (it would have to drop one of them).

On SQLite the tables are rebuilt (batch mode); core.db runs migrations with foreign keys off, so rebuilding a
parent table does not cascade into its children, and checks every foreign key before committing.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-23
"""

import re
import warnings
from collections.abc import Sequence
from contextlib import contextmanager

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

POSTS = ("answers", "comments")  # keyed by (site, id) like questions
# table -> (old primary key or unique constraint, its columns before and after, kind)
KEYED = {
    "match_checks": ("pk", ["keyword_set_id", "question_id"], ["keyword_set_id", "site", "question_id"]),
    "final_identifications": ("pk", ["question_id"], ["site", "question_id"]),
    "candidates": ("uq_candidates_version_post", ["keyword_set_id", "question_id"],
                   ["keyword_set_id", "site", "question_id"]),
    "identifications": ("uq_identifications_rater_post", ["rater_id", "question_id"],
                        ["rater_id", "site", "question_id"]),
    "pp_labels": ("uq_pp_labels_rater_pp", ["rater_id", "question_id", "pp_index"],
                  ["rater_id", "site", "question_id", "pp_index"]),
    "final_labels": ("uq_final_labels_pp", ["question_id", "pp_index"], ["site", "question_id", "pp_index"]),
    "benchmark_cases": (
        "uq_benchmark_cases_pp",
        ["question_id", "pp_index"],
        ["site", "question_id", "pp_index"],
    ),
}  # fmt: skip
CHILDREN = (*POSTS, *KEYED)
# the single-column question_id indexes of 0001 -> the (site, question_id) indexes
OLD_INDEX = {
    t: f"ix_{t}_question_id" for t in ("answers", "comments", "candidates", "identifications", "pp_labels",
                                       "final_labels", "benchmark_cases")
}  # fmt: skip
NEW_INDEX = {
    t: f"ix_{t}_site_question_id"
    for t in (
        "answers",
        "comments",
        "match_checks",
        "candidates",
        "identifications",
        "pp_labels",
        "benchmark_cases",
    )
}
SQLITE_FK = {"fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s"}
OWN_DOMAIN = {"stackoverflow", "serverfault", "superuser", "askubuntu", "mathoverflow", "stackapps"}


def _site_of(value: str | None) -> str | None:
    """A stored site or link -> the API's site name (a frozen copy of core.sites' rules, as migrations must not
    change when the code does). None if it names no Stack Exchange site."""
    text = (value or "").strip().lower()
    if not text:
        return None
    host = re.sub(r"^https?://", "", text).split("/", 1)[0].split(":", 1)[0]
    if host.startswith("www."):
        host = host[4:]
    parts = host.split(".")
    if host.endswith(".stackexchange.com") and len(parts) == 3:
        return parts[0]
    if host.endswith(".meta.stackexchange.com") and len(parts) == 4:
        return f"meta.{parts[0]}"
    if len(parts) == 2 and parts[1] == "com" and parts[0] in OWN_DOMAIN:
        return parts[0]
    if len(parts) == 3 and parts[0] == "meta" and parts[2] == "com" and parts[1] in OWN_DOMAIN:
        return f"meta.{parts[1]}"
    if "/" not in text and "." not in text and re.fullmatch(r"[a-z0-9][a-z0-9-]*", text):
        return text
    return None


def _fk_name(table: str) -> str:
    if op.get_bind().dialect.name == "postgresql":
        return f"{table}_question_id_fkey"  # PostgreSQL's own name for the unnamed key of 0001
    return f"fk_{table}_question_id_questions"  # named through SQLITE_FK for batch mode


def _batch(table: str):
    if op.get_bind().dialect.name == "sqlite":
        return op.batch_alter_table(table, naming_convention=SQLITE_FK, recreate="always")
    return op.batch_alter_table(table)


@contextmanager
def _new_primary_keys():
    """Batch mode warns that a rebuilt table's primary key differs from the old one's: that is the point."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", r".*as primary_key=True, not matching", sa.exc.SAWarning)
        yield


def _pk_name(table: str) -> str:
    return f"{table}_pkey"  # PostgreSQL's name; SQLite's primary keys are unnamed (batch mode replaces them)


def _settle_question_sites() -> None:
    conn = op.get_bind()
    questions = sa.table("questions", sa.column("site", sa.String), sa.column("link", sa.Text))
    for (site,) in conn.execute(sa.select(questions.c.site).distinct()).all():
        canonical = _site_of(site)
        if canonical is not None and canonical != site:
            conn.execute(questions.update().where(questions.c.site == site).values(site=canonical))
    empty = sa.or_(questions.c.site.is_(None), questions.c.site == "")
    for (link,) in conn.execute(sa.select(questions.c.link).where(empty).distinct()).all():
        site = _site_of(link) or "stackoverflow"
        match = questions.c.link.is_(None) if link is None else questions.c.link == link
        conn.execute(questions.update().where(empty, match).values(site=site))


def upgrade() -> None:
    with _new_primary_keys():
        _upgrade()


def downgrade() -> None:
    with _new_primary_keys():
        _downgrade()


def _upgrade() -> None:
    _settle_question_sites()
    for table in CHILDREN:
        op.add_column(table, sa.Column("site", sa.String(length=100), nullable=True))
        op.execute(
            f"UPDATE {table} SET site = (SELECT questions.site FROM questions "
            f"WHERE questions.id = {table}.question_id)"
        )
    pg = op.get_bind().dialect.name == "postgresql"
    if pg:  # the keys that point at questions(id) go before its primary key can change
        for table in CHILDREN:
            op.drop_constraint(_fk_name(table), table, type_="foreignkey")
        op.drop_constraint(_pk_name("questions"), "questions", type_="primary")
    with _batch("questions") as batch:
        batch.create_primary_key("questions_pkey", ["site", "id"])
    for table in CHILDREN:
        kind, _old, new = ("pk", ["id"], ["site", "id"]) if table in POSTS else KEYED[table]
        if table in OLD_INDEX:
            op.drop_index(OLD_INDEX[table], table_name=table)
        with _batch(table) as batch:
            batch.alter_column("site", existing_type=sa.String(length=100), nullable=False)
            if not pg:
                batch.drop_constraint(_fk_name(table), type_="foreignkey")
            if kind == "pk":
                if pg:
                    batch.drop_constraint(_pk_name(table), type_="primary")
                batch.create_primary_key(_pk_name(table), new)
            else:
                batch.drop_constraint(kind, type_="unique")
                batch.create_unique_constraint(kind, new)
            batch.create_foreign_key(
                f"{table}_question_id_fkey", "questions", ["site", "question_id"], ["site", "id"],
                ondelete="CASCADE", onupdate="CASCADE",
            )  # fmt: skip
        if table in NEW_INDEX:
            op.create_index(NEW_INDEX[table], table, ["site", "question_id"])


def _downgrade() -> None:
    conn = op.get_bind()
    shared = conn.execute(
        sa.text("SELECT count(*) FROM (SELECT id FROM questions GROUP BY id HAVING count(*) > 1) AS twice")
    ).scalar()
    if shared:
        raise RuntimeError(
            f"cannot downgrade below 0009: {shared} question ids are stored for more than one site "
            "(the older schema keys posts by id alone); export or delete one site's posts first"
        )
    for table in ("answers", "comments"):
        shared = conn.execute(
            sa.text(f"SELECT count(*) FROM (SELECT id FROM {table} GROUP BY id HAVING count(*) > 1) AS twice")
        ).scalar()
        if shared:
            raise RuntimeError(
                f"cannot downgrade below 0009: {shared} {table} ids are stored for more than one site"
            )
    pg = conn.dialect.name == "postgresql"
    for table in reversed(CHILDREN):
        kind, old, _new = ("pk", ["id"], ["site", "id"]) if table in POSTS else KEYED[table]
        if table in NEW_INDEX:
            op.drop_index(NEW_INDEX[table], table_name=table)
        with _batch(table) as batch:
            batch.drop_constraint(f"{table}_question_id_fkey", type_="foreignkey")
            if kind == "pk":
                if pg:
                    batch.drop_constraint(_pk_name(table), type_="primary")
                batch.create_primary_key(_pk_name(table), old)
            else:
                batch.drop_constraint(kind, type_="unique")
                batch.create_unique_constraint(kind, old)
    if pg:
        op.drop_constraint(_pk_name("questions"), "questions", type_="primary")
    with _batch("questions") as batch:
        batch.create_primary_key("questions_pkey", ["id"])
    for table in CHILDREN:
        with _batch(table) as batch:
            batch.drop_column("site")
            batch.create_foreign_key(
                _fk_name(table), "questions", ["question_id"], ["id"], ondelete="CASCADE"
            )
        if table in OLD_INDEX:
            op.create_index(OLD_INDEX[table], table, ["question_id"])
