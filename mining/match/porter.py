"""NLTK's own PorterStemmer, loaded without running ``nltk/__init__``.

``import nltk`` (which ``from nltk.stem.porter import ...`` triggers) takes 1.5-1.8 s: the package's ``__init__``
and ``nltk.stem``'s pull in most of NLTK and SciPy. The Porter stemmer needs three small modules of NLTK only
(``nltk.stem.api``, ``nltk.redos``, ``nltk.termsec``). So ppminer runs NLTK's ``stem/porter.py`` itself, the
same code and therefore the same stems, under empty stand-ins for the two package modules, and takes the stand-ins
out of ``sys.modules`` again: a later ``import nltk`` anywhere in the process gets the real, complete package.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import threading
import types

_PACKAGES = ("nltk", "nltk.stem")
_lock = threading.Lock()
_porter_class = None


def porter_stemmer_class() -> type:
    """``nltk.stem.porter.PorterStemmer`` (the module already imported, if it is; else loaded on its own)."""
    global _porter_class
    if "nltk" in sys.modules:  # the real package is (being) imported: use it
        return importlib.import_module("nltk.stem.porter").PorterStemmer
    with _lock:
        if _porter_class is None:
            _porter_class = _load_alone()
        return _porter_class


def _load_alone() -> type:
    spec = importlib.util.find_spec("nltk")  # finds the package without importing it
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("NLTK is not installed: pip install nltk")
    before = set(sys.modules)
    nltk_dir = list(spec.submodule_search_locations)
    stand_ins = {"nltk": nltk_dir, "nltk.stem": [f"{path}/stem" for path in nltk_dir]}
    try:
        for name in _PACKAGES:
            package = types.ModuleType(name)
            package.__path__ = stand_ins[name]
            sys.modules[name] = package
        return importlib.import_module("nltk.stem.porter").PorterStemmer
    finally:
        for name in set(sys.modules) - before:
            if name == "nltk" or name.startswith("nltk."):
                del sys.modules[name]
