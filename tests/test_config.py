"""The study definition file: defaults reproduce the study; mistakes name the file and key."""

import pytest

from core.config import DEFAULT_CONFIG, load_config
from core.errors import PPMinerError


def test_default_config_reproduces_the_study():
    cfg = load_config(DEFAULT_CONFIG)
    assert cfg.site == "stackoverflow"
    assert cfg.tags == ("tensorflow", "keras")
    assert str(cfg.date_from) == "2018-01-01" and cfg.date_to is None
    assert cfg.selection.require_code and cfg.selection.require_good_answer
    assert cfg.selection.min_answer_score == 2
    assert cfg.match_fields == ("title", "prose")
    assert cfg.keywords_file.name == "keywords.txt" and cfg.keywords_file.parent == DEFAULT_CONFIG.parent


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[study\nname = 1", "not valid TOML"),
        ('[study]\nfrom = "2018-13-45"', "[study] from: '2018-13-45' is not a date"),
        ('[match]\nfields = ["title", "tags"]', "unknown ['tags']"),
        ('[study]\ntags = "tensorflow"', "[study] tags must be a list of strings, not 'tensorflow'"),
        ("study = 3", "[study] must be a table, not int"),
        (
            '[selection]\nmin_answer_score = "two"',
            "[selection] min_answer_score must be an integer, not 'two'",
        ),
        ("[selection]\nrequire_code = 1", "[selection] require_code must be true or false, not 1"),
        ("[api]\npage_size = true", "[api] page_size must be an integer, not True"),
    ],
)
def test_bad_config_is_named(tmp_path, text, message):
    path = tmp_path / "study.toml"
    path.write_text(text)
    with pytest.raises(PPMinerError, match=None) as err:
        load_config(path)
    assert str(path) in str(err.value) and message in str(err.value)


def test_missing_config_file(tmp_path):
    with pytest.raises(PPMinerError, match="config file not found"):
        load_config(tmp_path / "nope.toml")
