"""The README's recipe for rebuilding the published study: it imports every published data file, and the
replication check then finds every published figure but the funnel stages the published files do not hold."""

from __future__ import annotations

import re

from conftest import PROJECT, run_cli

from labeling import analysis


def recipe_imports() -> list[list[str]]:
    """The `pplabel import` lines of the README's rebuild recipe, as argument lists."""
    readme = (PROJECT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("To rebuild the published study") :]
    block = section[section.index("```bash") : section.index("```", section.index("```bash") + 3)]
    return [line.split()[1:] for line in block.splitlines() if line.startswith("pplabel import ")]


def test_the_recipe_imports_every_published_data_file():
    imported = {args[-1].rsplit("/", 1)[-1] for args in recipe_imports()}
    published = {p.name for p in (PROJECT / "data" / "published").iterdir() if p.suffix == ".csv"}
    assert imported == published and len(published) == 4


def test_after_the_recipe_only_unpublished_funnel_stages_are_missing(tmp_path):
    url = f"sqlite:///{tmp_path / 'study.db'}"
    for args in recipe_imports():
        done = run_cli("labeling.cli", *args, "--db", url)
        assert re.search(r": imported \d+ ", done.stdout), done.stdout
    replication = analysis.open_study(url, tmp_path / "out").replication()
    missing = replication[replication["status"] == "MISSING"]
    assert list(missing["section"]) == ["funnel"]  # the published files hold no selection count
    assert set(replication[replication["section"] == "rq4"]["status"]) <= {"same", "DIFFERS"}
    assert (replication["section"] == "rq4").sum() > 0
