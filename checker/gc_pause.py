"""The cyclic garbage collector paused while a tree, its index and a pass's caches grow: they hold no
garbage yet (a parse allocates many objects and triggers collections that free nothing, about a fifth of
its time; torch-speed2). What they leave is freed by reference counts, or collected once it is back on."""

from __future__ import annotations

import contextlib
import gc


@contextlib.contextmanager
def collection_paused():
    """Run the block with the collector off, then restore it as it was (a nested pause leaves it off)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
