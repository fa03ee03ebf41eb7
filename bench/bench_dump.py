"""Dump import speed against a bare streaming parse of the same Posts.xml.

Builds a larger Posts.xml in a temporary folder by replicating the real ai.stackexchange rows with new ids (and
matching ParentId/AcceptedAnswerId), then times:
  bare      lxml iterparse that only counts rows (the floor: nothing can stream the file faster)
  reader    mining.dump.reader feeding line by line, dropping every row (the checkpointable streaming itself)
  split     the bare parse plus core.text.split_html of every question and answer body (the split's share of all)
  filtered  `import-dump --tag T`: a study-like import keeping a few percent of the questions
  all       `import-dump --all-questions`: every question and answer is split into prose/code and written, once
            in this process alone and once with the workers: a fresh import of a large file goes in parts that two
            worker processes parse, select and make ready to write while the importer writes the parts before
            (mining/dump/parts.py; the importer uses workers by itself only when a core is free)
  again     each import repeated into the same database (nothing newer: parsed, compared, not written)
Prints MB/s and the ratio to the bare parse, in wall clock, in CPU seconds of this process (steady on a shared
machine) and in CPU seconds of this process and its workers together (an import of every post parses and prepares
rows in worker processes: the wall clock is what a user waits, the total CPU what the machine pays). For the import
with the workers, the note under the table splits that CPU into the importer's main thread (the writes), its other
threads (the transfers from the workers) and the workers: on two cores the wall clock cannot fall below half of
their sum. Targets: a filtered import at most 2x the bare parse; importing every post (all) at most 4x.

Run: python bench/bench_dump.py [--copies 40] [--tag definitions] [--skip-all] [--db-url postgresql://.../EMPTY_DB]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from lxml import etree

from core.db import open_store
from core.text import split_html
from mining.dump.importer import DumpImport
from mining.dump.reader import DumpReader
from mining.dump.rows import DumpFilter

PROJECT = Path(__file__).resolve().parent.parent
REAL = PROJECT / "tests" / "fixtures" / "se_dumps" / "ai.stackexchange.com" / "Posts.xml"
ID_ATTRS = ("Id", "ParentId", "AcceptedAnswerId")


def build_posts(path: Path, copies: int) -> int:
    """Write ``copies`` copies of the real rows, ids shifted per copy; returns the number of rows."""
    rows = [dict(el.attrib) for _, el in etree.iterparse(str(REAL), tag="row")]
    shift = max(int(r["Id"]) for r in rows) + 1
    n = 0
    with path.open("wb") as out:
        out.write(b'\xef\xbb\xbf<?xml version="1.0" encoding="utf-8"?>\r\n<posts>\r\n')
        for copy in range(copies):
            for row in rows:
                row = dict(row)
                for key in ID_ATTRS:
                    if key in row:
                        row[key] = str(int(row[key]) + copy * shift)
                el = etree.Element("row", row)
                out.write(b"  " + etree.tostring(el, encoding="utf-8") + b"\r\n")
                n += 1
        out.write(b"</posts>\r\n")
    return n


def bare_parse(path: Path, split: bool = False) -> int:
    """Rows of the file, parsed and dropped (the floor). ``split``: also the prose/code split of every question
    and answer body, without a database (the split's own share)."""
    n = 0
    for _, el in etree.iterparse(str(path), tag="row"):
        n += 1
        if split and el.get("PostTypeId") in ("1", "2"):
            split_html(el.get("Body"))
        el.clear()
        while el.getprevious() is not None:
            del el.getparent()[0]
    return n


def reader_only(path: Path) -> int:
    reader = DumpReader.open(str(path), "posts")
    try:
        for _ in reader.chunks(lambda attrib: None):
            pass
        return reader.rows
    finally:
        reader.close()


def timed(fn, repeat: int = 1) -> tuple[float, float, float, float, object]:
    """Best wall-clock seconds, CPU seconds of this process, CPU seconds of this process plus the child
    processes it waited for (the import's workers), and CPU seconds of this (the calling) thread alone
    over ``repeat`` runs (CPU time is steadier on a busy machine)."""
    best, best_cpu, best_all, best_main, value = (float("inf"),) * 4 + (None,)
    for _ in range(repeat):
        start, before, main_before = time.perf_counter(), os.times(), time.thread_time()
        value = fn()
        seconds, after, main = time.perf_counter() - start, os.times(), time.thread_time() - main_before
        cpu = after.user + after.system - before.user - before.system
        children = after.children_user + after.children_system - before.children_user - before.children_system
        best, best_cpu, best_all = min(best, seconds), min(best_cpu, cpu), min(best_all, cpu + children)
        best_main = min(best_main, main)
    return best, best_cpu, best_all, best_main, value


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--copies", type=int, default=40, help="copies of the real ai.stackexchange rows")
    ap.add_argument("--tag", default="definitions", help="tag of the filtered import")
    ap.add_argument("--skip-all", action="store_true", help="leave out the (slow) import of every question")
    ap.add_argument("--db-url", help="database for the imports (default: a SQLite file in the temp folder)")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix="bench_dump_") as tmp:
        posts = Path(tmp) / "Posts.xml"
        rows = build_posts(posts, args.copies)
        mb = posts.stat().st_size / 1e6
        print(f"{posts.name}: {rows} rows, {mb:.1f} MB (ai.stackexchange x {args.copies})")

        results = []
        bare_s, bare_cpu, _, _, n = timed(lambda: bare_parse(posts), repeat=3)
        assert n == rows
        results.append(("bare iterparse", bare_s, bare_cpu, bare_cpu, ""))
        *times, _, n = timed(lambda: reader_only(posts), repeat=3)
        assert n == rows
        results.append(("reader (line blocks)", *times, ""))
        if not args.skip_all:
            *times, _, n = timed(lambda: bare_parse(posts, split=True))
            results.append(("bare + split bodies", *times, "no database: what the split costs (one process)"))

        # (label, filter, use workers: None as the importer decides, or forced)
        scenarios = [(f"import --tag {args.tag}", DumpFilter(tags=frozenset({args.tag})), None)]
        if args.skip_all:
            pass
        elif args.db_url:  # one database: a single import of every post
            scenarios.append(("import (all)", DumpFilter(), None))
        else:
            scenarios.append(("import (all), 1 process", DumpFilter(), False))
            scenarios.append(("import (all), workers", DumpFilter(), True))
        for n_scenario, (label, filt, worker) in enumerate(scenarios):
            repeat = 1 if args.db_url or not filt.tags else 2
            # fresh, migrated databases opened before the clock starts (a second import is a cheaper job)
            stores = [
                open_store(args.db_url or f"sqlite:///{Path(tmp) / f'import{n_scenario}_{i}.db'}")
                for i in range(repeat)
            ]
            todo = iter(stores)
            *times, main_cpu, result = timed(
                lambda f=filt, w=worker, todo=todo: DumpImport(
                    next(todo), str(posts), filt=f, progress=False, split_worker=w
                ).run(),
                repeat=repeat,
            )
            kept = f"{result.posts.questions} q + {result.posts.answers} a kept"
            if worker:  # where the CPU goes: the main (writing) thread, the transfer threads, the workers
                _, cpu, cpu_all = times
                kept += (
                    f"\n  cpu x bare: main thread {main_cpu / bare_cpu:.2f}, other threads"
                    f" {(cpu - main_cpu) / bare_cpu:.2f}, workers {(cpu_all - cpu) / bare_cpu:.2f}"
                )
            results.append((label, *times, kept))
            # The same file again: nothing is newer, so no HTML is split and nothing is written.
            *times, _, result = timed(
                lambda f=filt, store=stores[-1]: DumpImport(store, str(posts), filt=f, progress=False).run()
            )
            results.append(("  again, same database", *times, f"{result.posts.written} written"))

        print(
            f"\n{'':24}{'wall s':>7}{'MB/s':>6}{'x bare':>7} {'cpu s':>6}{'x bare':>7} {'+wkrs':>6}{'x bare':>7}"
        )
        for label, seconds, cpu, cpu_all, _ in results:
            print(
                f"{label:24}{seconds:7.2f}{mb / seconds:6.1f}{seconds / bare_s:7.2f} {cpu:6.2f}{cpu / bare_cpu:7.2f}"
                f" {cpu_all:6.2f}{cpu_all / bare_cpu:7.2f}"
            )
        print("\ncpu s: this process; +wkrs: with the worker processes it started")
        for label, *_, note in results:
            if note:
                print(f"{label.strip()}: {note}")


if __name__ == "__main__":
    main()
