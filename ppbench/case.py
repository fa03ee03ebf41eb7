"""A benchmark case: a folder with ``case.toml``, ``buggy.py`` and ``fixed.py``.

``case.toml`` says which study PPs the case reproduces and how to judge it::

    title = "tf.function retraced on every call"
    pp_ids = ["55711115"]                # the study's PP ids (<post> or <post>_<pp>)
    symptom = "time"                     # time | memory | memory_growth | oom
    root_cause = "model.computation_graph_confusion"   # a codebook code
    metric = "section"                   # optional; default by symptom (see METRICS)
    steps = 40                           # passed to the scripts (probe.count)
    repeats = 5                          # measured runs per variant
    warmup = 1                           # unmeasured runs per variant first
    timeout_s = 300                      # per run
    memory_limit_mb = 0                  # address-space limit per run (0: none), for oom cases
    ppcheck = ["TFP001"]                 # ppcheck rules that find buggy.py

    [requires]
    framework = "tensorflow"             # or "torch", or "none"
    version = ">=2.12"

Reading never runs anything; every problem is one ``PPMinerError`` naming the file (and line where TOML says).
"""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from core.errors import PPMinerError
from core.sites import parse_pp_key

CASE_FILE = "case.toml"
VARIANTS = ("buggy", "fixed")
# symptom -> (default metric, metrics allowed)
METRICS = {
    "time": ("section", ("section", "wall", "cpu", "steps")),
    "memory": ("peak_rss", ("peak_rss",)),
    "memory_growth": ("rss_growth", ("rss_growth",)),
    "oom": ("status", ("status",)),
}
FRAMEWORKS = {
    "tensorflow": "tensorflow",
    "torch": "torch",
    "none": None,
}  # framework -> distribution to look up
EXTRAS = {"tensorflow": "bench", "torch": "bench-torch"}  # framework -> the pyproject extra that installs it


def _is_pp_id(value) -> bool:
    """A study PP id: ``<post>`` or ``<post>_<pp>``, the post a Stack Overflow id or ``SITE:ID`` (core.sites)."""
    if not isinstance(value, str):
        return False
    try:
        post, index = parse_pp_key(value)
    except ValueError:
        return False
    return post.id > 0 and index > 0


KNOWN_KEYS = {"title", "pp_ids", "symptom", "root_cause", "metric", "steps", "repeats", "warmup", "timeout_s",
              "memory_limit_mb", "ppcheck", "requires", "description"}  # fmt: skip


@dataclass(frozen=True)
class Case:
    name: str
    folder: Path
    title: str
    pp_ids: tuple[str, ...]
    symptom: str
    root_cause: str
    metric: str
    steps: int | None = None
    repeats: int = 5
    warmup: int = 1
    timeout_s: float = 300.0
    memory_limit_mb: int = 0
    ppcheck: tuple[str, ...] = ()
    framework: str = "none"
    version: str = ""
    description: str = ""
    extra: dict = field(default_factory=dict)

    def script(self, variant: str) -> Path:
        return self.folder / f"{variant}.py"

    def summary(self) -> dict:
        return {
            "name": self.name, "title": self.title, "pp_ids": list(self.pp_ids), "symptom": self.symptom,
            "root_cause": self.root_cause, "metric": self.metric, "steps": self.steps, "repeats": self.repeats,
            "warmup": self.warmup, "timeout_s": self.timeout_s, "memory_limit_mb": self.memory_limit_mb,
            "ppcheck": list(self.ppcheck), "framework": self.framework, "version": self.version,
        }  # fmt: skip


def _need(data: dict, key: str, kind, where: str, default=None):
    value = data.get(key, default)
    if value is None:
        raise PPMinerError(f"{where}: missing {key!r}")
    if kind is int and isinstance(value, bool) or not isinstance(value, kind):
        raise PPMinerError(f"{where}: {key!r} must be {getattr(kind, '__name__', kind)}, not {value!r}")
    return value


def load_case(folder: str | Path) -> Case:
    """Read and check one case folder (its scripts must exist; they are not run)."""
    folder = Path(folder)
    toml = folder / CASE_FILE
    if not folder.is_dir():
        raise PPMinerError(f"{folder}: no such case folder")
    try:
        data = tomllib.loads(toml.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PPMinerError(f"{toml}: missing (a case needs case.toml, buggy.py and fixed.py)") from None
    except UnicodeDecodeError as exc:
        raise PPMinerError(f"{toml}: not UTF-8 text at byte offset {exc.start}") from None
    except tomllib.TOMLDecodeError as exc:
        line = re.search(r"line (\d+)", str(exc))
        raise PPMinerError(f"{toml}:{line.group(1) if line else 1}: not valid TOML: {exc}") from None
    where = str(toml)
    unknown = sorted(set(data) - KNOWN_KEYS)
    if unknown:
        raise PPMinerError(f"{where}: unknown keys {unknown} (known: {sorted(KNOWN_KEYS)})")
    symptom = _need(data, "symptom", str, where)
    if symptom not in METRICS:
        raise PPMinerError(f"{where}: unknown symptom {symptom!r} (choose from {list(METRICS)})")
    default_metric, allowed = METRICS[symptom]
    metric = _need(data, "metric", str, where, default_metric)
    if metric not in allowed:
        raise PPMinerError(
            f"{where}: metric {metric!r} does not judge symptom {symptom!r} (use {list(allowed)})"
        )
    pp_ids = _need(data, "pp_ids", list, where)
    bad = [p for p in pp_ids if not _is_pp_id(p)]
    if bad or not pp_ids:
        raise PPMinerError(
            f"{where}: pp_ids must be study PP ids such as '65160023_1' (Stack Overflow) or 'ai:136_1', "
            f"not {bad or pp_ids}"
        )
    requires = _need(data, "requires", dict, where, {})
    framework = requires.get("framework", "none")
    if framework not in FRAMEWORKS:
        raise PPMinerError(f"{where}: unknown framework {framework!r} (choose from {list(FRAMEWORKS)})")
    ppcheck = _need(data, "ppcheck", list, where, [])
    steps = data.get("steps")
    if steps is not None and (isinstance(steps, bool) or not isinstance(steps, int) or steps < 1):
        raise PPMinerError(f"{where}: 'steps' must be a positive integer, not {steps!r}")
    case = Case(
        name=folder.resolve().name,
        folder=folder.resolve(),
        title=_need(data, "title", str, where),
        pp_ids=tuple(pp_ids),
        symptom=symptom,
        root_cause=_need(data, "root_cause", str, where),
        metric=metric,
        steps=steps,
        repeats=_need(data, "repeats", int, where, 5),
        warmup=_need(data, "warmup", int, where, 1),
        timeout_s=float(_need(data, "timeout_s", (int, float), where, 300)),
        memory_limit_mb=_need(data, "memory_limit_mb", int, where, 0),
        ppcheck=tuple(str(c) for c in ppcheck),
        framework=framework,
        version=str(requires.get("version", "")),
        description=str(data.get("description", "")),
    )
    if case.repeats < 2 or case.warmup < 0 or case.timeout_s <= 0 or case.memory_limit_mb < 0:
        raise PPMinerError(f"{where}: need repeats >= 2, warmup >= 0, timeout_s > 0, memory_limit_mb >= 0")
    return case


def missing_scripts(case: Case) -> list[str]:
    return [f"{v}.py" for v in VARIANTS if not case.script(v).is_file()]


def unmet_requirement(case: Case) -> str | None:
    """Why this machine cannot run the case (framework missing or of the wrong version), else None."""
    dist = FRAMEWORKS[case.framework]
    if dist is None:
        return None
    version = None
    for name in (dist, f"{dist}-cpu"):
        try:
            version = importlib.metadata.version(name)
            break
        except importlib.metadata.PackageNotFoundError:
            continue
    if version is None:
        return f"needs {dist}{case.version} (not installed: pip install -e '.[{EXTRAS[case.framework]}]')"
    if case.version:
        try:
            from packaging.specifiers import SpecifierSet

            if version not in SpecifierSet(case.version):
                return f"needs {dist}{case.version}, found {version}"
        except ImportError:  # packaging absent: do not guess
            pass
    return None


def shipped_cases() -> list[Path]:
    """The cases that come with ppbench (ppbench/cases/<name>/)."""
    root = Path(__file__).resolve().parent / "cases"
    return sorted(p for p in root.iterdir() if (p / CASE_FILE).is_file())
