"""Where an export's bytes go: standard output for ``-``, else a file replaced atomically with the user's umask.

A temporary file in the same folder is renamed over the target when complete, so a reader never sees half a file.
``tempfile.mkstemp`` creates it rw------- (co-authors sharing the folder could not read the export), so it gets the
mode a plain ``open(path, "w")`` would give: the existing file's, else 0o666 less the umask.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from core.cli_common import echo_data, stdout_is_terminal
from core.errors import PPMinerError

STDOUT = "-"


def new_file_mode(path: Path) -> int:
    try:
        return path.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def write_output(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` (``-``: standard output) as described above."""
    if str(path) == STDOUT:
        if (
            stdout_is_terminal()
        ):  # post text on a terminal is shown inert; a pipe or file gets the exact bytes
            echo_data(data.decode("utf-8"))
            return
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    with atomic_file(path) as fh:
        fh.write(data)


@contextmanager
def atomic_file(path: str | Path) -> Iterator[BinaryIO]:
    """A binary file that replaces ``path`` when the block ends and vanishes if it raises (see above)."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise PPMinerError(f"{path}: folder {folder} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        os.fchmod(fd, new_file_mode(path))
        with os.fdopen(fd, "w+b") as fh:
            yield fh
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise PPMinerError(f"{path}: cannot write: {exc.strerror or exc}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
