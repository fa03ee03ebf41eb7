"""The study codebook (``data/codebook.yaml``): label codes, names, definitions, picker keys, aliases and notes.

Labels are stored as codes (``time.slow_execution``); every spelling found in the published data resolves to one
through :meth:`Codebook.resolve`. The file is validated on load: duplicate YAML keys, duplicate codes, keys or
aliases, and notes naming unknown codes are errors that name the file, line and entry.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from core.errors import PPMinerError
from labeling.vocabulary import CODEBOOK_DIMENSIONS

DIMENSIONS = CODEBOOK_DIMENSIONS  # this module's short name for the codebook's dimensions

# Label columns of pp_labels / final_labels and the published CSVs -> the dimension their values belong to.
DIMENSION_OF_COLUMN = {
    "symptom1": "symptom",
    "symptom2": "symptom",
    "root_cause": "root_cause",
    "introducing_stage": "stage",
    "exposing_stage": "stage",
}


class UnknownLabel(PPMinerError):
    """A label text that is no code, name or alias of the dimension."""

    def __init__(self, dimension: str, value: str, where: str = ""):
        self.dimension, self.value = dimension, value
        prefix = f"{where}: " if where else ""
        super().__init__(f"{prefix}unknown {dimension} label {value!r}")


@dataclass(frozen=True)
class Code:
    code: str
    name: str
    category: str
    category_name: str
    definition: str
    key: str
    aliases: tuple[str, ...]
    legacy: bool = False
    dimension: str = ""


@dataclass(frozen=True)
class Category:
    code: str
    name: str
    definition: str
    key: str
    legacy: bool = False
    dimension: str = ""


@dataclass(frozen=True)
class Note:
    codes: tuple[str, ...]
    text: str


def normalize(text: str) -> str:
    """The matching form of a label: case-folded, whitespace runs folded to one space, trimmed, and one space
    after a colon ("Time:slow" == "Time : slow" == "time: slow")."""
    text = re.sub(r"\s*:\s*", ": ", text)
    return re.sub(r"\s+", " ", text).strip().casefold()


class Codebook:
    """The loaded, validated codebook; immutable."""

    def __init__(
        self, path: Path, categories: dict[str, list[Category]], codes: dict[str, list[Code]], notes
    ):
        self.path = path
        self._categories = categories
        self._codes = codes
        self.notes: tuple[Note, ...] = tuple(notes)
        self._by_code = {d: {c.code: c for c in codes[d]} for d in DIMENSIONS}
        self._category_by_code = {d: {c.code: c for c in categories[d]} for d in DIMENSIONS}
        self._lookup: dict[str, dict[str, str]] = {d: {} for d in DIMENSIONS}
        for dim in DIMENSIONS:
            for code in codes[dim]:
                for text in code_spellings(code):
                    self._lookup[dim][normalize(text)] = code.code

    def _check_dimension(self, dimension: str) -> None:
        if dimension not in DIMENSIONS:
            raise PPMinerError(f"unknown codebook dimension {dimension!r}; choose from {list(DIMENSIONS)}")

    def resolve(self, dimension: str, text: str | None, where: str = "") -> str | None:
        """The code for a code, name or alias; "" or None -> None; anything else raises UnknownLabel.

        ``where`` (e.g. ``file.csv:12``) is put in front of the error message.
        """
        self._check_dimension(dimension)
        if text is None or not str(text).strip():
            return None
        code = self._lookup[dimension].get(normalize(str(text)))
        if code is None:
            raise UnknownLabel(dimension, str(text), where)
        return code

    def codes(self, dimension: str, include_legacy: bool = False) -> list[Code]:
        """The codes of a dimension in codebook order (legacy ones only on request)."""
        self._check_dimension(dimension)
        return [c for c in self._codes[dimension] if include_legacy or not c.legacy]

    def categories(self, dimension: str, include_legacy: bool = False) -> list[Category]:
        self._check_dimension(dimension)
        return [c for c in self._categories[dimension] if include_legacy or not c.legacy]

    def get(self, code: str, dimension: str | None = None) -> Code:
        """The Code of ``code``. ``unknown`` is both a symptom and a stage: pass ``dimension`` to choose (default:
        the first dimension that has it, in symptom, root_cause, stage order)."""
        dims = (dimension,) if dimension else DIMENSIONS
        for dim in dims:
            self._check_dimension(dim)
            if code in self._by_code[dim]:
                return self._by_code[dim][code]
        where = f" in dimension {dimension}" if dimension else ""
        raise PPMinerError(f"{self.path}: no code {code!r}{where}")

    def category(self, code: str) -> str:
        return self.get(code).category

    def name(self, code: str) -> str:
        return self.get(code).name

    def category_name(self, category_code: str) -> str:
        for dim in DIMENSIONS:
            if category_code in self._category_by_code[dim]:
                return self._category_by_code[dim][category_code].name
        raise PPMinerError(f"{self.path}: no category {category_code!r}")

    def notes_for(self, code: str) -> list[Note]:
        """The disambiguation notes that name ``code``, in file order."""
        return [n for n in self.notes if code in n.codes]

    def keys_for(self, code: str, dimension: str | None = None) -> tuple[str, ...]:
        """The key presses that pick ``code`` in its dimension's picker: (category key,) for a single-code
        category, else (category key, code key)."""
        c = self.get(code, dimension)
        cat = self._category_by_code[c.dimension][c.category]
        siblings = [x for x in self._codes[c.dimension] if x.category == c.category]
        return (cat.key,) if len(siblings) == 1 else (cat.key, c.key)

    def by_keys(self, dimension: str, keys: str) -> str | None:
        """The offered code picked by the key sequence ``keys`` (e.g. "t1", "u"), or None."""
        for code in self.codes(dimension):
            if "".join(self.keys_for(code.code, dimension)) == keys:
                return code.code
        return None


def code_spellings(code: Code) -> list[str]:
    """Every text that resolves to ``code``: the code, its name, "<Category name>: <name>" and its aliases."""
    return [code.code, code.name, f"{code.category_name}: {code.name}", *code.aliases]


# --- loading -----------------------------------------------------------------------------------------------


class _Mapping(dict):
    """A YAML mapping that remembers its line (1-based) and, once merged from another file, that file."""

    line = 0
    source: Path | None = None


class _StrictLoader(yaml.SafeLoader):
    """SafeLoader that rejects duplicate mapping keys instead of silently keeping the last one."""


def _construct_mapping(loader: _StrictLoader, node: yaml.MappingNode) -> _Mapping:
    loader.flatten_mapping(node)
    result = _Mapping()
    result.line = node.start_mark.line + 1
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if key in result:
            raise _DuplicateKey(key, key_node.start_mark.line + 1)
        result[key] = loader.construct_object(value_node, deep=True)
    return result


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


class _DuplicateKey(Exception):
    def __init__(self, key, line: int):
        self.key, self.line = key, line


def _text(entry: dict, field: str, where: str, required: bool = True) -> str:
    value = entry.get(field)
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise PPMinerError(f"{where}: missing {field!r}")
        return ""
    if not isinstance(value, (str, int)) or isinstance(value, bool):
        raise PPMinerError(f"{where}: {field!r} must be text, not {type(value).__name__}")
    return str(value).strip()


def _list(value, where: str) -> list:
    if value is None:
        return []
    if not isinstance(value, list):
        raise PPMinerError(f"{where}: expected a list, got {type(value).__name__}")
    return value


def _mapping(value, where: str) -> dict:
    if not isinstance(value, dict):
        raise PPMinerError(f"{where}: expected a mapping, got {type(value).__name__}")
    return value


def _line(path: Path, entry) -> str:
    return f"{getattr(entry, 'source', None) or path}:{getattr(entry, 'line', 0) or '?'}"


def _parse_dimension(path: Path, dim: str, raw) -> tuple[list[Category], list[Code]]:
    categories: list[Category] = []
    codes: list[Code] = []
    cat_keys: dict[str, str] = {}
    spelled: dict[str, tuple[str, str]] = {}  # normalised spelling -> (code, where)
    for cat_entry in _list(raw, f"{path}: {dim}"):
        where = _line(path, cat_entry)
        cat_entry = _mapping(cat_entry, f"{where}: {dim} category")
        cat_code = _text(cat_entry, "category", f"{where}: {dim} category")
        cwhere = f"{where}: {dim} category {cat_code!r}"
        cat = Category(
            code=cat_code,
            name=_text(cat_entry, "name", cwhere),
            definition=_text(cat_entry, "definition", cwhere),
            key=_text(cat_entry, "key", cwhere),
            legacy=bool(cat_entry.get("legacy", False)),
            dimension=dim,
        )
        if any(c.code == cat_code for c in categories):
            raise PPMinerError(f"{cwhere}: duplicate category")
        if len(cat.key) != 1:
            raise PPMinerError(f"{cwhere}: key {cat.key!r} must be a single character")
        if cat.key in cat_keys:
            raise PPMinerError(f"{cwhere}: key {cat.key!r} already used by category {cat_keys[cat.key]!r}")
        cat_keys[cat.key] = cat_code
        categories.append(cat)
        entries = _list(cat_entry.get("codes"), f"{cwhere}: codes")
        if not entries:
            raise PPMinerError(f"{cwhere}: no codes")
        code_keys: dict[str, str] = {}
        for code_entry in entries:
            ewhere = _line(path, code_entry)
            code_entry = _mapping(code_entry, f"{ewhere}: {dim} code")
            code_name = _text(code_entry, "code", f"{ewhere}: {dim} code")
            kwhere = f"{ewhere}: {dim} code {code_name!r}"
            expected_category = code_name.split(".", 1)[0]
            if expected_category != cat_code:
                raise PPMinerError(f"{kwhere}: code must start with its category {cat_code!r}")
            if any(c.code == code_name for c in codes):
                raise PPMinerError(f"{kwhere}: duplicate code")
            key = _text(code_entry, "key", kwhere, required=len(entries) > 1) or cat.key
            if len(key) != 1:
                raise PPMinerError(f"{kwhere}: key {key!r} must be a single character")
            if key in code_keys:
                raise PPMinerError(f"{kwhere}: key {key!r} already used by {code_keys[key]!r}")
            code_keys[key] = code_name
            aliases = _list(code_entry.get("aliases"), f"{kwhere}: aliases")
            for alias in aliases:
                if not isinstance(alias, str) or not alias.strip():
                    raise PPMinerError(f"{kwhere}: alias {alias!r} must be non-empty text")
            code = Code(
                code=code_name,
                name=_text(code_entry, "name", kwhere),
                category=cat_code,
                category_name=cat.name,
                definition=_text(code_entry, "definition", kwhere),
                key=key,
                aliases=tuple(a.strip() for a in aliases),
                legacy=bool(code_entry.get("legacy", cat.legacy)),
                dimension=dim,
            )
            for text in code_spellings(code):
                norm = normalize(text)
                other = spelled.get(norm)
                if other and other[0] != code_name:
                    raise PPMinerError(
                        f"{kwhere}: alias {text!r} already belongs to {other[0]!r} ({other[1]})"
                    )
                spelled.setdefault(norm, (code_name, ewhere))
            codes.append(code)
    if not codes:
        raise PPMinerError(f"{path}: dimension {dim!r} has no codes")
    return categories, codes


def _load_raw(path: Path, text: str) -> dict:
    try:
        raw = yaml.load(text, Loader=_StrictLoader)  # noqa: S506 - a SafeLoader subclass
    except _DuplicateKey as exc:
        raise PPMinerError(f"{path}:{exc.line}: duplicate key {exc.key!r}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark else str(path)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise PPMinerError(f"{where}: not valid YAML: {problem}") from None
    raw = _mapping(raw, f"{path}: top level")
    unknown = sorted(set(raw) - {*DIMENSIONS, "notes", "extends"})
    if unknown:
        raise PPMinerError(
            f"{path}: unknown top-level entries {unknown}; expected {[*DIMENSIONS, 'notes', 'extends']}"
        )
    return raw


def _tag_source(node, source: Path) -> None:
    """Mark every mapping read from ``source`` so that messages about it name that file."""
    if isinstance(node, _Mapping):
        node.source = source
    for child in node.values() if isinstance(node, dict) else node if isinstance(node, list) else ():
        _tag_source(child, source)


def _with_base(path: Path, raw: dict, seen: tuple[Path, ...]) -> dict:
    """``raw`` merged onto the codebook it extends (recursively): its new categories appended, its codes added to
    the base's categories of the same name, its notes appended. Without ``extends``: ``raw`` as it is."""
    extends = raw.get("extends")
    if extends is None:
        return raw
    if not isinstance(extends, str) or not extends.strip():
        raise PPMinerError(f"{path}: extends must name a codebook file, not {extends!r}")
    base_path = (path.parent / extends).resolve()
    if base_path in seen:
        raise PPMinerError(f"{path}: extends {extends!r} leads back to {base_path} (a cycle)")
    try:
        base_text = base_path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PPMinerError(f"{path}: extends {extends!r}: cannot read {base_path}: {exc}") from None
    base = _with_base(base_path, _load_raw(base_path, base_text), (*seen, base_path))
    _tag_source(base, base_path)
    merged = {key: value for key, value in base.items() if key != "extends"}
    for dim in DIMENSIONS:
        categories = list(_list(merged.get(dim), f"{base_path}: {dim}"))  # freshly read: ours to change
        by_code = {c.get("category"): c for c in categories if isinstance(c, dict)}
        for entry in _list(raw.get(dim), f"{path}: {dim}"):
            where = _line(path, entry)
            entry = _mapping(entry, f"{where}: {dim} category")
            target = by_code.get(entry.get("category"))
            if target is None:
                categories.append(entry)
                continue
            changed = sorted(set(entry) - {"category", "codes"})
            if changed:
                raise PPMinerError(
                    f"{where}: {dim} category {entry['category']!r} belongs to {base_path.name}: "
                    f"an extension may only add codes to it, not set {changed}"
                )
            target["codes"] = [
                *_list(target.get("codes"), dim),
                *_list(entry.get("codes"), f"{where}: codes"),
            ]
        merged[dim] = categories
    merged["notes"] = [*_list(base.get("notes"), "notes"), *_list(raw.get("notes"), f"{path}: notes")]
    return merged


def parse_codebook(path: Path, text: str) -> Codebook:
    """Build a Codebook from YAML text (and the codebook it ``extends``, read from disk); ``path`` names the file
    in messages and anchors ``extends``."""
    raw = _with_base(Path(path), _load_raw(path, text), (Path(path).resolve(),))
    categories, codes = {}, {}
    for dim in DIMENSIONS:
        if dim not in raw:
            raise PPMinerError(f"{path}: missing dimension {dim!r}")
        categories[dim], codes[dim] = _parse_dimension(path, dim, raw[dim])
    known = {c.code for dim in DIMENSIONS for c in codes[dim]}
    notes = []
    for entry in _list(raw.get("notes"), f"{path}: notes"):
        where = f"{_line(path, entry)}: note"
        entry = _mapping(entry, where)
        note_codes = tuple(str(c) for c in _list(entry.get("codes"), f"{where} codes"))
        if len(note_codes) < 2:
            raise PPMinerError(f"{where}: a note must name at least two codes")
        missing = [c for c in note_codes if c not in known]
        if missing:
            raise PPMinerError(f"{where}: unknown codes {missing}")
        notes.append(Note(codes=note_codes, text=_text(entry, "text", where)))
    return Codebook(path, categories, codes, notes)


_cache: dict[tuple[Path, int, int], Codebook] = {}


def load_codebook(path: str | Path | None = None) -> Codebook:
    """Load and validate the codebook (default: the study config's ``codebook_file``); cached per file version."""
    if path is None:
        from core.config import load_config

        path = load_config().codebook_file
    path = Path(path)
    try:
        stat = path.stat()
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PPMinerError(f"codebook file not found: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise PPMinerError(f"{path}: cannot read codebook: {exc}") from None
    key = (path.resolve(), stat.st_mtime_ns, stat.st_size)
    if key not in _cache:
        _cache[key] = parse_codebook(path, text)
    return _cache[key]
