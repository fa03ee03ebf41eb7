"""`pplabel export`: `-` is standard output, files get the user's umask (co-authors can read them)."""

from __future__ import annotations

import os
import stat
import subprocess

import pytest
from conftest import run_cli

from core.db import open_store
from labeling.codebook import load_codebook
from labeling.io.benchmark import import_benchmark
from labeling.io.import_study import import_file


def pplabel(*args: str, umask: int | None = None, cwd=None) -> subprocess.CompletedProcess:
    """pplabel in this process (stdout and stderr as bytes), under ``umask`` if given."""
    old = os.umask(umask) if umask is not None else None
    try:
        return run_cli("labeling.cli", *args, check=False, cwd=cwd, text=False)
    finally:
        if old is not None:
            os.umask(old)


@pytest.fixture(scope="module")
def study_db(tmp_path_factory, published):
    url = f"sqlite:///{tmp_path_factory.mktemp('exports') / 'study.db'}"
    store = open_store(url)
    codebook = load_codebook()
    import_file(store, "study", str(published / "empirical_study.csv"), codebook)
    import_file(store, "identification", str(published / "kappa_identification.csv"), None)
    import_benchmark(store, str(published / "benchmark.csv"), codebook)
    return url


@pytest.mark.parametrize("fmt", ["study", "identification", "benchmark"])
def test_dash_writes_the_same_bytes_to_stdout(study_db, tmp_path, fmt):
    to_file = pplabel("export", "--format", fmt, str(tmp_path / "out.csv"), "--db", study_db)
    assert to_file.returncode == 0, to_file.stderr
    to_stdout = pplabel("export", "--format", fmt, "-", "--db", study_db, cwd=tmp_path)
    assert to_stdout.returncode == 0, to_stdout.stderr
    assert to_stdout.stdout == (tmp_path / "out.csv").read_bytes() and len(to_stdout.stdout) > 1000
    assert to_stdout.stdout.startswith(b"\xef\xbb\xbf") == (fmt != "identification")  # each shape's own BOM
    assert to_stdout.stderr.decode().startswith("-: wrote ")  # the summary stays off the data
    assert not (tmp_path / "-").exists()


@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o007, 0o660)])
def test_new_files_follow_the_umask_and_existing_ones_keep_their_mode(study_db, tmp_path, umask, mode):
    out = tmp_path / "study.csv"
    res = pplabel("export", "--format", "study", str(out), "--db", study_db, umask=umask)
    assert res.returncode == 0, res.stderr
    assert stat.S_IMODE(out.stat().st_mode) == mode
    out.chmod(0o600)  # the user made it private: a re-export keeps that
    res = pplabel("export", "--format", "study", str(out), "--db", study_db, umask=umask)
    assert res.returncode == 0 and stat.S_IMODE(out.stat().st_mode) == 0o600
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
