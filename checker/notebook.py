"""Jupyter notebooks: their code cells as one module, with a map back to (cell, line)."""

from __future__ import annotations

import json
import re

# IPython syntax that is not Python: line magics, shell escapes, help. Replaced by blank lines.
_MAGIC_LINE = re.compile(r"^\s*(%[%\w]|!|\?)|^\s*\w[\w.]*\?\??\s*$")
# Cell magics whose body is still Python.
_PYTHON_CELL_MAGICS = ("%%time", "%%timeit", "%%capture", "%%prun")


class NotebookError(ValueError):
    pass


def code_cells(text: str) -> list[tuple[int, str]]:
    """(cell number, source) of each Python code cell; IPython magics become `pass`.

    Cells are numbered as ruff numbers them: 1-based among all the notebook's cells, markdown ones included,
    so `cell 3` is the third cell a reader sees.
    """
    try:
        nb = json.loads(text)
    except json.JSONDecodeError as exc:
        raise NotebookError(f"line {exc.lineno}: not valid notebook JSON ({exc.msg})") from None
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
        raise NotebookError("not a notebook (no 'cells' list)")
    language = (nb.get("metadata", {}).get("kernelspec") or {}).get("language", "python")
    if language not in ("python", ""):
        raise NotebookError(f"kernel language is {language!r}, not python")
    cells = []
    for number, cell in enumerate(nb["cells"], 1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
        lines = source.split("\n")
        if lines and lines[0].startswith("%%"):
            if not lines[0].startswith(_PYTHON_CELL_MAGICS):
                continue  # %%bash, %%writefile, ...: not Python
            lines[0] = ""
        cells.append((number, "\n".join(pass_for_magic(line) for line in lines)))
    return cells


def pass_for_magic(line: str) -> str:
    """A magic line becomes `pass` at its indentation, so a block whose body it was still parses."""
    if not ("%" in line or "!" in line or "?" in line) or not _MAGIC_LINE.match(line):
        return line  # (the test on characters first: most lines have none of them)
    return line[: len(line) - len(line.lstrip())] + "pass"


_CELL_START = re.compile(r'^\s*"cell_type"\s*:')
_SOURCE_LIST = re.compile(r'^\s*"source"\s*:\s*\[\s*$')
_SOURCE_ONE = re.compile(r'^\s*"source"\s*:\s*(".*")\s*,?\s*$')
_STRING_ITEM = re.compile(r'^\s*".*",?\s*$')


def file_lines(text: str) -> dict[tuple[int, int], int]:
    """(cell number, line in the cell) -> line of the .ipynb file that holds it, for notebooks written as Jupyter
    writes them (one source line per JSON string); code scanning shows results on the file's own lines."""
    where: dict[tuple[int, int], int] = {}
    cell = 0
    in_source = False
    line_in_cell = 0
    for number, raw in enumerate(text.split("\n"), 1):
        if in_source:
            if _STRING_ITEM.match(raw):
                line_in_cell += 1
                where[(cell, line_in_cell)] = number
                continue
            in_source = False
        # A substring test before each pattern: outputs are most lines, and hold neither key.
        if '"cell_type"' in raw and _CELL_START.match(raw):
            cell += 1
        elif '"source"' not in raw:
            continue
        elif _SOURCE_LIST.match(raw):
            in_source, line_in_cell = True, 0
        elif _SOURCE_ONE.match(raw):
            where[(cell, 1)] = number
    return where
