"""Evidence read across the checked files of one project (one PATH argument) for the PyTorch rules, as
checker/project.py does for TensorFlow pipelines. Checked one module at a time, a loader made in
`data_factory.py` has no loop and the loop in `train.py` has no DataLoader; these passes read the
project's files once and parse only the modules whose text may hold the other half.

- loaders.py (PP505): an unpinned DataLoader one module makes (a def returns it, a class keeps it, or it
  is handed to a def or class of another module) and another module copies the batches of.
- device_datasets.py (PP505): drops the findings on loaders of a dataset class whose `__getitem__` moves
  each item to the device itself.
- reads.py (PP501): a training loop that reads values on the host every step, in a module that places
  nothing on a GPU itself while a module importing it does; and loops reading a loss through another
  module's def.
- graph_callers.py (PP503): drops the findings in evaluation defs that another module of the project calls
  under no_grad.
- factories.py (PP506): a def of one module returns a tensor made on the host and a loop of another
  copies it to the device every step; or a def that makes and moves one runs in another module's step.
- common.py: what they share (the project's texts, parsing, which module imports a name).

Which project file an import names is checker/project_files.py's answer, shared with checker/project.py.
"""

from __future__ import annotations

from checker.findings import Finding
from checker.gc_pause import collection_paused
from checker.torch_project.common import project_texts, reusing_indexes
from checker.torch_project.factories import factories_across_modules
from checker.torch_project.graph_callers import graph_callers_across_modules
from checker.torch_project.loaders import loaders_across_modules, module_facts
from checker.torch_project.reads import reads_across_modules

__all__ = [
    "across_modules",
    "factories_across_modules",
    "loaders_across_modules",
    "module_facts",
    "project_texts",
    "reads_across_modules",
]


def across_modules(
    findings: list[Finding],
    projects: list[list[str]],
    codes=None,
    sources: dict | None = None,
    known: dict | None = None,
    indexes: dict | None = None,
) -> list[Finding]:
    """`findings` with the PyTorch project passes run over each project in turn: DataLoaders (PP505),
    evaluation defs run under no_grad elsewhere (PP503), then factories (PP506), then host reads (PP501). `sources` (path -> text) and `known` (path ->
    `module_facts`) hold what the per-module pass read and computed in this process, reused here, and
    `indexes` (text -> index) the indexes it kept of the modules the passes are likely to parse again
    (`reusing_indexes`)."""
    sources = {} if sources is None else sources
    indexes = {} if indexes is None else indexes
    with collection_paused(), reusing_indexes(indexes):  # (the trees are freed by reference counts)
        findings = loaders_across_modules(findings, projects, codes, sources, known)
        findings = graph_callers_across_modules(findings, projects, codes, sources)
        findings = factories_across_modules(findings, projects, codes, sources)
        return reads_across_modules(findings, projects, codes, sources)
