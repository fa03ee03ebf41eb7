"""Issue 19: one funnel definition (mining.stats) serves `ppmine stats` and the notebooks' funnel."""

from __future__ import annotations

from labeling.analysis import funnel_table
from labeling.records import set_final_identification, set_final_label
from mining.stats import funnel_counts
from mining.store import upsert_questions


def test_stats_and_the_notebooks_funnel_agree(sqlite_store):
    with sqlite_store.write() as s:
        upsert_questions(s, [{"site": "stackoverflow", "id": i, "title": "t", "body_html": "<p>x</p>"}
                             for i in (1, 2)], "import")  # fmt: skip
        set_final_identification(s, 1, True, "adjudicated")
        set_final_identification(s, 2, False, "adjudicated")  # labels kept on a post finally not a PP
        for post, pp in ((1, 1), (1, 2), (2, 1)):
            set_final_label(s, post, pp, "agreement", symptom1="memory.oom")
    with sqlite_store.read() as s:
        counts = funnel_counts(s)
        steps = dict(zip(funnel_table(s)["step"], funnel_table(s)["count"], strict=False))
    assert (counts["labelled_posts"], counts["pps_final"]) == (1, 2)
    assert (steps["labelled_posts"], steps["pps_labelled"]) == (counts["labelled_posts"], counts["pps_final"])
