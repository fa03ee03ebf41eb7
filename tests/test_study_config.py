"""Studies as configurations: `data/studies/pytorch.toml` (or $PPMINER_CONFIG) drives acquisition, matching and
labeling the way `data/study.toml` drives the seed study, each study in its own database; its codebook extends
the seed codebook without changing a code of it."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa
from click.testing import CliRunner
from fake_api import FakeApi, make_questions

from core.config import DEFAULT_CONFIG, ENV_CONFIG, load_config
from core.db import open_store
from core.errors import PPMinerError
from core.schema.mining import Candidate, KeywordSet, Question
from labeling.cli import cli as pplabel
from labeling.codebook import load_codebook
from mining.cli import cli as ppmine
from mining.match.keywords import read_keywords

PYTORCH = DEFAULT_CONFIG.parent / "studies" / "pytorch.toml"
NEW_ROOT_CAUSES = {
    "pytorch.host_device_sync",
    "pytorch.per_step_transfer",
    "pytorch.autograd_history_kept",
    "pytorch.grad_in_inference",
    "pytorch.main_process_loading",
}


def test_the_pytorch_study_names_its_own_tags_window_keywords_and_codebook():
    cfg = load_config(PYTORCH)
    assert cfg.tags == ("pytorch",) and cfg.site == "stackoverflow"
    assert str(cfg.date_from) == "2019-01-01" and cfg.date_to is None
    assert cfg.published_file is None  # nothing published to compare with
    keywords = read_keywords(cfg.keywords_file)
    seed = read_keywords(load_config(DEFAULT_CONFIG).keywords_file)
    assert set(seed.keywords) < set(keywords.keywords) and "dataload slow" in keywords.keywords
    assert load_config(DEFAULT_CONFIG).published_file.name == "published.yaml"


def test_the_environment_variable_names_the_study(monkeypatch):
    monkeypatch.setenv(ENV_CONFIG, str(PYTORCH))
    assert load_config().tags == ("pytorch",)
    assert {c.code for c in load_codebook().codes("root_cause")} >= NEW_ROOT_CAUSES


@pytest.mark.parametrize("files", ['[files]\npublished = ""\n', "[files]\n", ""])
def test_a_study_without_published_figures(tmp_path, files):
    (tmp_path / "s.toml").write_text('[study]\ntags = ["jax"]\n' + files, encoding="utf-8")
    assert load_config(tmp_path / "s.toml").published_file is None


def test_the_pytorch_codebook_adds_codes_and_keeps_every_seed_code():
    seed, pytorch = (
        load_codebook(DEFAULT_CONFIG.parent / "codebook.yaml"),
        load_codebook(load_config(PYTORCH).codebook_file),
    )
    for dim in ("symptom", "root_cause", "stage"):
        old = {c.code: c for c in seed.codes(dim, include_legacy=True)}
        new = {c.code: c for c in pytorch.codes(dim, include_legacy=True)}
        assert {k: new[k] for k in old} == old, dim  # same codes, names, definitions, keys, aliases
        assert set(new) - set(old) == (NEW_ROOT_CAUSES if dim == "root_cause" else set())
        assert all(seed.keys_for(code, dim) == pytorch.keys_for(code, dim) for code in old)
    assert pytorch.by_keys("root_cause", "p1") == "pytorch.host_device_sync"
    assert pytorch.resolve("root_cause", "missing no_grad") == "pytorch.grad_in_inference"
    assert pytorch.get("pytorch.main_process_loading").definition.startswith("The DataLoader loads")
    assert len(pytorch.notes) == len(seed.notes) + 3
    assert pytorch.notes_for("pytorch.per_step_transfer")[0].codes[1] == "data.inefficient_transmission"
    with pytest.raises(PPMinerError, match="unknown root_cause label 'pytorch.host_device_sync'"):
        seed.resolve("root_cause", "pytorch.host_device_sync")


@pytest.mark.parametrize(
    ("extension", "message"),
    [
        ("root_cause:\n  - category: api\n    name: API\n    codes: []\n",
         r"ext.yaml:3: root_cause category 'api' belongs to base.yaml: an extension may only add codes to it, "
         r"not set \['name'\]"),
        ("root_cause:\n  - category: api\n    codes:\n      - code: api.not_batch_api\n        name: X\n"
         "        key: '7'\n        definition: d\n", r"ext.yaml:5: root_cause code 'api.not_batch_api': duplicate code"),
        ("root_cause:\n  - category: more\n    name: More\n    key: a\n    definition: d\n    codes:\n"
         "      - code: more\n        name: More\n        definition: d\n",
         r"ext.yaml:3: root_cause category 'more': key 'a' already used by category 'api'"),
        ("extends: ext.yaml\n", r"ext.yaml: extends 'ext.yaml' leads back to .*ext.yaml \(a cycle\)"),
        ("extends: nowhere.yaml\n", r"ext.yaml: extends 'nowhere.yaml': cannot read .*nowhere.yaml"),
    ],
)  # fmt: skip
def test_an_extension_cannot_change_the_codebook_it_extends(tmp_path, extension, message):
    (tmp_path / "base.yaml").write_text((DEFAULT_CONFIG.parent / "codebook.yaml").read_text("utf-8"), "utf-8")
    text = extension if extension.startswith("extends") else "extends: base.yaml\n" + extension
    (tmp_path / "ext.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(PPMinerError, match=message):
        load_codebook(tmp_path / "ext.yaml")


def test_an_extension_adds_codes_to_a_seed_category(tmp_path):
    (tmp_path / "ext.yaml").write_text(
        f"extends: {DEFAULT_CONFIG.parent / 'codebook.yaml'}\nroot_cause:\n  - category: api\n    codes:\n"
        "      - code: api.deprecated_api\n        name: Deprecated API\n        key: '4'\n"
        "        definition: A deprecated, slower API is used.\n",
        encoding="utf-8",
    )
    cb = load_codebook(tmp_path / "ext.yaml")
    assert (
        cb.by_keys("root_cause", "a4") == "api.deprecated_api" and cb.category("api.deprecated_api") == "api"
    )


# -- the commands, in process ---------------------------------------------------------------------------------


def _invoke(cli, *args: str, env: dict | None = None):
    result = CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result


def _stored(url: str) -> tuple[set[int], set[int], list[list[str]]]:
    store = open_store(url)
    with store.read() as s:
        questions = set(s.scalars(sa.select(Question.id)))
        candidates = set(s.scalars(sa.select(Candidate.question_id).where(Candidate.matching)))
        keyword_sets = list(s.scalars(sa.select(KeywordSet.keywords)))
    return questions, candidates, keyword_sets


def test_scrape_run_and_match_follow_the_study_each_in_its_own_database(tmp_path, fixtures):
    """The same API, two studies: each database gets its study's tags and keyword set only."""
    questions = make_questions(6, fixtures, tags=(("pytorch",), ("tensorflow",)), start=1_577_836_800)  # 2020
    torch_ids = {q["question_id"] for q in questions if "pytorch" in q["tags"]}
    torch_db, tf_db = f"sqlite:///{tmp_path / 'pytorch.db'}", f"sqlite:///{tmp_path / 'tf.db'}"
    with FakeApi(questions) as api:
        _invoke(ppmine, "scrape", "--config", str(PYTORCH), "--db", torch_db, "--api-url", api.url)
        _invoke(ppmine, "run", "--db", torch_db, "--api-url", api.url, env={ENV_CONFIG: str(PYTORCH)})
        _invoke(ppmine, "scrape", "--db", tf_db, "--api-url", api.url, "--config", str(DEFAULT_CONFIG))
    stored, candidates, keyword_sets = _stored(torch_db)
    assert stored == torch_ids and candidates and candidates <= torch_ids
    assert [len(k) for k in keyword_sets] == [len(read_keywords(load_config(PYTORCH).keywords_file).keywords)]
    assert _stored(tf_db)[0] == {q["question_id"] for q in questions} - torch_ids


def _posts_xml(path: Path, rows: list[tuple[int, str, str, str]]) -> Path:
    """A minimal Posts.xml: (id, tags, creation date, title) questions, each with a code block and an accepted
    answer."""
    lines = ['<?xml version="1.0" encoding="utf-8"?>', "<posts>"]
    for pid, tags, created, title in rows:
        body = "&lt;p&gt;It is slow.&lt;/p&gt;&lt;pre&gt;&lt;code&gt;loader = DataLoader(ds)&lt;/code&gt;&lt;/pre&gt;"
        lines.append(f'  <row Id="{pid}" PostTypeId="1" AcceptedAnswerId="{pid + 1000}" CreationDate="{created}" '
                     f'Score="3" Body="{body}" LastActivityDate="{created}" Title="{title}" Tags="{tags}" '
                     'AnswerCount="1" CommentCount="0" />')  # fmt: skip
        lines.append(f'  <row Id="{pid + 1000}" PostTypeId="2" ParentId="{pid}" CreationDate="{created}" Score="5" '
                     f'Body="&lt;p&gt;Use workers.&lt;/p&gt;" LastActivityDate="{created}" CommentCount="0" />')  # fmt: skip
    lines.append("</posts>")
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def test_import_dump_and_match_select_by_the_study_window_tags_and_keywords(tmp_path):
    posts = _posts_xml(tmp_path / "Posts.xml", [
        (1, "|pytorch|", "2020-03-01T10:00:00.000", "PyTorch dataloader slow with many images"),
        (2, "|tensorflow|", "2020-03-01T10:00:00.000", "TensorFlow dataloader slow with many images"),
        (3, "|pytorch|", "2018-06-01T10:00:00.000", "PyTorch dataloader slow in 0.4"),
        (4, "|pytorch|python|", "2021-01-01T10:00:00.000", "Custom collate function for variable lengths"),
    ])  # fmt: skip
    db = f"sqlite:///{tmp_path / 'pytorch.db'}"
    _invoke(
        ppmine, "import-dump", str(posts), "--site", "stackoverflow", "--config", str(PYTORCH), "--db", db
    )
    _invoke(ppmine, "match", "--db", db, env={ENV_CONFIG: str(PYTORCH)})
    stored, candidates, _ = _stored(db)
    assert stored == {1, 4}  # the tag and the window of the PyTorch study
    assert candidates == {1}  # "dataload slow": a keyword of the PyTorch set only
    seed_db = f"sqlite:///{tmp_path / 'seed.db'}"
    _invoke(ppmine, "import-dump", str(posts), "--site", "stackoverflow", "--db", seed_db)
    assert _stored(seed_db)[0] == {2}


LABELS = (
    "_id,symptom1,symptom2,root casue,root casue 2,root stage,root stage 2,expose stage,expose stage 2\n"
    "1_1,time.slow_execution,time.slow_execution,pytorch.host_device_sync,Host-Device Synchronisation,"
    "training,training,training,training\n"
    "1_2,memory.leak,memory.leak,pytorch.autograd_history_kept,history kept,training,training,training,training\n"
)


def test_labeling_accepts_the_study_codes_and_the_seed_study_refuses_them(tmp_path):
    path = tmp_path / "kappa_label.csv"
    path.write_text(LABELS, encoding="utf-8")
    db = f"sqlite:///{tmp_path / 'pytorch.db'}"
    _invoke(pplabel, "import", "--format", "labels", "--raters", "ana,ben", str(path), "--config", str(PYTORCH),
            "--db", db)  # fmt: skip
    report = _invoke(
        pplabel, "agreement", "--format", "json", "--db", db, env={ENV_CONFIG: str(PYTORCH)}
    ).output
    assert '"root_cause"' in report and '"root_cause_category"' in report
    seed_codebook = CliRunner().invoke(pplabel, ["agreement", "--db", db, "--config", str(DEFAULT_CONFIG)])
    assert "no code 'pytorch.host_device_sync'" in str(seed_codebook.exception)
    seed_db = f"sqlite:///{tmp_path / 'seed.db'}"
    refused = CliRunner().invoke(pplabel, ["import", "--format", "labels", str(path), "--db", seed_db])
    assert "kappa_label.csv:2: unknown root_cause label 'pytorch.host_device_sync'" in str(refused.exception)


def test_the_classify_screen_picks_a_pytorch_root_cause_by_its_keys(sqlite_store):
    """At 80x24: symptom t1, no second symptom, root cause p1 (a code only the PyTorch codebook has), stages."""
    import asyncio

    from test_tui_identify import seed_candidates

    from core.schema.labeling import PPLabel
    from core.sites import PostKey
    from labeling.queue import ClassifyQueue
    from labeling.records import get_or_create_rater, set_identification
    from labeling.tui.classify import ClassifyApp

    seed_candidates(sqlite_store, [21])
    with sqlite_store.write() as s:
        set_identification(s, get_or_create_rater(s, "ann"), PostKey("stackoverflow", 21), True)
    app = ClassifyApp(ClassifyQueue(sqlite_store, "ann"), load_codebook(load_config(PYTORCH).codebook_file))

    async def drive():
        async with app.run_test(size=(80, 24)) as pilot:
            for key in (
                "enter",
                "t",
                "1",
                "enter",
                "minus",
                "enter",
                "p",
                "1",
                "enter",
                "m",
                "enter",
                "t",
                "d",
            ):
                await pilot.press(key)
            await pilot.pause()

    asyncio.run(drive())
    with sqlite_store.read() as s:
        assert s.scalars(sa.select(PPLabel.root_cause)).all() == ["pytorch.host_device_sync"]
