"""What ppcheck's speed-ups keep to: caches that never carry one module's answers into another, and a module's
tree freed by reference counts once it is checked (no cycle holds it for the garbage collector)."""

from __future__ import annotations

import ast
import gc
import shutil
from pathlib import Path

from checker import check_paths, check_source
from checker.rules import torch_common
from checker.torch_project.common import parse_index, reusing_indexes
from checker.walker import check_file

CASES = Path(__file__).parent / "torch_cases"
# (a training loop whose reads, moves and guards send the rules through the parent and path searches)
_POSITIVES = sorted(CASES.glob("pp5*_positive*.py"))


def _found(source: str, path: str) -> list[tuple[str, int]]:
    findings, skipped = check_source(source, path)
    assert not skipped, skipped
    return sorted((f.rule, f.line) for f in findings)


def test_the_torch_facts_are_dropped_once_a_module_is_checked():
    check_source(_POSITIVES[0].read_text(), "train.py")
    assert torch_common._CACHE["index"] is None and torch_common._CACHE["facts"] is None


def test_two_sources_at_one_path_give_their_own_findings():
    first, second = _POSITIVES[0].read_text(), _POSITIVES[1].read_text()
    alone = [_found(first, "a.py"), _found(second, "b.py")]
    assert alone[0] != alone[1]
    assert [_found(first, "train.py"), _found(second, "train.py")] == alone
    assert [_found(second, "train.py"), _found(first, "train.py")] == alone[::-1]


def test_checking_leaves_no_cycle_holding_a_tree(tmp_path):
    """Every node of a checked module is freed by reference counts: a cycle reaching one (a closure that calls
    itself and holds the nodes it searched) would keep it for the collector, whose walks over such trees were
    a fifth of a run's time."""
    paths = []
    for n, case in enumerate(_POSITIVES[:40]):
        paths.append(tmp_path / f"train_{n}.py")
        paths[-1].write_text(case.read_text())
    collecting = gc.isenabled()
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for path in paths:
            check_file(str(path))
        gc.collect()
        held = [o for o in gc.garbage if isinstance(o, ast.AST)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert held == []
    assert gc.isenabled() == collecting  # (the pause around each file is lifted)


PROJECTS = CASES / "projects"


def _project_findings(root: Path) -> list[tuple[str, int, str]]:
    findings, skipped, _ = check_paths([str(root)])
    assert not skipped, skipped
    return sorted((str(Path(f.path).relative_to(root)), f.line, f.rule) for f in findings)


def test_a_project_checked_again_after_its_files_change_gives_the_new_findings(tmp_path):
    """The indexes kept for the project passes live for one run: the same paths with other texts (a
    project whose loop reads a loss through a helper, then the same files without that read) give each
    text's own findings, in either order."""
    root = tmp_path / "project"
    runs = []
    for name in ("reader_helper", "reader_helper_clean", "reader_helper"):
        shutil.rmtree(root, ignore_errors=True)
        shutil.copytree(PROJECTS / name, root)
        runs.append(_project_findings(root))
    assert ("train.py", 25, "PP501") in runs[0]
    assert runs[1] != runs[0] and runs[2] == runs[0]


def test_parse_index_answers_from_the_kept_indexes_only_inside_the_block():
    """Inside the block each text is parsed once, its index (or None) kept under the text itself, and each
    taker starts from fresh TorchFacts; outside it nothing is kept."""
    text = (CASES / "pp501_positive.py").read_text()
    first = parse_index(text)
    kept = {text: first}
    with reusing_indexes(kept):
        torch_common.facts(first)  # (a pass's rules ran on it)
        assert parse_index(text) is first
        assert torch_common._CACHE["index"] is None  # (the next caller starts from fresh facts)
        other = text.replace("import torch", "import torch  # a comment", 1)
        parsed = parse_index(other)
        assert parsed is not None and kept[other] is parsed  # (parsed once, kept for the next pass)
        torch_common.facts(parsed)
        assert parse_index(other) is parsed and torch_common._CACHE["index"] is None
        assert parse_index("def broken(:\n") is None and kept["def broken(:\n"] is None
        assert parse_index("def broken(:\n") is None
        plain = "import os\n"  # (kept whole; `torch_only` is each caller's question)
        assert parse_index(plain) is None and parse_index(plain, torch_only=False) is kept[plain]
    assert parse_index(text) is not first  # (outside the block: parsed again)
    assert parse_index(text).tree.body[0].lineno == first.tree.body[0].lineno


def test_the_per_module_pass_keeps_the_indexes_of_modules_that_train_only(tmp_path):
    trains = tmp_path / "train.py"
    trains.write_text(
        "import torch\n\ndef step(model, x, opt):\n    model(x).sum().backward()\n    opt.step()\n"
    )
    plain = tmp_path / "layers.py"
    plain.write_text("import torch\n\nclass Net(torch.nn.Module):\n    pass\n")
    sources, indexes = {}, {}
    for path in (trains, plain):
        check_file(str(path), sources=sources, indexes=indexes)
    assert list(indexes) == [sources[str(trains)]]
    assert indexes[sources[str(trains)]].module_functions.keys() == {"step"}


def test_a_pool_gives_what_one_process_gives(tmp_path):
    """With --jobs 2 this process checks the modules that train (and keeps their indexes) while the pool
    checks the others and sends their DataLoader facts back: the same findings and skipped files, in the
    same order, as one process. (Projects whose modules train and make loaders, one file that does not
    parse.)"""
    for name in ("reader_helper", "held_loader", "stepped_methods", "factory"):
        shutil.copytree(PROJECTS / name, tmp_path / name)
    (tmp_path / "broken.py").write_text("import torch\ndef f(:\n")
    one = check_paths([str(tmp_path)])
    two = check_paths([str(tmp_path)], jobs=2)
    assert one == two
    assert one[1] and {f.rule for f in one[0]} >= {"PP501", "PP505", "PP506"}


_TWO_LOOPS = """
import torch
from utils import to_scalar


def train(model, loader, optimizer, epochs):
    model = model.cuda()
    for epoch in range(epochs):
        for x, y in loader:
            loss = model(x.cuda(), y.cuda())
            loss.backward()
            optimizer.step()
            total = to_scalar(loss)
    for x, y in loader:
        loss = model(x.cuda(), y.cuda())
        loss.backward()
        optimizer.step()
"""


def test_the_reader_pass_judges_only_the_loops_that_call_a_reader(monkeypatch):
    """torch-fix67: `check_host_sync(readers=...)` (reads' `_reader_loops`) skips the training loops that call
    none of the readers, which only the module's own pass can report, and still reports the one that does."""
    from checker.rules import torch_sync

    judged = []
    logic = torch_sync.logic_reads_host
    monkeypatch.setattr(
        torch_sync, "logic_reads_host", lambda loop, index: judged.append(loop.lineno) or logic(loop, index)
    )
    index = parse_index(_TWO_LOOPS)
    found = list(torch_sync.check_host_sync(index, readers=frozenset({"to_scalar"})))
    assert [f.line for f in found] == [13]
    assert 14 not in judged and 9 in judged


_TWO_BARS = """
import torch
from torch.utils.data import DataLoader
from tqdm import tqdm

def train(model, train_loader):
    with tqdm(train_loader) as bar:
        for x in bar:
            model(x.cuda()).backward()

def evaluate(model, val_loader):
    with tqdm(enumerate(val_loader)) as bar:
        for i, x in bar:
            model(x.cuda())
"""


def test_the_with_bindings_are_kept_per_def():
    """torch-speed10: `_entered_as` answers from a table made once per def; each def's `bar` is its own."""
    from checker.module import ModuleIndex
    from checker.rules.torch_data import _entered_as

    index = ModuleIndex.build(ast.parse(_TWO_BARS))
    train, evaluate = index.module_functions["train"], index.module_functions["evaluate"]
    try:
        for _ in range(2):
            assert [ast.unparse(e) for e in _entered_as("bar", train, index)] == ["tqdm(train_loader)"]
            assert [ast.unparse(e) for e in _entered_as("bar", evaluate, index)] == [
                "tqdm(enumerate(val_loader))"
            ]
            assert _entered_as("x", train, index) == []
    finally:
        torch_common.forget_facts()


_TWO_LOADERS = """
import torch
from torch.utils.data import DataLoader
from datasets import ImageFolderDataset

samples = [torch.zeros(3)] * 8
small = DataLoader(samples, batch_size=4)
images = DataLoader(ImageFolderDataset("data/"), batch_size=4)
"""


def test_the_small_batch_answers_are_kept_per_loader_and_per_module():
    """torch-speed10: `_small_batches` (and the module statements `_last_binding` reads) are kept in the
    module's TorchFacts, keyed on the loader call: each loader and each module gets its own answer, in any
    order of asking."""
    from checker.module import ModuleIndex
    from checker.rules.torch_data import _module_statements, little_to_pin, pinned_copy_negligible

    def loaders(index):
        return [s.node for s in index.calls if getattr(s.node.func, "id", None) == "DataLoader"]

    try:
        index = ModuleIndex.build(ast.parse(_TWO_LOADERS))
        small, images = loaders(index)
        assert little_to_pin(index, small) and not little_to_pin(index, images)
        assert pinned_copy_negligible(index, small) and not pinned_copy_negligible(index, images)
        other = ModuleIndex.build(ast.parse(_TWO_LOADERS.replace("[torch.zeros(3)] * 8", "load()")))
        small_there, _ = loaders(other)
        assert not little_to_pin(other, small_there)
        assert little_to_pin(index, small)
        assert len(_module_statements(other)) == len(other.tree.body)
    finally:
        torch_common.forget_facts()


def test_a_text_ruled_out_of_tensorflow_never_resolves_a_name_to_it():
    """`may_use_tensorflow` is a sieve before a parse: False must mean the resolver finds no TensorFlow."""
    from checker.module import ModuleIndex
    from checker.resolve import may_use_tensorflow

    sources = [
        "import torch\nx = torch.zeros(3)\n",
        "import tensorflow as tf\nx = tf.zeros(3)\n",
        "from keras.models import Model\n",
        "import tf_keras\n",
        "from tensorflow.compat import v1 as tf\n",
        "from model.net import *\ny = tf.zeros(3)\n",
        "from model.net import *\ny = torch.zeros(3)\n",
        "import numpy as np\ntf = np\ny = tf.zeros(3)\n",
    ]
    for source in sources:
        uses = ModuleIndex.build(ast.parse(source)).resolver.uses_tensorflow
        assert may_use_tensorflow(source) or not uses, source
    assert not may_use_tensorflow(sources[0]) and not may_use_tensorflow(sources[6].replace("*", "a"))
    assert (
        may_use_tensorflow(sources[5]) and ModuleIndex.build(ast.parse(sources[5])).resolver.uses_tensorflow
    )


def test_star_and_tf_inside_words_do_not_make_a_text_tensorflow():
    """`*` and `tf` in most PyTorch modules (`a * b`, `getfloat`, `stft`) are no `tf` after a `*` import: the
    sieve says no, so the TF project pass parses none of them (hold-out 36: 46 texts passed it, 3 now); the
    spellings of a star import and of the name `tf` that the resolver reads still pass."""
    from checker.module import ModuleIndex
    from checker.resolve import may_use_tensorflow

    ruled_out = [
        "import torch\ny = 2 * torch.stft(x, 4)\n",
        "from configparser import ConfigParser\nv = ConfigParser().getfloat('a', 'b') * 2\n",
        "from model.net import *\ny = torch.stft(x, 4)\n",
        "import torch\ntf = 1\ny = tf * 2\n",
    ]
    kept = [
        "from model.net import *\ny = tf.zeros(3)\n",
        "from model.net import*\ny = tf.zeros(3)\n",
        "from model.net import \\\n    *\ny = tf.zeros(3)\n",
        "from .net import *\ny = (tf\n     .zeros(3))\n",
        "from model.net import *\n# é\ny = getfloat() * 2\n",  # (not ASCII: the loose sieve)
    ]
    for source in ruled_out:
        assert not may_use_tensorflow(source), source
        assert not ModuleIndex.build(ast.parse(source)).resolver.uses_tensorflow
    for source in kept[:4]:
        assert may_use_tensorflow(source) and ModuleIndex.build(ast.parse(source)).resolver.uses_tensorflow
    assert may_use_tensorflow(kept[4])


_FACTORY = """import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset


class Frames(Dataset):
    def __init__(self, files):
        self.files = files

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        return torch.from_numpy(Image.open(self.files[i]))


def create_dataloader(files):
    return DataLoader(Frames(files), batch_size=8, shuffle=True, num_workers=0)
"""
_TRAINS_ON_IT = """import torch
from data import create_dataloader

model = torch.nn.Linear(8, 2).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loader = create_dataloader(["a.png"])
for epoch in range(10):
    for x in loader:
        x = x.cuda()
        loss = model(x).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
"""


def test_the_workerless_factory_is_judged_from_the_module_pass_without_a_second_parse(tmp_path, monkeypatch):
    """PP504's project pass takes a factory module's workerless loaders from its `module_facts`: the
    DataLoader module (which trains nothing, so the module pass keeps no index of it) is not parsed again."""
    from checker.torch_project import common

    (tmp_path / "data.py").write_text(_FACTORY)
    (tmp_path / "train.py").write_text(_TRAINS_ON_IT)
    parsed = []
    real = common._parsed
    monkeypatch.setattr(common, "_parsed", lambda text: parsed.append(text) or real(text))
    findings, _, _ = check_paths([str(tmp_path)])
    assert ("data.py", 18, "PP504") in {(Path(f.path).name, f.line, f.rule) for f in findings}
    assert _FACTORY not in parsed


def test_margin_starts_are_the_lines_a_margin_regex_finds():
    """`margin_starts` (one search for newlines) gives what `^\\S` under re.MULTILINE gives."""
    import re

    from checker.torch_project.common import margin_starts

    texts = [
        "",
        "\n",
        "import torch\n\n\ndef f(x):\n    return x\n",
        "  # indented first line\nclass A:\n\tdef g(self):\n\t\tpass\n@deco\ndef h(): ...",
        "x = 1\r\ny = 2\r\n\r\n z = 3\n\xa0w = 4\nv",
        "\n\n\nlast",
    ]
    for text in texts:
        assert margin_starts(text) == [m.start() for m in re.finditer(r"^\S", text, re.MULTILINE)], text


def test_the_def_table_names_every_text_a_substring_search_finds():
    from checker.project_files import defining_texts

    texts = {
        "a.py": "def build_recorder(cfg):\n    return Recorder(cfg)\nasync def make_x(y): pass\n",
        "b.py": "class A:\n    def build_recorder(self):\n        pass\nundef build_recorder(\n",
        "c.py": "def def build_x(a): pass\ndef  spaced(a): pass\ndef build_recorderx(a): pass\n",
        "d.py": "x = 'def get_é(1)'\n",
    }
    table = defining_texts(texts)
    words = {"build_recorder", "make_x", "build_x", "spaced", "build_recorderx", "get_é", "get_", "def"}
    for name in words:
        expected = [t for t in texts.values() if f"def {name}(" in t]
        assert table.get(name, []) == expected, name


def test_a_decoder_callee_is_judged_as_the_full_pattern_judges_it():
    from checker.rules.torch_data import _DECODERS, _decoder_call

    callees = [
        "Image.open",
        "PIL.Image.open",
        "np.load",
        "numpy.load",
        "torch.load",
        "cv2.imread",
        "imageio.v2.imread",
        "imageio.imread",
        "io.imread",
        "skimage.io.imread",
        "sf.read",
        "f.read",
        "read_image",
        "pil_loader",
        "default_loader",
        "open",
        "load",
        "self.loader",
        "loaders[0]",
        "get()",
        "Image.open.__call__",
    ]
    for text in callees:
        func = ast.parse(text, mode="eval").body
        assert _decoder_call(func) == bool(_DECODERS.match(ast.unparse(func))), text


def test_the_decoding_defs_among_names_are_those_of_all_the_decoding_defs():
    """(torch-speed13) The PP505 project pass asks only of the defs a data set calls: the answer is the
    module's decoding defs less the others, as it was when every def was walked."""
    from checker.rules.torch_data import decoding_defs

    index = parse_index(
        "import cv2\nimport numpy as np\nfrom PIL import Image\n\n\n"
        "def load_img(path):\n    return cv2.imread(path)\n\n\n"
        "def read_npy(path):\n    return np.load(path)\n\n\n"
        "def pil(path):\n    with open(path, 'rb') as f:\n        return Image.open(f).convert('RGB')\n\n\n"
        "def scale(img):\n    return img / 255.0\n",
        torch_only=False,
    )
    every = decoding_defs(index)
    assert every == {"load_img", "read_npy", "pil"}
    for among in (set(), {"load_img"}, {"scale", "pil"}, {"load_img", "read_npy", "pil", "scale", "other"}):
        assert decoding_defs(index, among) == every & among, among


def test_the_workerless_facts_are_worked_out_only_for_a_run_with_pp504(tmp_path, monkeypatch):
    """`module_facts` does not ask for PP504's factory loaders (`_workerless_entries`) when PP504 is not
    selected (nothing reads them), and a run with neither PP504 nor PP505 works out no loader facts at all."""
    from checker.torch_project import loaders

    (tmp_path / "data.py").write_text(_FACTORY)
    path = str(tmp_path / "data.py")
    asked = []
    real = loaders._workerless_entries
    monkeypatch.setattr(loaders, "_workerless_entries", lambda index: asked.append(1) or real(index))
    facts = {}
    for codes in (None, ("PP505",), ("PP504",), ("PP501",)):
        known: dict = {}
        asked.clear()
        check_file(path, codes, known=known)
        facts[codes] = (known.get(path), len(asked))
    assert facts[None][1] == 1 and facts[("PP504",)][1] == 1
    assert facts[("PP505",)][1] == 0 and facts[("PP505",)][0].makers == facts[None][0].makers
    assert facts[("PP501",)] == (None, 0)


def test_workerless_facts_not_worked_out_are_none_and_worked_out_again_when_read():
    """(review 24 item 19) `module_facts(workers=False)` leaves PP504's `workerless` None, not [] ("none"):
    the project pass given such facts (made by a run without PP504) works them out from the text again
    and still reports the factory's loaders, as it does from facts made with PP504."""
    from checker.torch_project import loaders

    root = Path(__file__).parent / "torch_cases" / "projects" / "workerless_factory"
    texts = {str(p): p.read_text() for p in sorted(root.rglob("*.py"))}
    factory = str(root / "data" / "loaders.py")
    lines = {}
    for workers in (True, False):
        facts = loaders.module_facts(parse_index(texts[factory]), workers=workers)
        assert (facts.workerless is None) is not workers
        lines[workers] = [f.line for f in loaders._workerless_in_project(texts, [], {factory: facts})]
    assert lines[True] == lines[False] == [11, 22]


_DYNAMIC_TEXTS = [
    "",
    "m = importlib.import_module(name)\n",
    "m = importlib.import_module (name)\n",
    "x = my_import_module(name)\n",
    "cls = __import__(name)\n",
    "cls = a__import__(name)\n",
    "obj = import_from_string('a.B')\n",
    "obj = get_obj_from_str(cfg.target)\n",
    "obj = _get_obj_from_str(cfg.target)\n",
    "model.eval()\n",
    "y = eval('1 + 2')\n",
    "y = (eval(s))\n",
    "y = do_eval(s)\n",
    "y = é_eval(s)\nz = 1\n",
    "eval(s)\n",
    "model.eval()\nimportlib.import_module(n)\n",
]


def test_a_dynamic_import_is_found_where_the_bounded_pattern_finds_one():
    """`_imports_by_name` (the words scanned for, then the boundaries tried) answers as `_DYNAMIC_IMPORT`'s
    search, whose leading `\\b` made re try it at every character."""
    from checker.torch_project.factories import _DYNAMIC_IMPORT, _imports_by_name

    for text in _DYNAMIC_TEXTS:
        assert _imports_by_name(text) == bool(_DYNAMIC_IMPORT.search(text)), text


def test_a_reach_is_found_where_the_one_pattern_finds_one():
    """`reaches` (three searches) answers as the one pattern it replaces, whose `\\w\\.name\\s*\\(` branch re tried
    at every character, and (torch-fix135) also for a name on a continuation line of a parenthesised import."""
    import re

    from checker.torch_project.common import reaches

    texts = [
        "from data import get_loader\n",
        "from data import (\n    get_loader,\n)\n",
        "import data\nloader = data.get_loader (cfg)\n",
        ".get_loader(cfg)\n",
        "x = (.get_loader(cfg))\n",
        "from utils import *\n",
        "  from utils import *\n",
        "loader = get_loader(cfg)\n",
        "import data.get_loaders\n",
        "é.get_loader(cfg)\n",
    ]
    for text in texts:
        for name in ("get_loader", "utils", "data"):
            old = rf"import[^\n]*\b{name}\b|\w\.{name}\s*\(|^from\s+[\w.]+\s+import\s+\*|import \([^)]*\b{name}\b"
            assert reaches(text, name) == bool(re.search(old, text, re.M)), (text, name)


def test_a_dotted_name_is_every_name_of_the_chain():
    from checker.module import dotted_name

    tree = ast.parse("tf.test.TestCase\nx\nf().y\nself.a.b.c\n")
    assert [dotted_name(s.value) for s in tree.body] == ["tf.test.TestCase", "x", None, "self.a.b.c"]


def test_a_small_run_asked_for_a_pool_checks_in_one_process(tmp_path, monkeypatch, capsys):
    """torch-speed15: `--jobs 2` on a repository under POOL_FLOOR bytes (400-1,800 lines: a pool of two added
    0.03-0.06 CPU s and saved no time) checks in this process; check_paths still pools when asked with no
    floor (the library's default), and a run that reaches the floor pools."""
    from checker import cli, walker

    (tmp_path / "train.py").write_text(
        "import torch\n\ndef step(model, x, opt):\n    model(x).sum().backward()\n    opt.step()\n"
    )
    (tmp_path / "layers.py").write_text("import torch\n\nclass Net(torch.nn.Module):\n    pass\n")
    pooled = []
    real = walker._pooled
    monkeypatch.setattr(
        walker, "_pooled", lambda files, *rest: pooled.append(len(files)) or real(files, *rest)
    )
    assert cli.main([str(tmp_path), "--jobs", "2", "--exit-zero"]) == 0
    assert pooled == []
    walker.check_paths([str(tmp_path)], jobs=2)
    assert pooled == [2]
    monkeypatch.setattr(cli, "POOL_FLOOR", 100)
    assert cli.main([str(tmp_path), "--jobs", "2", "--exit-zero"]) == 0
    assert pooled == [2, 2]
    capsys.readouterr()


def _two_projects(root: Path) -> list[str]:
    """Two repositories, each a training module that imports a data module, as `ppcheck repo_a repo_b`."""
    folders = []
    for name in ("repo_a", "repo_b"):
        folder = root / name
        folder.mkdir()
        (folder / "train.py").write_text(
            "import torch\nfrom data import make_loader\n\n"
            "def train(model, opt):\n    for x, y in make_loader():\n        x = x.cuda()\n"
            "        loss = model(x).sum()\n        loss.backward()\n        opt.step()\n        print(loss.item())\n"
        )
        (folder / "data.py").write_text(
            "import torch\nfrom torch.utils.data import DataLoader\n\n"
            "def make_loader():\n    return DataLoader(list(range(8)), batch_size=2)\n"
        )
        folders.append(str(folder))
    return folders


def test_a_run_in_one_process_passes_over_one_project_at_a_time(tmp_path, monkeypatch):
    """torch-speed16: in one process each PATH argument is checked and then read by the project passes
    before the next one is checked, so only its kept indexes are alive (hold-out 36 per repository: peak
    memory 128 -> 58 MB); its findings are those of a run that passes over both projects at once (a pool's)."""
    from checker import walker

    folders = _two_projects(tmp_path)
    seen = []
    real = walker.across_modules

    def recording(findings, projects, codes, sources, known, indexes):
        seen.append(([len(p) for p in projects], sorted(sources), len(indexes)))
        return real(findings, projects, codes, sources, known, indexes)

    monkeypatch.setattr(walker, "across_modules", recording)
    alone = check_paths(folders)
    assert [s[0] for s in seen] == [[2], [2]]
    assert [len(s[1]) for s in seen] == [2, 2] and seen[0][1] != seen[1][1]
    assert all(s[2] >= 2 for s in seen)  # (both modules' indexes: the data module's fits the room)
    together = check_paths(folders, jobs=2)
    assert seen[-1][0] == [2, 2]
    assert alone[0] == together[0] and alone[0]


def test_the_passes_of_a_project_read_only_its_own_findings(tmp_path, monkeypatch):
    """reread-graph25: in one process the project passes of each PATH argument read the findings of its own
    files, not again those of every project checked before it; the run's findings are the pool's."""
    from checker import walker

    folders = _two_projects(tmp_path)
    seen = []
    real = walker.across_modules

    def recording(findings, projects, codes, sources, known, indexes):
        seen.append(sorted({f.path.split("/")[-2] for f in findings}))
        return real(findings, projects, codes, sources, known, indexes)

    monkeypatch.setattr(walker, "across_modules", recording)
    alone = check_paths(folders)
    assert seen == [["repo_a"], ["repo_b"]]
    assert alone[0] == check_paths(folders, jobs=2)[0] and alone[0]


def test_projects_that_share_a_file_are_passed_over_together(tmp_path):
    """A file named by two PATH arguments (`repo repo/train.py`) is checked once per argument, as before;
    the passes then see both projects at once, as they did."""
    from checker import walker

    folder = _two_projects(tmp_path)[0]
    projects = [[f"{folder}/data.py", f"{folder}/train.py"], [f"{folder}/train.py"]]
    assert walker._batches(projects) == [projects]
    assert walker._batches(projects[:1]) == [projects[:1]]


def test_a_module_that_does_not_train_is_kept_while_there_is_room():
    """The per-module pass keeps every training module's index (`parsed_again`), and others only while the
    project's `KeptIndexes` has room for their source."""
    from checker import walker

    trains, data = "loss.backward()\n", "x = 1\n" * 10
    kept = walker.KeptIndexes(room=len(data) + 5)
    assert walker._keeps(kept, data) and kept.room == 5
    assert not walker._keeps(kept, data) and kept.room == 5
    assert walker._keeps(kept, trains) and kept.room == 5
    assert not walker._keeps({}, data)


def test_the_star_guess_reads_only_names_bound_nowhere():
    """The resolver's star guess (`from utils import *`, then `torch.zeros`/`tf.zeros` bound nowhere) reads a
    name for the star's only when nothing in the module binds it (an assignment, a def, a class, a parameter, a
    loop target, an import alias)."""
    from checker.resolve import Resolver

    guessed = {
        "from utils import *\ny = torch.zeros(3)\n": {"torch": "torch"},
        "from utils import *\ny = nn.Linear(2, 2)\nz = torch.ones(1)\n": {"torch": "torch", "nn": "torch.nn"},
        "from utils import *\ntorch = load()\ny = torch.zeros(3)\n": {},
        "from utils import *\ndef f(tf):\n    return tf.zeros(3)\n": {},
        "from utils import *\nimport numpy as tf\ny = tf.zeros(3)\n": {"tf": "numpy"},
        "from utils import *\nclass torch:\n    pass\ny = torch.zeros(3)\n": {},
        "from utils import *\nfor tf in xs:\n    tf.run()\ny = [tf.a for tf in xs]\n": {},
        "from utils import *\ny = lambda: tf.zeros(3)\n": {"tf": "tensorflow"},
    }
    for source, names in guessed.items():
        assert Resolver(ast.parse(source)).names == names, source
