"""The study definition (``data/study.toml``): what to acquire, how to select and match, which codebook.

Every command reads it; flags override single values. ``--config FILE`` or ``PPMINER_CONFIG`` names another file;
relative file names inside it are resolved against the file's own folder. A study with no published figures
leaves ``[files] published`` empty or out (``published_file`` is then None).
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from core.errors import PPMinerError
from core.paths import PROJECT_ROOT

PROJECT_DATA = PROJECT_ROOT / "data"
DEFAULT_CONFIG = PROJECT_DATA / "study.toml"
ENV_CONFIG = "PPMINER_CONFIG"
MATCH_FIELDS = ("title", "prose", "code", "answers", "comments")


@dataclass(frozen=True)
class Selection:
    require_code: bool = True
    require_good_answer: bool = True
    min_answer_score: int = 2


@dataclass(frozen=True)
class StudyConfig:
    path: Path
    name: str = ""
    site: str = "stackoverflow"
    tags: tuple[str, ...] = ("tensorflow", "keras")
    date_from: date | None = None
    date_to: date | None = None
    keywords_file: Path = PROJECT_DATA / "keywords.txt"
    codebook_file: Path = PROJECT_DATA / "codebook.yaml"
    published_file: Path | None = PROJECT_DATA / "published.yaml"  # None: a study with no published figures
    selection: Selection = field(default_factory=Selection)
    match_fields: tuple[str, ...] = ("title", "prose")
    api_url: str = "https://api.stackexchange.com/2.3"
    page_size: int = 100
    max_requests_per_second: float = 30.0


def _date(value, where: str) -> date | None:
    if value in (None, ""):
        return None
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        raise PPMinerError(f"{where}: {value!r} is not a date (YYYY-MM-DD)") from None


def _optional_file(base: Path, name: str) -> Path | None:
    """``base / name``, or None when the study names no such file (absent or empty)."""
    return base / name if name.strip() else None


def load_config(path: str | Path | None = None) -> StudyConfig:
    """Read the study config; raise PPMinerError naming the file and key on anything wrong."""
    path = Path(path or os.environ.get(ENV_CONFIG) or DEFAULT_CONFIG)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PPMinerError(f"config file not found: {path}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise PPMinerError(f"{path}: not valid TOML: {exc}") from None
    get = _Reader(path, raw).get
    fields = tuple(get("match", "fields", list, ["title", "prose"]))
    unknown = [f for f in fields if f not in MATCH_FIELDS]
    if unknown:
        raise PPMinerError(f"{path}: [match] fields: unknown {unknown}; choose from {list(MATCH_FIELDS)}")
    base = path.parent
    return StudyConfig(
        path=path,
        name=get("study", "name", str, ""),
        site=get("study", "site", str, "stackoverflow"),
        tags=tuple(get("study", "tags", list, ["tensorflow", "keras"])),
        date_from=_date(get("study", "from", (str, date), None), f"{path}: [study] from"),
        date_to=_date(get("study", "to", (str, date), None), f"{path}: [study] to"),
        keywords_file=base / get("files", "keywords", str, "keywords.txt"),
        codebook_file=base / get("files", "codebook", str, "codebook.yaml"),
        published_file=_optional_file(base, get("files", "published", str, "")),
        selection=Selection(
            require_code=get("selection", "require_code", bool, True),
            require_good_answer=get("selection", "require_good_answer", bool, True),
            min_answer_score=get("selection", "min_answer_score", int, 2),
        ),
        match_fields=fields,
        api_url=get("api", "url", str, "https://api.stackexchange.com/2.3"),
        page_size=get("api", "page_size", int, 100),
        max_requests_per_second=float(get("api", "max_requests_per_second", (int, float), 30)),
    )


class _Reader:
    """Typed access to the parsed TOML, naming ``FILE: [section] key`` in every complaint."""

    def __init__(self, path: Path, raw: dict) -> None:
        self.path, self.raw = path, raw

    def get(self, section: str, key: str, kind, default):
        table = self.raw.get(section, {})
        if not isinstance(table, dict):
            raise PPMinerError(f"{self.path}: [{section}] must be a table, not {type(table).__name__}")
        value = table.get(key, default)
        if value is None:
            return None
        bad = not isinstance(value, kind) or (kind is int and isinstance(value, bool))
        if kind is list and not bad:
            bad = not all(isinstance(v, str) for v in value)
        if bad:
            want = "a list of strings" if kind is list else _kind_name(kind)
            raise PPMinerError(f"{self.path}: [{section}] {key} must be {want}, not {value!r}")
        return value


def _kind_name(kind) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    names = {str: "a string", bool: "true or false", int: "an integer", float: "a number", date: "a date"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)
