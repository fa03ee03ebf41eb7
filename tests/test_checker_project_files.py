"""Which project file an import names (checker/project_files.py): the one answer the project passes ask."""

from __future__ import annotations

from checker.project_files import module_file, module_paths, names_file


def test_absolute_import_looks_in_the_importers_folder_then_each_folder_above():
    assert module_paths("data.parser", "/p/src/train.py") == [
        "/p/src/data/parser.py",
        "/p/src/data/parser/__init__.py",
        "/p/data/parser.py",
        "/p/data/parser/__init__.py",
        "/data/parser.py",
        "/data/parser/__init__.py",
    ]


def test_relative_import_looks_only_in_its_package():
    assert module_paths("utils", "/p/pkg/sub/a.py", level=1) == [
        "/p/pkg/sub/utils.py",
        "/p/pkg/sub/utils/__init__.py",
    ]
    assert module_paths("utils", "/p/pkg/sub/a.py", level=2) == [
        "/p/pkg/utils.py",
        "/p/pkg/utils/__init__.py",
    ]
    assert module_paths("", "/p/pkg/sub/a.py", level=1) == ["/p/pkg/sub/__init__.py"]  # `from . import x`
    assert module_paths("", "/p/a.py") == []


def test_a_path_relative_to_the_working_folder_keeps_its_form():
    # `ppcheck .` walks ./x.py: the lookup must give the same spelling for the file to be found
    assert "./models/net.py" in module_paths("models.net", "./train.py")
    assert "./pkg/util.py" in module_paths("util", "./pkg/a.py", level=1)


def test_module_file_is_the_nearest_checked_file():
    files = {"/p/data/parser.py", "/p/src/data/parser.py", "/p/src/train.py"}
    assert module_file("data.parser", "/p/src/train.py", 0, files) == "/p/src/data/parser.py"
    assert module_file("data.parser", "/p/other/train.py", 0, files) == "/p/data/parser.py"
    assert module_file("data.parser", "/p/src/train.py", 1, files) == "/p/src/data/parser.py"
    assert module_file("data.parser", "/p/src/train.py", 2, files) == "/p/data/parser.py"
    assert module_file("tensorflow", "/p/src/train.py", 0, files) is None
    assert module_file("", "/p/src/train.py", 1, files | {"/p/src/__init__.py"}) is None


def test_names_file_matches_under_any_folder_and_any_module_of_a_package():
    assert names_file("data.factory", "/p/x/data/factory.py")
    assert names_file("data.factory", "/q/data/factory/__init__.py")
    assert names_file("data.factory", "/q/data/factory/loaders.py")  # re-exported by the package
    assert not names_file("data.factory", "/p/data/factory_old.py")
    assert not names_file("factory", "/p/data/myfactory.py")
    assert names_file("", "/p/anything.py")  # `from . import x`
