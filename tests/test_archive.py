"""`pplabel export/import --format archive`: a whole labelled study survives a move to a fresh database.

The study is real: the ai.stackexchange dump matched with `ppmine match`, a frozen sample, three raters (one
label left half-finished, one decision revisited after the finals), an adjudicator, Stack Overflow posts from a
published identification file and the published benchmark. Every check reads through the commands users run.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path

import pytest
import sqlalchemy as sa
from click.testing import CliRunner

from core.db import open_store
from core.errors import PPMinerError
from core.sites import PostKey
from labeling.cli import cli as pplabel_cli
from mining.cli import cli as ppmine_cli

SO_IDENTIFICATIONS = "_id,isPB_ann,isPB_bob\r\n65160023,1,1\r\n62522643,1,0\r\n"


def run(cli, db: str, *args: str):
    return CliRunner().invoke(cli, [*args, "--db", db])


def refused(cli, db: str, *args: str) -> str:
    """The one-line error a refused command gives (run_cli prints it as `pplabel: error: ...`, exit 1)."""
    out = run(cli, db, *args)
    assert isinstance(out.exception, PPMinerError), out.output
    message = str(out.exception)
    assert "\n" not in message
    return message


def ok(cli, db: str, *args: str) -> str:
    out = run(cli, db, *args)
    assert out.exit_code == 0, f"{args}: {out.output}"
    return out.stdout


def build_study(db: str, tmp_path: Path, published: Path) -> None:
    """The issue's scenario on the ai dump (see the module docstring)."""
    from core.schema.mining import Candidate
    from labeling.reconcile import decide_identification, finalize
    from labeling.records import get_or_create_rater, set_identification, set_pp_label
    from labeling.samples import frozen_sample

    ok(ppmine_cli, db, "match", "--no-filters")
    so = tmp_path / "so_ids.csv"
    so.write_text(SO_IDENTIFICATIONS)
    ok(pplabel_cli, db, "import", "--format", "identification", str(so))
    ok(pplabel_cli, db, "import", "--format", "benchmark", str(published / "benchmark.csv"))
    store = open_store(db)
    with store.read() as s:
        posts = [c.key for c in s.scalars(sa.select(Candidate).order_by(Candidate.id).limit(8))]
        set_id = s.scalar(sa.select(Candidate.keyword_set_id))
    frozen_sample(store, 7, 5, set_id, posts, "ann")
    full = {"root_cause": "api.not_batch_api", "introducing_stage": "training", "exposing_stage": "training"}
    with store.write() as s:
        ann, bob, carl = (get_or_create_rater(s, n) for n in ("ann", "bob", "carl"))
        for n, post in enumerate(posts[:6]):
            set_identification(s, ann, post, True, note="slow epoch" if n == 0 else None)
            set_identification(s, bob, post, n != 5)
            set_identification(s, carl, post, n < 3)
        for rater in (ann, bob):  # two PPs each; bob typed them in the other order
            first, second = (1, 2) if rater is ann else (2, 1)
            set_pp_label(s, rater, posts[0], first, symptom1="time.slow_execution", part="the loop", **full)
            set_pp_label(
                s, rater, posts[0], second, symptom1="memory.oom", symptom2="time.slow_execution",
                part="second paragraph", **{**full, "root_cause": "data.improper_input"},
            )  # fmt: skip
            cause = (
                "api.not_batch_api" if rater is ann else "model.inefficient_structure"
            )  # they disagree here
            set_pp_label(s, rater, posts[1], 1, symptom1="time.hang", **{**full, "root_cause": cause})
        # carl's classify was killed: symptom and root cause kept, the stages empty
        set_pp_label(s, carl, posts[1], 1, symptom1="time.hang", root_cause="api.not_batch_api")
    finalize(store)
    with store.write() as s:
        decide_identification(s, get_or_create_rater(s, "dora"), posts[5], False)
    with store.write() as s:  # ann revisits a post all three had agreed on
        set_identification(s, get_or_create_rater(s, "ann"), posts[2], False)


def numbers(db: str) -> dict:
    """What agreement, stats and progress say (read-only commands)."""
    return {
        "agreement": json.loads(ok(pplabel_cli, db, "agreement", "--format", "json")),
        "stats": json.loads(ok(ppmine_cli, db, "stats", "--format", "json")),
        "progress": json.loads(
            ok(pplabel_cli, db, "progress", "--format", "json", "--sample", "5", "--seed", "7")
        ),
        "samples": json.loads(ok(pplabel_cli, db, "samples", "--format", "json")),
        "raters": json.loads(ok(pplabel_cli, db, "raters", "--format", "json")),
    }


@pytest.fixture
def study(ai_study, tmp_path, published) -> tuple[str, Path]:
    """The scenario's database and its archive."""
    build_study(ai_study, tmp_path, published)
    archive = tmp_path / "study.zip"
    ok(pplabel_cli, ai_study, "export", "--format", "archive", str(archive))
    return ai_study, archive


@pytest.mark.slow  # the dump's 3,400 rows go into a database
def test_round_trip_keeps_every_number_and_every_byte(study, db_url, tmp_path):
    source, archive = study
    before = numbers(source)
    assert before["stats"]["raters"] == 4 and before["stats"]["pps_final"] >= 1  # the scenario is there

    said = ok(pplabel_cli, db_url, "import", "--format", "archive", str(archive))
    assert "imported" in said
    assert numbers(db_url) == before
    again = tmp_path / "again.zip"
    ok(pplabel_cli, db_url, "export", "--format", "archive", str(again))
    assert again.read_bytes() == archive.read_bytes()  # byte-identical, SQLite -> SQLite or PostgreSQL
    with zipfile.ZipFile(archive) as zf:  # the pairing agreement uses: ann's PP 1 is bob's PP 2
        paired = [json.loads(line)["pps"] for line in zf.read("pp_pairing.jsonl").splitlines()]
    both = [(p["ann"], p["bob"]) for p in paired if p.get("ann") and p.get("bob")]
    assert any(a.endswith("_1") and b == f"{a[:-2]}_2" for a, b in both), both

    # reconcile sees the same open work on both sides and makes the same finals
    assert ok(pplabel_cli, db_url, "reconcile", "--auto-only") == ok(
        pplabel_cli, source, "reconcile", "--auto-only"
    )
    assert numbers(db_url) == numbers(source)


@pytest.mark.slow  # the dump's 3,400 rows go into a database
def test_importing_the_study_again_changes_nothing(study, db_url, tmp_path):
    _, archive = study
    ok(pplabel_cli, db_url, "import", "--format", "archive", str(archive))
    said = ok(pplabel_cli, db_url, "import", "--format", "archive", str(archive))
    assert said.startswith(f"{archive}: nothing new: the database holds all")
    again = tmp_path / "again.zip"
    ok(pplabel_cli, db_url, "export", "--format", "archive", str(again))
    assert again.read_bytes() == archive.read_bytes()  # no audit entry, no row added


@pytest.mark.slow  # the dump's 3,400 rows go into a database
def test_conflicting_rows_refuse_the_whole_archive_by_id(study, db_url, tmp_path):
    from core.schema.labeling import Identification, PPLabel
    from core.schema.mining import Question
    from labeling.records import get_or_create_rater, set_identification

    _, archive = study
    ok(pplabel_cli, db_url, "import", "--format", "identification", str(_write(tmp_path, SO_IDENTIFICATIONS)))
    store = open_store(db_url)
    with store.write() as s:  # bob changed his mind here; "Ann " (ann) noted something the archive has not
        set_identification(s, get_or_create_rater(s, "bob"), 62522643, True)
        set_identification(s, get_or_create_rater(s, "Ann "), 65160023, True, note="check the answer")
    with store.read() as s:
        held = (s.scalar(sa.select(sa.func.count()).select_from(Identification)),
                s.scalar(sa.select(sa.func.count()).select_from(PPLabel)))  # fmt: skip

    message = refused(pplabel_cli, db_url, "import", "--format", "archive", str(archive))
    assert "nothing imported" in message
    assert "2 rows differ" in message
    assert "identifications ann/65160023" in message and "identifications bob/62522643" in message
    with store.read() as s:  # nothing written: the ai posts and their decisions did not come in either
        assert (s.scalar(sa.select(sa.func.count()).select_from(Identification)),
                s.scalar(sa.select(sa.func.count()).select_from(PPLabel))) == held  # fmt: skip
        assert s.get(Question, ("ai", 70)) is None


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "so.csv"
    path.write_text(text)
    return path


def _rezip(archive: Path, target: Path, **replace: bytes) -> Path:
    with zipfile.ZipFile(archive) as src, zipfile.ZipFile(target, "w") as dst:
        for name in src.namelist():
            dst.writestr(name, replace.get(name, src.read(name)))
    return target


@pytest.fixture(scope="module")
def small_archive(tmp_path_factory) -> Path:
    """An archive of a small study (no dump): the SO identification file and two labels."""
    from labeling.records import get_or_create_rater, set_pp_label

    folder = tmp_path_factory.mktemp("small")
    db = f"sqlite:///{folder / 'small.db'}"
    ok(pplabel_cli, db, "import", "--format", "identification", str(_write(folder, SO_IDENTIFICATIONS)))
    with open_store(db).write() as s:
        set_pp_label(
            s, get_or_create_rater(s, "ann"), PostKey("stackoverflow", 65160023), 1, symptom1="time.hang"
        )
    archive = folder / "small.zip"
    ok(pplabel_cli, db, "export", "--format", "archive", str(archive))
    return archive


def _lines(archive: Path, name: str) -> list[bytes]:
    with zipfile.ZipFile(archive) as zf:
        return zf.read(name).splitlines(keepends=True)


@pytest.mark.parametrize(
    ("name", "mangle", "says"),
    [
        (
            "identifications.jsonl",
            lambda ls: [ls[0], b'{"rater": "ann",\n', *ls[1:]],
            "identifications.jsonl:2: not a JSON line",
        ),
        (
            "identifications.jsonl",
            lambda ls: [ls[0], ls[1].replace(b'"is_pp":true', b'"is_pp":1')],
            "identifications.jsonl:2: is_pp 1 is not true or false",
        ),
        (
            "identifications.jsonl",
            lambda ls: [ls[0].replace(b'"rater":"ann"', b'"rater":"zed"')],
            "identifications.jsonl:1: rater 'zed' is not in raters.jsonl",
        ),
        (
            "pp_labels.jsonl",
            lambda ls: [ls[0].replace(b'"labeled_at":"', b'"labeled_at":"x')],
            "pp_labels.jsonl:1: labeled_at",
        ),
        (
            "pp_labels.jsonl",
            lambda ls: [ls[0].replace(b"{", b'{"mood":1,', 1)],
            "pp_labels.jsonl:1: unknown fields ['mood']",
        ),
        ("questions.jsonl", lambda ls: ls[:1], "is not in questions.jsonl"),
        (
            "pp_labels.jsonl",
            lambda ls: [ls[0].replace(b'"time.hang"', b'"time.hangs"')],
            "pp_labels.jsonl:1: symptom1 'time.hangs' is not a symptom code of the codebook",
        ),
    ],
)
def test_a_malformed_archive_is_named_by_file_and_line_and_opens_nothing(
    small_archive, tmp_path, name, mangle, says
):
    bad = _rezip(small_archive, tmp_path / "bad.zip", **{name: b"".join(mangle(_lines(small_archive, name)))})
    db = tmp_path / "fresh.db"
    message = refused(pplabel_cli, f"sqlite:///{db}", "import", "--format", "archive", str(bad))
    assert says in message and message.startswith(f"{bad}:")
    assert not db.exists()


def test_an_archive_of_a_newer_version_is_refused(small_archive, tmp_path):
    head = json.loads(b"".join(_lines(small_archive, "manifest.json")))
    newer = _rezip(
        small_archive,
        tmp_path / "newer.zip",
        **{"manifest.json": json.dumps({**head, "version": 2}).encode()},
    )
    message = refused(
        pplabel_cli, f"sqlite:///{tmp_path / 'x.db'}", "import", "--format", "archive", str(newer)
    )
    assert (
        message == f"{newer}: archive format version 2 is newer than this ppminer reads (1): upgrade ppminer"
    )
    not_zip = tmp_path / "study.zip"
    not_zip.write_text("_id,isPB_ann\n1,1\n")
    message = refused(
        pplabel_cli, f"sqlite:///{tmp_path / 'x.db'}", "import", "--format", "archive", str(not_zip)
    )
    assert "not a zip file" in message


def test_the_archive_is_documented_json_lines(small_archive):
    with zipfile.ZipFile(small_archive) as zf:
        head = json.loads(zf.read("manifest.json"))
        assert head["format"] == "ppminer-study-archive" and head["version"] == 1
        listed = {t["file"]: t for t in head["tables"]}
        derived = {t["file"]: t for t in head["derived"]}
        assert set(zf.namelist()) == {*listed, *derived, "manifest.json"} and set(derived) == {
            "pp_pairing.jsonl"
        }
        for name, table in listed.items():
            rows = [json.loads(line) for line in io.BytesIO(zf.read(name))]
            assert len(rows) == table["rows"]
            assert all(sorted(row) == table["columns"] for row in rows)
        label = json.loads(zf.read("pp_labels.jsonl"))
    assert label["rater"] == "ann" and label["symptom1"] == "time.hang" and "id" not in label


def test_an_archive_without_a_newer_nullable_column_still_reads(small_archive, tmp_path):
    """A column added to the schema after the archive was written reads as empty; a required one is named."""
    lines = _lines(small_archive, "identifications.jsonl")
    older = _rezip(
        small_archive,
        tmp_path / "older.zip",
        **{"identifications.jsonl": b"".join(line.replace(b',"note":null', b"") for line in lines)},
    )
    db = f"sqlite:///{tmp_path / 'x.db'}"
    assert "imported" in ok(pplabel_cli, db, "import", "--format", "archive", str(older))
    again = tmp_path / "again.zip"
    ok(pplabel_cli, db, "export", "--format", "archive", str(again))
    assert again.read_bytes() == small_archive.read_bytes()
    no_time = _rezip(
        small_archive,
        tmp_path / "no_time.zip",
        **{"identifications.jsonl": b"".join(re.sub(rb'"decided_at":"[^"]*",', b"", ln) for ln in lines)},
    )
    message = refused(pplabel_cli, db, "import", "--format", "archive", str(no_time))
    assert message == f"{no_time}:identifications.jsonl:1: missing fields ['decided_at']"


@pytest.mark.slow  # the dump's 3,400 rows go into a database
def test_an_archive_is_a_file_and_holds_every_rater(study, tmp_path):
    source, _ = study
    assert refused(pplabel_cli, source, "export", "--format", "archive", "-") == (
        "an archive is a zip file: give a file name, not -"
    )
    out = run(
        pplabel_cli, source, "export", "--format", "archive", "--raters", "ann,bob", str(tmp_path / "x.zip")
    )
    assert out.exit_code == 2 and "not for --format archive" in out.output
    assert not (tmp_path / "x.zip").exists()


def _figures(db: str) -> dict:
    """agreement, stats, progress and what reconcile reports (read only: reconcile.standing, the query behind
    --auto-only and a session's closing lines)."""
    from labeling.reconcile import standing

    with open_store(db).read() as s:
        reconcile = standing(s).lines()
    shown = numbers(db)
    return {k: shown[k] for k in ("agreement", "stats", "progress")} | {"reconcile": reconcile}


@pytest.mark.slow  # the dump's 3,400 rows go into a database
def test_the_scenario_gives_the_same_figures_after_the_round_trip_and_partial_labels_none(
    study, sqlite_url, published
):
    """Issue 20's target, replayed: three raters, carl's killed classify, ann's revisit that breaks an agreement,
    export -> archive -> a fresh database. Agreement, stats, progress and reconcile say the same on both sides,
    and carl's half-finished label changes no figure on either."""
    from core.schema.labeling import AuditEntry, FinalIdentification, PPLabel, Rater
    from core.schema.mining import Candidate
    from labeling.records import delete_pp_label

    source, archive = study
    with open_store(source).read() as s:  # the revisit reopened the final all three had agreed on, audited
        revisited = [c.key for c in s.scalars(sa.select(Candidate).order_by(Candidate.id).limit(8))][2]
        assert s.get(FinalIdentification, (revisited.site, revisited.id)) is None
        assert (
            s.scalar(
                sa.select(AuditEntry.actor).where(
                    AuditEntry.entity == "final_identifications",
                    AuditEntry.entity_key == str(revisited),
                    AuditEntry.action == "delete",
                )
            )
            == "ann"
        )
    before = _figures(source)
    assert before["agreement"]["root_cause"]["raters"] == ["ann", "bob"]  # carl's partial label: not a rating
    ok(pplabel_cli, sqlite_url, "import", "--format", "archive", str(archive))
    assert _figures(sqlite_url) == before

    for db in (source, sqlite_url):  # without carl's partial label, every figure stays as it was
        store = open_store(db)
        with store.write() as s:
            carl = s.scalar(sa.select(Rater).where(Rater.name == "carl"))
            (label,) = s.scalars(sa.select(PPLabel).where(PPLabel.rater_id == carl.id)).all()
            delete_pp_label(s, carl, label.key, label.pp_index)
        assert _figures(db) == before, db


def test_every_table_of_the_schema_is_archived_or_said_not_to_be(sqlite_url):
    """A table added to the schema must be added to archive_tables.TABLES (or to NOT_ARCHIVED, saying why)."""
    from labeling.io.archive_tables import CARRIED, NOT_ARCHIVED, TABLES

    store = open_store(sqlite_url)
    stored = set(sa.inspect(store.engine).get_table_names()) - {"alembic_version"}
    archived = {t.model.__tablename__ for t in TABLES}
    assert stored - archived - CARRIED - NOT_ARCHIVED == set()
    assert (archived | CARRIED | NOT_ARCHIVED) - stored == set()
