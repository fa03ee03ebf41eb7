"""Where the notebooks read and write: the study database and the output folder, from the environment."""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy.engine import make_url

from core.db import redact, resolve_url
from core.errors import PPMinerError
from core.paths import PROJECT_ROOT

ENV_DB = "PPMINER_DB"
ENV_OUT = "PPMINER_OUT"
DEFAULT_DB = PROJECT_ROOT / "data" / "study.db"
DEFAULT_OUT = PROJECT_ROOT / "notebooks" / "output"


def launch_dir() -> Path:
    """The folder the user started the command in: ``$PWD`` as the shell set it (a notebook kernel runs in
    ``notebooks/`` but inherits the shell's ``$PWD``, as nbconvert's ``--output-dir`` does), else the working
    directory."""
    pwd = os.environ.get("PWD")
    return Path(pwd) if pwd and Path(pwd).is_dir() else Path.cwd()


def _from_launch_dir(path: str | Path) -> Path:
    path = Path(path).expanduser()
    return path if path.is_absolute() else launch_dir() / path


def database_url(url: str | None = None) -> str:
    """``url``, else ``PPMINER_DB``, else the checkout's ``data/study.db``; a relative SQLite path is from the
    folder the command was started in (:func:`launch_dir`), as for ppmine and pplabel."""
    url = resolve_url(url or os.environ.get(ENV_DB) or str(DEFAULT_DB))
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database and parsed.database != ":memory:":
        db = Path(parsed.database)
        if not db.is_absolute():
            url = parsed.set(database=str(_from_launch_dir(db))).render_as_string(hide_password=False)
        if not Path(make_url(url).database).exists():
            raise PPMinerError(f"no study database at {redact(url)} (set {ENV_DB} to its URL)")
    return url


def output_dir(path: str | Path | None = None) -> Path:
    """``path``, else ``PPMINER_OUT``, else ``notebooks/output/`` of the checkout; created when missing. A relative
    path is from the folder the command was started in (:func:`launch_dir`), like nbconvert's ``--output-dir``."""
    out = _from_launch_dir(path or os.environ.get(ENV_OUT) or DEFAULT_OUT)
    out.mkdir(parents=True, exist_ok=True)
    return out
