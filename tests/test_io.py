"""Import and export of the three published CSV shapes: round trips, URLs, and all-or-nothing rejection."""

from __future__ import annotations

import csv
import functools
import http.server
import io
import subprocess
import sys
import threading
from datetime import datetime

import pytest
import sqlalchemy as sa

from core.db import open_store
from core.errors import PPMinerError
from core.schema.labeling import (
    AuditEntry,
    FinalIdentification,
    FinalLabel,
    Identification,
    PPLabel,
    Rater,
)
from core.schema.mining import Question
from core.sites import parse_pp_key
from labeling.codebook import load_codebook
from labeling.io.export_study import export_file
from labeling.io.import_study import import_file
from labeling.io.published import LEGACY_SPELLING, STAGE_SPELLING, STUDY_SPELLING
from labeling.records import find_rater, get_or_create_rater, set_pp_label
from mining.store import upsert_questions

FILES = {
    "identification": "kappa_identification.csv",
    "labels": "kappa_label.csv",
    "study": "empirical_study.csv",
}


@pytest.fixture(scope="module")
def codebook():
    return load_codebook()


def _rows(path):
    with open(path, encoding="utf-8-sig", newline="") as fh:
        return [r for r in csv.reader(fh) if any(c.strip() for c in r)]


def snapshot(store) -> dict:
    """Everything an import writes, keyed so that two databases compare equal when they hold the same study."""
    with store.read() as s:
        names = dict(s.execute(sa.select(Rater.id, Rater.name)).all())
        labels = ("part", "symptom1", "symptom2", "root_cause", "introducing_stage", "exposing_stage", "note")
        return {
            "questions": sorted(
                s.execute(sa.select(Question.id, Question.title, Question.link, Question.creation_date)).all()
            ),
            "identifications": sorted(
                (names[r], q, p)
                for r, q, p in s.execute(
                    sa.select(Identification.rater_id, Identification.question_id, Identification.is_pp)
                )
            ),
            "final_identifications": sorted(
                s.execute(
                    sa.select(
                        FinalIdentification.question_id, FinalIdentification.is_pp, FinalIdentification.method
                    )
                ).all()
            ),
            "pp_labels": sorted(
                (names[lab.rater_id], lab.question_id, lab.pp_index, *(getattr(lab, f) or "" for f in labels))
                for lab in s.scalars(sa.select(PPLabel))
            ),
            "final_labels": sorted(
                (lab.question_id, lab.pp_index, lab.method, *(getattr(lab, f) or "" for f in labels))
                for lab in s.scalars(sa.select(FinalLabel))
            ),
        }


def _import_all(store, published, codebook, folder=None, limit=None):
    """Import the published files; with ``limit``, only their first lines (copied to ``folder``)."""
    paths = {}
    for fmt, name in FILES.items():
        path = published / name
        if limit:
            lines = path.read_bytes().splitlines(keepends=True)[: limit + 1]
            path = folder / name
            path.write_bytes(b"".join(lines))
        import_file(store, fmt, str(path), codebook)
        paths[fmt] = path
    return paths


def test_import_export_import_is_lossless(store, published, codebook, tmp_path):
    # Whole files on SQLite; on PostgreSQL the first 120 rows of each (its per-row audited writes are slower).
    limit = None if store.is_sqlite else 120
    paths = _import_all(store, published, codebook, tmp_path, limit)
    first = snapshot(store)
    assert len(first["final_labels"]) == len(_rows(paths["study"])) - 1 > 100
    assert len(first["identifications"]) == 2 * (len(_rows(paths["identification"])) - 1)
    out1, out2 = tmp_path / "one", tmp_path / "two"
    out1.mkdir(), out2.mkdir()
    for fmt in FILES:
        export_file(store, fmt, out1 / f"{fmt}.csv")
    other = open_store(f"sqlite:///{tmp_path / 'copy.db'}")
    for fmt in FILES:
        import_file(other, fmt, str(out1 / f"{fmt}.csv"), codebook)
    assert snapshot(other) == first
    for fmt in FILES:
        export_file(other, fmt, out2 / f"{fmt}.csv")
        assert (out2 / f"{fmt}.csv").read_bytes() == (out1 / f"{fmt}.csv").read_bytes(), fmt


def test_exports_reproduce_the_published_files(sqlite_store, published, codebook, tmp_path):
    """Issue 12, case 8: every cell as the published file wrote it (a comment's trailing space, a label's own
    spelling such as 'Data preparation'), the same rows, and no row another import added."""
    _import_all(sqlite_store, published, codebook)

    def cells(path, width):
        """The file's non-blank rows, cut to the header's width (trailing unnamed empty columns are layout)."""
        rows = [r[:width] for r in _rows(path) if any(c.strip() for c in r)]
        assert all(not any(c.strip() for c in r[width:]) for r in _rows(path))
        return rows

    for fmt in ("study", "labels", "identification"):
        out = tmp_path / f"{fmt}.csv"
        export_file(sqlite_store, fmt, out)
        exported = _rows(out)
        theirs = cells(published / FILES[fmt], len(exported[0]))
        assert exported[0] == theirs[0], fmt
        assert sorted(exported[1:]) == sorted(theirs[1:]), fmt  # row order: newest post first (see README)
    assert (tmp_path / "study.csv").read_bytes().startswith(b"\xef\xbb\xbf")
    study = _rows(tmp_path / "study.csv")
    comment = study[0].index("comment")
    assert any(r[comment] != r[comment].strip() for r in study[1:]), (
        "the published comment with a trailing space"
    )
    assert "62522643_1" in {r[0] for r in study} and "62522643" not in {r[0] for r in study}
    labels = _rows(tmp_path / "labels.csv")
    assert sum(c in ("Data preparation", "Prediction", "Unknown") for r in labels for c in r) == 5


def test_a_label_changed_after_import_is_written_in_the_codebook_spelling(
    sqlite_store, published, codebook, tmp_path
):
    import_file(sqlite_store, "labels", str(published / FILES["labels"]), codebook)
    with sqlite_store.write() as s:
        cjm = find_rater(s, "cjm")
        row = s.scalar(sa.select(PPLabel).where(PPLabel.rater_id == cjm.id, PPLabel.question_id == 63875039))
        assert row.spellings == {"exposing_stage": "Data preparation"}
        set_pp_label(s, cjm, 63875039, row.pp_index, exposing_stage="training")
        set_pp_label(s, cjm, 63875039, row.pp_index, exposing_stage="data_preparation")
    export_file(sqlite_store, "labels", tmp_path / "labels.csv")
    (row,) = [r for r in _rows(tmp_path / "labels.csv") if r[0].startswith("63875039")]
    assert row[7] == "data preparation"  # changed since the import: no longer the file's own cell


def test_spelling_tables_resolve_back_to_their_codes(codebook):
    symptoms = {c.code for c in codebook.codes("symptom", include_legacy=True)}
    for table in (STUDY_SPELLING, LEGACY_SPELLING):
        for code, text in table.items():
            assert codebook.resolve("symptom" if code in symptoms else "root_cause", text) == code, text
    for code, text in STAGE_SPELLING.items():
        assert codebook.resolve("stage", text) == code
    offered = {c.code for d in ("symptom", "root_cause") for c in codebook.codes(d, include_legacy=True)}
    assert offered <= set(STUDY_SPELLING) and offered <= set(LEGACY_SPELLING)
    assert {c.code for c in codebook.codes("stage", include_legacy=True)} <= set(STAGE_SPELLING)


def test_unknown_label_leaves_the_database_unchanged(store, published, codebook, tmp_path):
    prior = tmp_path / "prior.csv"
    prior.write_text("_id,isPB_ann,isPB_bob,merge\n65160023,1,1,1\n48048297,0,1,0\n")
    import_file(store, "identification", str(prior), codebook)
    before = snapshot(store)
    assert len(before["identifications"]) == 4
    with store.read() as s:
        audit_before = s.scalar(sa.select(sa.func.count()).select_from(AuditEntry))
    text = (published / FILES["labels"]).read_text(encoding="utf-8-sig")
    rows = list(csv.reader(text.splitlines()))
    # Corrupt one cell of the last PP, so every row before it would have been importable.
    target = max(i for i, row in enumerate(rows) if any(row))
    rows[target][1] = "Time: far too slow"
    bad = tmp_path / "bad_labels.csv"
    with open(bad, "w", encoding="utf-8", newline="") as fh:
        csv.writer(fh, lineterminator="\r\n").writerows(rows)
    with pytest.raises(PPMinerError) as err:
        import_file(store, "labels", str(bad), codebook)
    message = str(err.value)
    assert f"bad_labels.csv:{target + 1}:" in message and "'Time: far too slow'" in message
    assert "symptom1" in message and "\n" not in message
    assert snapshot(store) == before
    with store.read() as s:
        assert s.scalar(sa.select(sa.func.count()).select_from(AuditEntry)) == audit_before


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        (b'_id,isPB_a,isPB_b,merge\r\n1,1,0,1\r\n2,"1,0,0\r\n', "x.csv:3: malformed CSV"),
        (
            b"_id,isPB_a,isPB_b,merge\r\n1,1,0,1\r\n2,1,maybe,1\r\n",
            "x.csv:3: unknown identification value 'maybe'",
        ),
        *(  # exactly what the message says: 0, 1 or an empty cell
            (
                f"_id,isPB_a,isPB_b,merge\r\n1,1,0,1\r\n2,0,{cell},1\r\n".encode(),
                f"x.csv:3: unknown identification value {cell!r} in column 'isPB_b' (want 0, 1 or an empty cell)",
            )
            for cell in ("yes", "true", "TRUE", "no", "false", " 1", "1 ", "01", " ")
        ),
        (b"_id,isPB_a,isPB_b,merge\r\n1,1,0,1\r\nabc,1,0,1\r\n", "x.csv:3: bad id 'abc'"),
        (b"_id,isPB_a,isPB_b,merge\r\n1,1,0,1\r\n1,1,1,1\r\n", "x.csv:3: post 1 already given on line 2"),
        (b"_id,isPB_a,,merge\r\n1,1,0,1\r\n", "x.csv:2: value '0' in unnamed column 3"),
        (b"_id,isPB_a,merge\r\n1,1,0\r\n2,\xff,1\r\n", "x.csv: not UTF-8 text at byte offset 27"),
        (b"post,isPB_a,merge\r\n1,1,0\r\n", "x.csv:1: not a 'identification' file: missing columns ['id']"),
        (b"_id,isPB_a,merge,extra\r\n1,1,0,\r\n", "x.csv:1: unexpected columns ['extra']"),
        (b"", "x.csv: empty file"),
    ],
)
def test_malformed_identification_files_are_rejected_naming_the_place(
    sqlite_store, tmp_path, content, fragment
):
    path = tmp_path / "x.csv"
    path.write_bytes(content)
    with pytest.raises(PPMinerError) as err:
        import_file(sqlite_store, "identification", str(path))
    assert fragment in str(err.value)
    with sqlite_store.read() as s:
        assert s.scalar(sa.select(sa.func.count()).select_from(Identification)) == 0
        assert s.scalar(sa.select(sa.func.count()).select_from(Question)) == 0


def test_study_rows_are_validated(sqlite_store, tmp_path, codebook):
    header = (
        "id,creation_date,title,url,comment,introducing stage,exposing stage,symptom1,symptom2,root cause\n"
    )
    good = (
        "5_1,2020-01-02T03:04:05.000Z,t,https://stackoverflow.com/questions/5,,env,training,Unkown,,Others\n"
    )
    path = tmp_path / "s.csv"
    path.write_text(header + good + good.replace("2020-01-02", "yesterday").replace("5_1", "5_2"))
    with pytest.raises(PPMinerError, match=r"s\.csv:3: bad creation_date 'yesterdayT"):
        import_file(sqlite_store, "study", str(path), codebook)
    path.write_text(header + good + good.replace("5_1", "5_2").replace(",env,", ",sleeping,"))
    with pytest.raises(
        PPMinerError, match=r"s\.csv:3: unknown stage label 'sleeping' in column 'introducing stage'"
    ):
        import_file(sqlite_store, "study", str(path), codebook)
    path.write_text(header + good)
    result = import_file(sqlite_store, "study", str(path), codebook)
    assert result.final_labels == 1 and result.new_stubs == 1
    with sqlite_store.read() as s:
        q = s.get(Question, ("stackoverflow", 5))
        assert q.creation_date == datetime(2020, 1, 2, 3, 4, 5) and q.last_activity_date is None
        label = s.scalar(sa.select(FinalLabel))
        assert (label.symptom1, label.root_cause, label.introducing_stage) == (
            "unknown",
            "other",
            "environment_setting",
        )
        assert s.get(FinalIdentification, ("stackoverflow", 5)).is_pp is True


def test_import_never_overwrites_an_acquired_post(sqlite_store, published, codebook):
    real = {
        "site": "stackoverflow",
        "id": 65160023,
        "title": "acquired title",
        "body_html": "<p>body</p><pre>code</pre>",
        "last_activity_date": datetime(2021, 1, 1),
    }
    with sqlite_store.write() as s:
        upsert_questions(s, [real], "api")
    study = published / FILES["study"]
    titles = {parse_pp_key(r[0])[0].id: r[2].strip() for r in _rows(study)[1:]}
    posts = set(titles)
    assert real["id"] in posts
    other = min(posts - {real["id"]})
    result = import_file(sqlite_store, "study", str(study), codebook)
    assert result.posts == len(posts) and result.new_stubs == len(posts) - 1
    with sqlite_store.read() as s:
        q = s.get(Question, ("stackoverflow", 65160023))
        assert (q.title, q.source, q.has_code) == ("acquired title", "api", True)
        stub = s.get(Question, ("stackoverflow", other))
        assert (stub.source, stub.title, stub.last_activity_date) == ("import", titles[other], None)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep pytest output clean
        pass


@pytest.fixture
def http_dir(published):
    """A real HTTP server on 127.0.0.1 serving the published files."""
    handler = functools.partial(_QuietHandler, directory=str(published))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_import_from_url(sqlite_store, published, codebook, http_dir, tmp_path):
    result = import_file(sqlite_store, "labels", f"{http_dir}/{FILES['labels']}", codebook)
    header, *rows = _rows(published / FILES["labels"])
    first = [header.index(c) for c in ("symptom1", "root casue", "root stage", "expose stage")]
    second = [header.index(c) for c in ("symptom2", "root casue 2", "root stage 2", "expose stage 2")]
    rated = sum(any(r[i].strip() for i in cols) for r in rows for cols in (first, second))
    assert result.pp_labels == rated > 0 and result.raters == ["cjm", "longjie"]
    local = open_store(f"sqlite:///{tmp_path / 'local.db'}")
    import_file(local, "labels", str(published / FILES["labels"]), codebook)
    assert snapshot(local) == snapshot(sqlite_store)
    with pytest.raises(PPMinerError, match=r"/missing\.csv: download failed: HTTP 404"):
        import_file(sqlite_store, "labels", f"{http_dir}/missing.csv", codebook)


def test_labels_export_needs_two_raters_and_reports_what_it_drops(sqlite_store, tmp_path, codebook):
    with sqlite_store.write() as s:
        upsert_questions(
            s, [{"site": "stackoverflow", "id": 7, "title": "t", "body_html": "<p>x</p>"}], "api"
        )
        for name in ("ann", "bob", "cal"):
            rater = get_or_create_rater(s, name)
            set_pp_label(s, rater, 7, 1, symptom1="memory.oom", symptom2="memory.leak", root_cause="other")
    with pytest.raises(PPMinerError, match="exactly two raters"):
        export_file(sqlite_store, "labels", tmp_path / "l.csv")
    assert not (tmp_path / "l.csv").exists()
    result = export_file(sqlite_store, "labels", tmp_path / "l.csv", ["cal", "ann"])
    assert result.raters == ["cal", "ann"] and result.dropped == {"symptom2": 2}
    rows = _rows(tmp_path / "l.csv")
    assert rows[1] == ["7", "Memory: OOM", "Memory: OOM", "Others", "Others", "", "", "", ""]
    with pytest.raises(PPMinerError, match=r"no rater named \['zed'\]"):
        export_file(sqlite_store, "identification", tmp_path / "i.csv", ["zed"])


def test_labels_export_pairs_pps_as_agreement_does(sqlite_store, tmp_path, codebook):
    """ann's PP 1 is bob's PP 2 (bob typed them in the other order): they share a row, as agreement pairs them."""
    from labeling.agreement import compute_agreement

    full = {"introducing_stage": "training", "exposing_stage": "training"}
    loop = {"symptom1": "time.slow_execution", "root_cause": "api.not_batch_api", "part": "the loop", **full}
    oom = {"symptom1": "memory.oom", "root_cause": "data.improper_input", "part": "the input", **full}
    with sqlite_store.write() as s:
        upsert_questions(s, [{"site": "ai", "id": 1416, "title": "t", "body_html": "<p>x</p>"}], "dump")
        ann, bob = get_or_create_rater(s, "ann"), get_or_create_rater(s, "bob")
        set_pp_label(s, ann, ("ai", 1416), 1, **loop)
        set_pp_label(s, ann, ("ai", 1416), 2, **oom)
        set_pp_label(s, bob, ("ai", 1416), 1, **oom)
        set_pp_label(s, bob, ("ai", 1416), 2, **loop)
    with sqlite_store.read() as s:
        pairing = compute_agreement(s, codebook)["symptom"].pairing
    assert [p["pps"] for p in pairing] == [
        {"ann": "ai:1416_1", "bob": "ai:1416_2"},
        {"ann": "ai:1416_2", "bob": "ai:1416_1"},
    ]
    with sqlite_store.write() as s:  # PPs only bob found: rows of their own, his numbers, ann's cells empty
        bob = get_or_create_rater(s, "bob")
        set_pp_label(s, bob, ("ai", 1416), 3, **{**loop, "part": "the model"})
        set_pp_label(s, bob, ("ai", 1416), 4, **{**oom, "part": "the first line"})
    result = export_file(sqlite_store, "labels", tmp_path / "l.csv", ["ann", "bob"])
    rows = _rows(tmp_path / "l.csv")
    slow, oom_spelled = LEGACY_SPELLING["time.slow_execution"], LEGACY_SPELLING["memory.oom"]
    assert [r[:3] for r in rows[1:]] == [
        ["ai:1416_1", slow, slow],
        ["ai:1416_2", oom_spelled, oom_spelled],
        ["ai:1416_3", "", slow],
        ["ai:1416_4", "", oom_spelled],
    ]
    assert result.warnings() == [
        "the 'labels' shape has no column for part: 6 values not written (--format archive keeps them)"
    ]


@pytest.mark.parametrize(
    ("fmt", "what"),
    [("study", "no final labels"), ("identification", "no decisions"), ("benchmark", "no benchmark cases")],
)
def test_an_empty_export_is_refused_since_import_refuses_a_bare_header(sqlite_store, tmp_path, fmt, what):
    from labeling.io.benchmark import export_benchmark

    out = tmp_path / "out.csv"
    with pytest.raises(PPMinerError, match=rf"^nothing to export: {what} stored \(no file written\)$"):
        export_benchmark(sqlite_store, out) if fmt == "benchmark" else export_file(sqlite_store, fmt, out)
    assert not out.exists()


def test_cli_import_errors_and_usage(sqlite_url, published, tmp_path):
    from click.testing import CliRunner

    from labeling.cli import cli

    def run(*args):
        return CliRunner().invoke(cli, [*args, "--db", sqlite_url])

    # A real process: a PPMinerError is one line on stderr and exit 1.
    missing = subprocess.run(
        [sys.executable, "-m", "labeling.cli", "import", "--format", "study", str(tmp_path / "nope.csv")]
        + ["--db", sqlite_url],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert missing.returncode == 1
    assert missing.stderr.startswith("pplabel: error: ") and "nope.csv" in missing.stderr
    assert len(missing.stderr.strip().splitlines()) == 1
    usage = run("import", "--format", "labels", "--raters", "solo", str(published / FILES["labels"]))
    assert usage.exit_code == 2
    assert run("import", "--format", "xml", "f.csv").exit_code == 2
    ok = run("import", "--format", "study", str(published / FILES["study"]))
    pps = len(_rows(published / FILES["study"])) - 1
    assert ok.exit_code == 0 and f"{pps} final labels" in ok.stdout
    out = tmp_path / "study.csv"
    exported = run("export", "--format", "study", str(out))
    assert exported.exit_code == 0 and out.exists() and f"{pps} rows" in exported.stdout
    refused = run("export", "--format", "study", "--raters", "ann", str(tmp_path / "other.csv"))
    assert refused.exit_code == 2 and "--raters" in refused.output and not (tmp_path / "other.csv").exists()
    for cmd in ("import", "export"):
        helptext = run(cmd, "--help").stdout
        assert "--format" in helptext and "--raters" in helptext and "--db" in helptext


def test_killed_import_stores_nothing(sqlite_store, sqlite_url, tmp_path):
    """SIGKILL in the middle of a large import: the earlier data is intact and nothing of the file is stored."""
    import os
    import signal
    import time

    prior = tmp_path / "prior.csv"
    prior.write_text("_id,isPB_ann,merge\n1,1,1\n")
    import_file(sqlite_store, "identification", str(prior))
    before = snapshot(sqlite_store)
    big = tmp_path / "big.csv"
    big.write_text("_id,isPB_ann,isPB_bob,merge\n" + "".join(f"{i},1,0,1\n" for i in range(10, 30010)))
    db_file = sqlite_url.removeprefix("sqlite:///")
    wal = f"{db_file}-wal"

    def wal_size() -> int:
        return os.path.getsize(wal) if os.path.exists(wal) else 0

    wal_start = wal_size()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "labeling.cli",
            "import",
            "--format",
            "identification",
            str(big),
            "--db",
            sqlite_url,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        # Uncommitted pages spill into the WAL once the transaction outgrows the page cache: it is mid-write.
        while wal_size() < wal_start + 4_000_000:
            assert proc.poll() is None, "the import finished before it could be killed"
            assert time.monotonic() < deadline, "the import never started writing"
            time.sleep(0.05)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    assert snapshot(sqlite_store) == before
    # The database is still usable: the same file now imports completely.
    small = tmp_path / "small.csv"
    small.write_text("_id,isPB_ann\n2,0\n")
    assert import_file(sqlite_store, "identification", str(small)).identifications == 1


def _short_row_file(published, tmp_path, name, drop):
    """The published file with its last data row cut short by ``drop`` named cells (and the unnamed ones)."""
    header, *rows = _rows(published / name)
    named = sum(1 for h in header if h.strip())
    rows[-1] = rows[-1][: named - drop]
    path = tmp_path / name
    with open(path, "w", encoding="utf-8", newline="") as fh:
        csv.writer(fh, lineterminator="\n").writerows([header, *rows])
    with open(path, encoding="utf-8", newline="") as fh:
        reader = csv.reader(fh)
        for _ in range(len(rows)):  # up to the end of the row before the last (cells may span lines)
            next(reader)
        line = reader.line_num + 1
    return path, line, named - drop


@pytest.mark.parametrize(("fmt", "drop"), [("study", 1), ("study", 6), ("labels", 1), ("identification", 1)])
def test_a_short_row_rejects_the_whole_file(sqlite_store, published, codebook, tmp_path, fmt, drop):
    path, line, cells = _short_row_file(published, tmp_path, FILES[fmt], drop)
    with pytest.raises(PPMinerError) as err:
        import_file(sqlite_store, fmt, str(path), codebook)
    message = str(err.value)
    assert message.startswith(f"{path}:{line}: short row: {cells} cells") and "\n" not in message
    assert snapshot(sqlite_store) == snapshot(open_store(f"sqlite:///{tmp_path / 'empty.db'}"))


def test_rows_may_omit_trailing_unnamed_columns(sqlite_store, published, codebook, tmp_path):
    header, *rows = _rows(published / FILES["study"])
    named = sum(1 for h in header if h.strip())
    trimmed = tmp_path / "trimmed.csv"
    with open(trimmed, "w", encoding="utf-8", newline="") as fh:
        csv.writer(fh).writerows([header, *(r[:named] for r in rows)])
    result = import_file(sqlite_store, "study", str(trimmed), codebook)
    assert result.final_labels == len(rows)


@pytest.mark.parametrize("fmt", ["study", "identification"])
def test_raters_are_refused_where_the_file_names_them_itself(sqlite_store, sqlite_url, published, fmt):
    from click.testing import CliRunner

    from labeling.cli import cli

    path = str(published / FILES[fmt])
    result = CliRunner().invoke(
        cli, ["import", "--format", fmt, "--raters", "ann,bob", path, "--db", sqlite_url]
    )
    assert (
        result.exit_code == 2 and "--raters" in result.output and "only for --format labels" in result.output
    )
    with pytest.raises(PPMinerError, match=f"not to a '{fmt}' file"):
        import_file(sqlite_store, fmt, path, raters=("ann", "bob"))
    with sqlite_store.read() as s:
        assert s.scalar(sa.select(sa.func.count()).select_from(Question)) == 0
        assert s.scalar(sa.select(sa.func.count()).select_from(Rater)) == 0


def test_import_progress_only_on_a_terminal(sqlite_url, tmp_path):
    """A bar on stderr when it is a terminal; nothing but the summary on stdout when run from a script."""
    import os
    import pty

    big = tmp_path / "big.csv"
    big.write_text("_id,isPB_ann,merge\n" + "".join(f"{i},1,1\n" for i in range(1, 1501)))
    command = [sys.executable, "-m", "labeling.cli", "import", "--format", "identification", str(big), "--db"]
    open_store(sqlite_url)  # made beforehand, so the import has nothing to say about creating it
    piped = subprocess.run([*command, sqlite_url], capture_output=True, text=True, timeout=120)
    assert piped.returncode == 0 and piped.stderr == ""
    assert piped.stdout.strip().endswith("for 1500 posts (1500 new post stubs)")
    primary, secondary = pty.openpty()
    proc = subprocess.Popen(
        [*command, f"sqlite:///{tmp_path / 'tty.db'}"], stdout=subprocess.PIPE, stderr=secondary
    )
    os.close(secondary)
    shown = b""
    try:
        while True:  # drain the terminal while the import runs, so a full buffer never blocks it
            try:
                chunk = os.read(primary, 65536)
            except OSError:  # every writer closed its end: all read
                break
            if not chunk:
                break
            shown += chunk
        stdout = proc.communicate(timeout=120)[0]
    finally:
        os.close(primary)
    assert proc.returncode == 0 and b"importing identification" in shown
    assert b"new post stubs" in stdout and b"new post stubs" not in shown


def _pplabel(monkeypatch, capsys, *args):
    """Run the real `pplabel` entry point in this process: (exit status, stdout, stderr)."""
    from labeling.cli import main

    monkeypatch.setattr(sys, "argv", ["pplabel", *args])
    with pytest.raises(SystemExit) as done:
        main()
    out = capsys.readouterr()
    return done.value.code, out.out, out.err


def _published(published, fmt) -> bytes:
    return (published / FILES[fmt]).read_bytes()


def _header(published, fmt) -> bytes:
    return _published(published, fmt).splitlines(keepends=True)[0]


def _without_column(published, fmt, column) -> bytes:
    header, *rows = _rows(published / FILES[fmt])
    i = header.index(column)
    out = io.StringIO()
    csv.writer(out).writerows(r[:i] + r[i + 1 :] for r in [header, *rows])
    return out.getvalue().encode()


def _bad_byte_in_last_row(published, fmt):
    data = _published(published, fmt).rstrip()
    offset = data.rindex(b",") + 1
    return data[:offset] + b"\xe9" + data[offset:], offset


BAD_FILES = {
    "empty": lambda published, fmt: (b"", "x.csv: empty file"),
    "only a BOM": lambda published, fmt: (b"\xef\xbb\xbf", "x.csv: empty file"),
    "blank first line": lambda published, fmt: (
        b"\r\n" + _published(published, fmt),
        "x.csv:1: blank first line",
    ),
    "only a header": lambda published, fmt: (_header(published, fmt), "x.csv: only a header, no data rows"),
    "HTML page": lambda published, fmt: (
        b"\n<!DOCTYPE html>\n<html><head><title>a, b</title></head></html>\n",
        "x.csv:2: an HTML page, not a CSV file",
    ),
    "UTF-16": lambda published, fmt: (
        _published(published, fmt).decode("utf-8-sig").encode("utf-16"),
        "x.csv: UTF-16 text",
    ),
    "not UTF-8": lambda published, fmt: (
        lambda data, offset: (data, f"x.csv: not UTF-8 text at byte offset {offset}")
    )(*_bad_byte_in_last_row(published, fmt)),
}


@pytest.mark.parametrize("case", list(BAD_FILES))
@pytest.mark.parametrize("fmt", list(FILES))
def test_unusable_files_fail_in_one_line_and_store_nothing(
    sqlite_store, sqlite_url, published, tmp_path, monkeypatch, capsys, fmt, case
):
    prior = tmp_path / "prior.csv"
    prior.write_text("_id,isPB_ann,merge\n1,1,1\n")
    import_file(sqlite_store, "identification", str(prior))
    before = snapshot(sqlite_store)
    content, fragment = BAD_FILES[case](published, fmt)
    path = tmp_path / "x.csv"
    path.write_bytes(content)
    status, out, err = _pplabel(monkeypatch, capsys, "import", "--format", fmt, str(path), "--db", sqlite_url)
    assert (status, out) == (1, "")
    assert err.startswith(f"pplabel: error: {tmp_path}/") and fragment in err and err.count("\n") == 1
    assert snapshot(sqlite_store) == before


@pytest.mark.parametrize(("fmt", "given"), [(f, g) for f in FILES for g in FILES if f != g])
def test_a_file_given_with_the_wrong_format_names_its_own(sqlite_store, published, codebook, fmt, given):
    path = str(published / FILES[given])
    with pytest.raises(PPMinerError) as err:
        import_file(sqlite_store, fmt, path, codebook)
    assert str(err.value) == (
        f"{path}:1: the header of a {given!r} file, not of a {fmt!r} one: import it with --format {given}"
    )
    with sqlite_store.read() as s:
        assert s.scalar(sa.select(sa.func.count()).select_from(Question)) == 0


@pytest.mark.parametrize(("fmt", "column"), [("study", "root cause"), ("labels", "expose stage 2")])
def test_a_header_missing_a_required_column_is_named(
    sqlite_store, published, codebook, tmp_path, fmt, column
):
    path = tmp_path / "x.csv"
    path.write_bytes(_without_column(published, fmt, column))
    with pytest.raises(PPMinerError, match=rf"x\.csv:1: not a '{fmt}' file: missing columns \['{column}'\]"):
        import_file(sqlite_store, fmt, str(path), codebook)
    with sqlite_store.read() as s:
        assert s.scalar(sa.select(sa.func.count()).select_from(Question)) == 0


class _PageHandler(http.server.BaseHTTPRequestHandler):
    """A web page where a CSV was expected: labelled text/html, or mislabelled text/plain."""

    def do_GET(self):
        body = b"<!doctype html>\n<html><body><table><tr><td>_id,merge</td></tr></table></body></html>\n"
        self.send_response(200)
        self.send_header("Content-Type", "text/plain" if "plain" in self.path else "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def test_a_url_serving_a_web_page_is_refused(sqlite_store):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _PageHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        with pytest.raises(PPMinerError) as err:
            import_file(sqlite_store, "identification", f"{base}/blob/kappa_identification.csv")
        assert str(err.value).startswith(f"{base}/blob/kappa_identification.csv: the server sent a web page")
        with pytest.raises(PPMinerError, match=r"/plain\.csv:1: an HTML page, not a CSV file"):
            import_file(sqlite_store, "identification", f"{base}/plain.csv")
    finally:
        server.shutdown()
        server.server_close()
    with sqlite_store.read() as s:
        assert s.scalar(sa.select(sa.func.count()).select_from(Question)) == 0


def test_a_labels_row_number_never_repeats_one_the_first_rater_uses():
    from labeling.io.export_study import _slot_ids

    # bob's PP 1 pairs with no PP of ann; his PP 2 is ann's PP 1: the lone PP takes the next free number
    assert _slot_ids([{"bob": 1}, {"ann": 1, "bob": 2}], "ann") == [2, 1]
    assert _slot_ids([{"ann": 2, "bob": 1}, {"bob": 2}], "ann") == [2, 3]
