"""Posts are (site, id): the migration carries a database made at revision 0002 over, and a second site never
overwrites the first (issue 12, case 2) on the real ai.stackexchange dump."""

from __future__ import annotations

import csv
import json
import subprocess
import xml.etree.ElementTree as ET
from datetime import datetime
from pathlib import Path

import pytest
import sqlalchemy as sa
from conftest import run_cli, run_process

from core.db import Store, current_revision, downgrade, head_revision, open_store, upgrade
from core.errors import PPMinerError
from core.schema.labeling import AuditEntry, FinalIdentification, FinalLabel, Identification, PPLabel
from core.schema.mining import Answer, Candidate, Comment, MatchCheck, Question
from core.sites import PostKey, normalize_site, parse_post_ref, post_ref, question_link, site_from_host
from mining.dump.reader import DumpReader
from mining.dump.rows import DumpFilter, PostSelector

AI_DUMP = "se_dumps/ai.stackexchange.com"
NOW = datetime(2024, 1, 1)


# -- names -------------------------------------------------------------------------------------------------------


def test_site_names_hosts_and_post_references():
    assert normalize_site("ai.stackexchange.com") == "ai"
    assert normalize_site("https://stackoverflow.com/questions/1") == "stackoverflow"
    assert normalize_site(" AI ") == "ai"
    assert site_from_host("ai.meta.stackexchange.com") == "meta.ai"
    assert site_from_host("meta.stackoverflow.com") == "meta.stackoverflow"
    assert site_from_host("example.com") is None
    assert question_link(136, "ai") == "https://ai.stackexchange.com/questions/136"
    assert question_link(7, "meta.ai") == "https://ai.meta.stackexchange.com/questions/7"
    assert post_ref("stackoverflow", 65160023) == "65160023" and post_ref("ai", 136) == "ai:136"
    assert parse_post_ref("ai:136") == PostKey("ai", 136)
    assert parse_post_ref("65160023") == PostKey("stackoverflow", 65160023)
    assert parse_post_ref("ai.stackexchange.com:136") == PostKey("ai", 136)
    for bad in ("ai:", ":136", "ai:x", "1_2"):
        with pytest.raises(ValueError):
            parse_post_ref(bad)


# -- the migration from 0002 -------------------------------------------------------------------------------------


def _real_ai_questions(fixtures, n: int) -> tuple[list[dict], list[dict]]:
    """The first ``n`` questions of the real ai.stackexchange dump, and their answers, as dump rows."""
    select = PostSelector(DumpFilter(), "ai.stackexchange.com")  # a site as an older config could spell it
    questions, answers = [], []
    reader = DumpReader.open(str(fixtures / AI_DUMP / "Posts.xml"), "posts")
    try:
        for rows, _ in reader.chunks(select):
            for row in rows:
                kind, ref, value = row.value
                if kind == "q" and len(questions) < n:
                    questions.append(value)
                elif kind == "a" and ref in {q["id"] for q in questions}:
                    answers.append({"id": int(value["Id"]), "question_id": ref})
    finally:
        reader.close()
    return questions, answers


def _fill_at_0002(store: Store, fixtures) -> tuple[list[int], list[int]]:
    """A database at revision 0002 holding real posts (one filed by its link only), decisions, labels, finals,
    candidates and audit entries, written with the SQL of that schema."""
    questions, answers = _real_ai_questions(fixtures, 6)
    qids = [q["id"] for q in questions]
    with store.engine.begin() as c:
        for i, q in enumerate(questions):
            site = "" if i == 0 else q["site"]  # the first: no site stored, only its link tells
            c.execute(
                sa.text(
                    "INSERT INTO questions (id, site, title, code_blocks, has_code, tags, link, source, "
                    "refreshed_at) VALUES (:id, :site, :title, '[]', false, '', :link, 'dump', :now)"
                ),
                {"id": q["id"], "site": site, "title": q["title"], "link": q["link"], "now": NOW},
            )
        for a in answers:
            c.execute(
                sa.text(
                    "INSERT INTO answers (id, question_id, code_blocks, source, refreshed_at) "
                    "VALUES (:id, :question_id, '[]', 'dump', :now)"
                ),
                {**a, "now": NOW},
            )
        c.execute(
            sa.text(
                "INSERT INTO comments (id, post_id, post_type, question_id, text, source, refreshed_at) "
                "VALUES (900001, :q, 'question', :q, 'which model?', 'dump', :now)"
            ),
            {"q": qids[1], "now": NOW},
        )
        c.execute(sa.text("INSERT INTO raters (id, name, created_at) VALUES (1, 'ann', :now), (2, 'bob', :now)"),
                  {"now": NOW})  # fmt: skip
        c.execute(
            sa.text(
                "INSERT INTO keyword_sets (id, content_hash, stemmer_mode, keywords, created_at) "
                "VALUES (1, 'h', 'porter', '[]', :now)"
            ),
            {"now": NOW},
        )
        for q in qids[:4]:
            for rater in (1, 2):
                c.execute(
                    sa.text(
                        "INSERT INTO identifications (rater_id, question_id, is_pp, decided_at) "
                        "VALUES (:r, :q, :pp, :now)"
                    ),
                    {"r": rater, "q": q, "pp": rater == 1 or q != qids[3], "now": NOW},
                )
            c.execute(
                sa.text(
                    "INSERT INTO candidates (keyword_set_id, question_id, matched_at) VALUES (1, :q, :now)"
                ),
                {"q": q, "now": NOW},
            )
            c.execute(
                sa.text(
                    "INSERT INTO match_checks (keyword_set_id, question_id, question_refreshed_at, selected, "
                    "is_candidate, checked_at) VALUES (1, :q, :now, true, true, :now)"
                ),
                {"q": q, "now": NOW},
            )
        c.execute(
            sa.text(
                "INSERT INTO pp_labels (rater_id, question_id, pp_index, symptom1, published_id, labeled_at) "
                "VALUES (1, :q, 1, 'time.slow_execution', :pid, :now)"
            ),
            {"q": qids[0], "pid": f"{qids[0]}_1", "now": NOW},
        )
        c.execute(
            sa.text(
                "INSERT INTO final_identifications (question_id, is_pp, method, decided_at) "
                "VALUES (:q, true, 'agreement', :now)"
            ),
            {"q": qids[0], "now": NOW},
        )
        c.execute(
            sa.text(
                "INSERT INTO final_labels (question_id, pp_index, symptom1, method, decided_at) "
                "VALUES (:q, 1, 'time.slow_execution', 'agreement', :now)"
            ),
            {"q": qids[0], "now": NOW},
        )
        audit = sa.table("audit_log", *map(sa.column, ("at", "actor", "entity", "entity_key", "action")),
                         sa.column("after", sa.JSON))  # fmt: skip
        c.execute(sa.insert(audit).values(at=NOW, actor="ann", entity="identifications", entity_key=f"ann/{qids[0]}",
                                          action="insert", after={"is_pp": True}))  # fmt: skip
    return qids, [a["id"] for a in answers]


def _import_json(posts, comments, db_url):
    """``ppmine import-dump`` of a whole dump with its comments, the summary as JSON, the site taken from the path."""
    return ppmine("import-dump", str(posts), "--comments", str(comments), "--all-questions", "--db", db_url,
                  "--format", "json")  # fmt: skip


def _count(s, model) -> int:
    return s.scalar(sa.select(sa.func.count()).select_from(model))


def test_migration_from_0002_keeps_every_row_under_the_site_it_was_acquired_for(db_url, fixtures):
    store = Store(db_url)
    upgrade(store, "0002")
    qids, answer_ids = _fill_at_0002(store, fixtures)
    with store.engine.connect() as c:
        before = {t: c.execute(sa.text(f"SELECT count(*) FROM {t}")).scalar() for t in (
            "questions", "answers", "comments", "identifications", "pp_labels", "final_identifications",
            "final_labels", "candidates", "match_checks", "audit_log")}  # fmt: skip

    store = open_store(db_url)  # what every command does first: up to the head
    assert current_revision(store.engine) == head_revision()
    with store.read() as s:
        for model in (Question, Answer, Comment, Identification, PPLabel, FinalIdentification, FinalLabel,
                      Candidate, MatchCheck, AuditEntry):  # fmt: skip
            assert _count(s, model) == before[model.__tablename__], model.__tablename__
        # ai.stackexchange.com -> ai; the question stored without a site took its link's
        assert set(s.scalars(sa.select(Question.site))) == {"ai"}
        assert {a.site for a in s.scalars(sa.select(Answer))} == {"ai"}
        assert sorted(s.scalars(sa.select(Answer.id))) == sorted(answer_ids)
        for model in (
            Comment,
            Identification,
            PPLabel,
            FinalIdentification,
            FinalLabel,
            Candidate,
            MatchCheck,
        ):
            assert set(s.scalars(sa.select(model.site))) == {"ai"}, model.__tablename__
        assert s.get(FinalIdentification, ("ai", qids[0])).is_pp
        label = s.scalar(sa.select(PPLabel))
        assert (label.key, label.symptom1, label.published_id) == (
            PostKey("ai", qids[0]), "time.slow_execution", f"{qids[0]}_1")  # fmt: skip
        assert s.get(Question, ("ai", qids[1])).comments[0].text == "which model?"

    # Now a Stack Overflow question with the same id is a second row, and the ai one keeps its decisions.
    from mining.store import upsert_questions

    with store.write() as s:
        upsert_questions(s, [{"site": "stackoverflow", "id": qids[0], "title": "another question"}], "api")
    with store.read() as s:
        assert s.get(Question, ("ai", qids[0])).title != "another question"
        assert {i.key for i in s.scalars(sa.select(Identification))} == {PostKey("ai", q) for q in qids[:4]}

    # Down again: refused while one id is on two sites (nothing is lost), fine once it is not.
    with pytest.raises(PPMinerError, match="1 question ids are stored for more than one site"):
        downgrade(store, "0002")
    assert current_revision(store.engine) == head_revision()
    with store.write() as s:
        s.execute(sa.delete(Question).where(Question.site == "stackoverflow"))
    downgrade(store, "0002")
    with store.engine.connect() as c:
        for table, n in before.items():
            assert c.execute(sa.text(f"SELECT count(*) FROM {table}")).scalar() == n, table
        assert "site" not in {col["name"] for col in sa.inspect(c).get_columns("identifications")}


# -- issue 12, case 2, on the real ai.stackexchange dump ----------------------------------------------------------


def ppmine(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    if stdin is not None:  # a dump on standard input: read from a real pipe
        return run_process("mining.cli", *args, check=False, input=stdin, timeout=300)
    return run_cli("mining.cli", *args, check=False)


def _one_row_so_dump(folder: Path, fixtures, post_id: int) -> Path:
    """A Stack Overflow dump of one real question (the first of the SEDE sample), renumbered ``post_id``: a Stack
    Overflow post whose id an ai.stackexchange post has too."""
    with (fixtures / "so_questions" / "sede_so_2022_questions_QueryResults.csv").open(encoding="utf-8") as fh:
        real = next(csv.DictReader(fh))
    row = ET.Element("row", {
        "Id": str(post_id), "PostTypeId": "1", "CreationDate": real["CreationDate"].replace(" ", "T"),
        "Score": real["Score"], "ViewCount": real["ViewCount"], "Body": real["Body"], "Title": real["Title"],
        "Tags": real["Tags"], "AnswerCount": real["AnswerCount"], "LastActivityDate": "2022-01-02T00:00:00",
    })  # fmt: skip
    root = ET.Element("posts")
    root.append(row)
    folder.mkdir(parents=True)
    path = folder / "Posts.xml"
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)
    return path


def _decide_on(store, post: PostKey) -> None:
    from labeling.records import (
        get_or_create_rater,
        set_final_identification,
        set_identification,
        set_pp_label,
    )

    with store.write() as s:
        ann, bob = get_or_create_rater(s, "ann"), get_or_create_rater(s, "bob")
        set_identification(s, ann, post, True)
        set_identification(s, bob, post, True)
        set_pp_label(s, ann, post, 1, symptom1="time.slow_execution")
        set_final_identification(s, post, True, "agreement")


def _decided_titles(store) -> dict[str, str]:
    """Each rater's decisions, with the title of the question they point at."""
    with store.read() as s:
        rows = s.execute(
            sa.select(Identification.site, Identification.question_id, Question.title).join(
                Question,
                sa.and_(Question.site == Identification.site, Question.id == Identification.question_id),
            )
        ).all()
    return {post_ref(site, qid): title for site, qid, title in rows}


def test_case2_the_site_comes_from_the_dump_and_a_second_site_never_overwrites_the_first(
    db_url, fixtures, tmp_path
):
    posts, comments = fixtures / AI_DUMP / "Posts.xml", fixtures / AI_DUMP / "Comments.xml"
    # Standard input names no site: refused in one line that says what to pass; nothing is stored.
    res = ppmine("import-dump", "-", "--db", db_url, stdin=posts.read_text(encoding="utf-8"))
    assert res.returncode == 2 and res.stderr.count("\n") == 1, res.stderr
    assert res.stderr.startswith("ppmine: error: cannot tell which site standard input comes from")
    assert "pass --site" in res.stderr
    # A --site that contradicts the path is refused too.
    res = ppmine("import-dump", str(posts), "--site", "stackoverflow", "--db", db_url)
    assert res.returncode == 2 and "contradicts the dump's path" in res.stderr and res.stderr.count("\n") == 1
    store = open_store(db_url)
    with store.read() as s:
        assert _count(s, Question) == 0

    # The path says ai.stackexchange.com: every question is an ai question with an ai link.
    res = _import_json(posts, comments, db_url)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["site"] == "ai"
    with store.read() as s:
        stored = s.execute(sa.select(Question.site, Question.id, Question.link)).all()
        assert stored and {site for site, _, _ in stored} == {"ai"}
        assert all(link == f"https://ai.stackexchange.com/questions/{qid}" for _, qid, link in stored)
        ai_136 = s.get(Question, ("ai", 136))
        ai_title, ai_answers = ai_136.title, len(ai_136.answers)
        counts = {m.__tablename__: _count(s, m) for m in (Question, Answer, Comment)}
    _decide_on(store, PostKey("ai", 136))

    # A one-row Stack Overflow dump with Id 136 adds Stack Overflow's 136 beside ai's 136.
    so_posts = _one_row_so_dump(tmp_path / "stackoverflow.com", fixtures, 136)
    res = ppmine("import-dump", str(so_posts), "--all-questions", "--db", db_url, "--format", "json")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["site"] == "stackoverflow"
    with store.read() as s:
        assert _count(s, Question) == counts["questions"] + 1
        ai_136, so_136 = s.get(Question, ("ai", 136)), s.get(Question, ("stackoverflow", 136))
        assert (ai_136.title, len(ai_136.answers)) == (ai_title, ai_answers)
        assert so_136.title == "Faster HashMap for sequential keys"
        assert so_136.link == "https://stackoverflow.com/questions/136"
        assert s.get(FinalIdentification, ("ai", 136)).is_pp
        assert s.get(FinalIdentification, ("stackoverflow", 136)) is None
    # What the raters said about 136 still points at the ai question.
    assert _decided_titles(store) == {"ai:136": ai_title}
    # Importing both again changes nothing.
    assert (
        ppmine(
            "import-dump", str(posts), "--comments", str(comments), "--all-questions", "--db", db_url
        ).returncode
        == 0
    )
    assert ppmine("import-dump", str(so_posts), "--all-questions", "--db", db_url).returncode == 0
    with store.read() as s:
        assert {m.__tablename__: _count(s, m) for m in (Question, Answer, Comment)} == {
            **counts, "questions": counts["questions"] + 1}  # fmt: skip

    # explain takes SITE:ID; a bare id is Stack Overflow's.
    res = ppmine("explain", "ai:136", "--db", db_url)
    assert res.returncode == 0 and f"post ai:136 (ai): {ai_title}" in res.stdout
    assert "link: https://ai.stackexchange.com/questions/136" in res.stdout
    res = ppmine("explain", "136", "--db", db_url)
    assert res.returncode == 0 and "post 136 (stackoverflow): Faster HashMap" in res.stdout
    res = ppmine("explain", "https://ai.stackexchange.com/questions/136/some-title", "--db", db_url)
    assert res.returncode == 0 and "post ai:136 (ai)" in res.stdout
    res = ppmine("explain", "1", "--db", db_url)
    assert res.returncode == 1 and "did you mean ai:1?" in res.stderr

    # Exports spell the ai post with its site; the audit log names it the same way.
    out = tmp_path / "ident.csv"
    res = run_cli(
        "labeling.cli", "export", "--format", "identification", str(out), "--db", db_url, check=False
    )
    assert res.returncode == 0, res.stderr
    assert out.read_text().splitlines()[1:] == ["ai:136,1,1,1"]
    with store.read() as s:
        keys = set(s.scalars(sa.select(AuditEntry.entity_key)))
    assert {"ann/ai:136", "bob/ai:136", "ann/ai:136_1", "ai:136"} <= keys


def test_case2_reimport_moves_posts_an_earlier_import_filed_under_the_wrong_site(db_url, fixtures):
    """The database of the issue: the ai dump imported without --site went in as Stack Overflow (the study's
    site), and ann decided on '136'. Importing the dump again, now that its path gives the site, moves every such
    question to ai, with its answers, comments and decisions; nothing is left under the wrong site."""
    from mining.dump.importer import DumpImport

    posts, comments = fixtures / AI_DUMP / "Posts.xml", fixtures / AI_DUMP / "Comments.xml"
    store = open_store(db_url)
    DumpImport(store, str(posts), str(comments), site="stackoverflow", progress=False).run()
    _decide_on(store, PostKey("stackoverflow", 136))
    with store.read() as s:
        counts = {m.__tablename__: _count(s, m) for m in (Question, Answer, Comment)}
        title = s.get(Question, ("stackoverflow", 136)).title
        assert s.get(Question, ("stackoverflow", 136)).link == "https://stackoverflow.com/questions/136"

    res = _import_json(posts, comments, db_url)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["moved"] == counts["questions"]
    with store.read() as s:
        assert {m.__tablename__: _count(s, m) for m in (Question, Answer, Comment)} == counts
        for model in (Question, Answer, Comment, Identification, PPLabel, FinalIdentification):
            assert set(s.scalars(sa.select(model.site))) == {"ai"}, model.__tablename__
        assert s.get(Question, ("ai", 136)).link == "https://ai.stackexchange.com/questions/136"
        moves = s.scalars(sa.select(AuditEntry).where(AuditEntry.entity == "questions")).all()
        assert len(moves) == counts["questions"]
        assert {"ai:136"} <= {m.entity_key for m in moves}
        assert all(m.before["site"] == "stackoverflow" and m.after["site"] == "ai" for m in moves)
    assert _decided_titles(store) == {"ai:136": title}
    res = _import_json(posts, comments, db_url)
    assert json.loads(res.stdout)["moved"] == 0
