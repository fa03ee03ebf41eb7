"""`ppmine check`: run ppcheck's rules on the code blocks of stored questions and keep the findings per post.

Snippets on Stack Overflow are partial: the blocks of a question are checked joined when that parses, else block
by block (see :func:`checker.check_snippets`); a question none of whose blocks parses is recorded as skipped with
the reasons. Each question is checked again only when it changed or the rules did (``--all`` rechecks all).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import sqlalchemy as sa
from sqlalchemy.orm import Session

from core.progress import progress
from core.schema.mining import CheckedPost, CheckFinding, Question
from core.text import terminal_safe
from mining.store import chunks, utcnow

BATCH = 200


def checker_version() -> str:
    """ppcheck's version and its rule codes: a new rule makes every question due again."""
    import checker

    codes = ",".join(checker.all_rules())
    return f"{checker.__version__}+{hashlib.sha1(codes.encode()).hexdigest()[:8]}"


@dataclass
class CheckSummary:
    version: str
    questions: int = 0  # checked in this run
    skipped: int = 0  # of those, none of whose blocks parsed
    unchanged: int = 0  # already checked with this version and not changed since
    findings: dict[str, int] = field(default_factory=dict)  # rule -> findings stored in this run

    def as_dict(self) -> dict:
        return {
            "version": self.version,
            "questions": self.questions,
            "skipped": self.skipped,
            "unchanged": self.unchanged,
            "findings": dict(sorted(self.findings.items())),
        }


def _due(session: Session, version: str, recheck_all: bool) -> tuple[list[tuple[str, int]], int]:
    """(site, id) of the questions with code to check now, and how many are up to date."""
    questions = session.execute(
        sa.select(Question.site, Question.id, Question.refreshed_at).where(Question.has_code.is_(True))
    ).all()
    if recheck_all:
        return [(q.site, q.id) for q in questions], 0
    done = {
        (c.site, c.question_id): (c.checker_version, c.question_refreshed_at)
        for c in session.execute(
            sa.select(CheckedPost.site, CheckedPost.question_id, CheckedPost.checker_version,
                      CheckedPost.question_refreshed_at)
        )
    }  # fmt: skip
    due = []
    for q in questions:
        seen = done.get((q.site, q.id))
        if seen is None or seen[0] != version or (q.refreshed_at and seen[1] < q.refreshed_at):
            due.append((q.site, q.id))
    return due, len(questions) - len(due)


def run_check(store, recheck_all: bool = False, show_progress: bool = True) -> CheckSummary:
    """Check every due question; each batch of questions is one transaction (findings replaced, post marked)."""
    from checker import check_snippets

    version = checker_version()
    with store.write() as session:
        _forget_removed_questions(session)
    with store.read() as session:
        due, unchanged = _due(session, version, recheck_all)
    summary = CheckSummary(version, unchanged=unchanged)
    with progress("checking code blocks", total=len(due), enabled=show_progress) as bar:
        for batch in chunks(due, BATCH):
            with store.write() as session:
                for site, question_id in batch:
                    question = session.execute(
                        sa.select(Question.code_blocks, Question.refreshed_at).where(
                            Question.site == site, Question.id == question_id
                        )
                    ).one()
                    blocks = [b or "" for b in (question.code_blocks or [])]
                    found, skipped = check_snippets(blocks, f"{site}/{question_id}")
                    nothing_parsed = bool(blocks) and len(skipped) >= len(blocks)
                    _store(session, site, question_id, question.refreshed_at, version, blocks, found, skipped,
                           nothing_parsed)  # fmt: skip
                    summary.questions += 1
                    summary.skipped += nothing_parsed
                    for f in found:
                        summary.findings[f.rule] = summary.findings.get(f.rule, 0) + 1
                    bar.advance()
    return summary


def _forget_removed_questions(session: Session) -> None:
    """Findings are derived data without a foreign key: drop those of questions no longer stored."""
    for table in (CheckFinding, CheckedPost):
        stored = sa.select(Question.id).where(Question.site == table.site, Question.id == table.question_id)
        session.execute(sa.delete(table).where(~stored.exists()))


def _store(session, site, question_id, refreshed_at, version, blocks, found, skipped, nothing_parsed) -> None:
    session.execute(
        sa.delete(CheckFinding).where(CheckFinding.site == site, CheckFinding.question_id == question_id)
    )
    session.add_all(
        CheckFinding(
            site=site,
            question_id=question_id,
            block=f.cell or 1,
            line=f.line,
            column=f.column,
            rule=f.rule,
            root_cause=f.root_cause,
            message=f.message,
        )
        for f in found
    )
    values = {
        "question_refreshed_at": refreshed_at or utcnow(),
        "checker_version": version,
        "status": "skipped" if nothing_parsed else "checked",
        "blocks": len(blocks),
        "skipped_blocks": [s.reason for s in skipped],
        "checked_at": utcnow(),
    }
    row = session.get(CheckedPost, (site, question_id))
    if row is None:
        session.add(CheckedPost(site=site, question_id=question_id, **values))
    else:
        for key, value in values.items():
            setattr(row, key, value)


def post_findings(
    session: Session, site: str, question_id: int
) -> tuple[CheckedPost | None, list[CheckFinding]]:
    checked = session.get(CheckedPost, (site, question_id))
    findings = session.scalars(
        sa.select(CheckFinding)
        .where(CheckFinding.site == site, CheckFinding.question_id == question_id)
        .order_by(CheckFinding.block, CheckFinding.line, CheckFinding.column, CheckFinding.rule)
    ).all()
    return checked, list(findings)


def finding_lines(session: Session, site: str, question_id: int, findings=None) -> list[str]:
    """One terminal-safe line per finding: `block 2 line 5: PP301 message [api.not_batch_api]` (``findings``:
    the post's findings if already read)."""
    if findings is None:
        _, findings = post_findings(session, site, question_id)
    return [
        terminal_safe(
            f"block {f.block} line {f.line}: {f.rule} {f.message} [{f.root_cause}]", keep_newlines=False
        )
        for f in findings
    ]


def findings_text(session: Session, site: str, question_id: int) -> str:
    """The checker's section of `ppmine explain`."""
    checked, findings = post_findings(session, site, question_id)
    if checked is None:
        return "checker: not checked yet (ppmine check)"
    lines = finding_lines(session, site, question_id, findings)
    head = f"checker (ppcheck {checked.checker_version}, {checked.blocks} code blocks): "
    if checked.status == "skipped":
        head += "skipped, no code block parses"
    else:
        head += f"{len(lines)} finding{'s' if len(lines) != 1 else ''}"
    out = [head, *("  " + line for line in lines)]
    out += [
        "  not checked: " + terminal_safe(reason, keep_newlines=False)
        for reason in checked.skipped_blocks or []
    ]
    return "\n".join(out)
