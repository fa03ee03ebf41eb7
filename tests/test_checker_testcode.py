"""Test files: unit-test modules stay silent, scripts named test_*.py are checked (reading 15)."""

import textwrap

from checker import check_source

# tools/test_dir_for_export.py of a dogs-vs-cats Kaggle project: 12,500 test images predicted one at a time
KAGGLE_SCRIPT = """
import argparse
import glob
import numpy as np
from keras.models import load_model

def main():
    args = argparse.ArgumentParser().parse_args()
    model = load_model(args.modelPath)
    results = []
    for file in sorted(glob.glob(args.datasetTestDir + "/*.jpg")):
        image = np.expand_dims(load(file), axis=0)
        result = model.predict_classes(x=image, batch_size=1, verbose=False)
        results.append((file, result[0]))

if __name__ == '__main__':
    main()
"""

PYTEST_MODULE = """
import numpy as np
from keras.models import load_model

def test_predict_shape():
    model = load_model("m.h5")
    for x in np.zeros((4, 8)):
        assert model.predict(np.expand_dims(x, 0)).shape == (1, 2)
"""

TF_TEST_MODULE = """
import numpy as np
import tensorflow as tf

class ModelTest(tf.test.TestCase):
    def testPredict(self):
        model = tf.keras.models.load_model("m")
        for x in np.zeros((4, 8)):
            self.assertEqual(model.predict(np.expand_dims(x, 0)).shape, (1, 2))

if __name__ == "__main__":
    tf.test.main()
"""

HELPERS_ONLY = """
import numpy as np
import tensorflow as tf

def predict_all(model, xs):
    return [model.predict(np.expand_dims(x, 0)) for x in xs]
"""


def rules(source: str, path: str) -> list[tuple[str, int]]:
    findings, skipped = check_source(textwrap.dedent(source), path)
    assert not skipped, skipped
    return [(f.rule, f.line) for f in findings]


def test_a_test_named_script_is_checked_like_any_script():
    for path in ("tools/test_dir_for_export.py", "predict_test.py", "predict.py"):
        assert rules(KAGGLE_SCRIPT, path) == [("PP301", 13)], path


def test_unit_test_modules_stay_silent():
    assert rules(PYTEST_MODULE, "predict.py") == [("PP301", 8)]  # the shape is there
    assert rules(PYTEST_MODULE, "test_model.py") == []
    assert rules(TF_TEST_MODULE, "predict.py") == [("PP301", 9)]
    assert rules(TF_TEST_MODULE, "model_test.py") == []
    unittest_script = "import unittest\n" + KAGGLE_SCRIPT
    assert rules(unittest_script, "test_model.py") == []


def test_definitions_only_or_a_test_folder_stay_silent():
    assert rules(HELPERS_ONLY, "helpers.py") == [("PP301", 6)]
    assert rules(HELPERS_ONLY, "test_helpers.py") == []  # runs nothing: a helper of the tests
    assert rules(KAGGLE_SCRIPT, "tests/test_dir_for_export.py") == []
    assert rules(KAGGLE_SCRIPT, "model_test_utils.py") == []


def test_a_test_named_file_that_does_not_parse_stays_silent():
    """Python 2 test modules are common in old repositories: no skip note where no finding was ever made."""
    assert check_source('print "ok"\n', "test_old.py") == ([], [])
    assert check_source('print "ok"\n', "old.py")[1]


# A script's library named for what it does (E(3) diffusion's `train_test.py` shape, hold-out 24): definitions
# only, a training def and a test def over the loaders, run by the project's main script.
TRAIN_TEST_LIBRARY = """
import torch

def train_epoch(model, loader, optim, device):
    model.train()
    nll_epoch = []
    for i, (x, y) in enumerate(loader):
        x, y = x.to(device), y.to(device)
        optim.zero_grad()
        nll = torch.nn.functional.mse_loss(model(x), y)
        nll.backward()
        optim.step()
        nll_epoch.append(nll.item())
    return sum(nll_epoch) / len(nll_epoch)

def test(model, loader, device):
    return 0.0
"""


def test_a_train_test_library_is_checked_not_silenced():
    """torch-fix93: a definitions-only file named `*_test.py` holding a `train*` def and no pytest `test_*`
    def is a training library, checked like any module; with a `test_*` def it is a test module still."""
    assert rules(TRAIN_TEST_LIBRARY, "train_test.py") == [("PP501", 13)]
    assert rules(TRAIN_TEST_LIBRARY, "train.py") == [("PP501", 13)]
    pytest_twin = TRAIN_TEST_LIBRARY.replace("def test(model", "def test_epoch(model")
    assert rules(pytest_twin, "train_test.py") == []
