"""The one rule for "a rater has labelled this PP": every required label field is filled.

A ``pp_labels`` row lacking any of :data:`REQUIRED_LABEL_FIELDS` is a label in progress (e.g. a classify
session killed after the symptom and root cause): progress shows it as such, and agreement, reconcile and
``ppmine stats`` never count it. The rule lives in the shared core, so that ``mining`` (which must
not import ``labeling``) and ``labeling`` both use it; ``labeling.vocabulary`` re-exports it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa

#: The fields a complete label needs (symptom2 and part are optional).
REQUIRED_LABEL_FIELDS = ("symptom1", "root_cause", "introducing_stage", "exposing_stage")


def label_is_complete(values: Mapping[str, Any] | None) -> bool:
    """True when a label's values (field -> value) fill every required field."""
    return values is not None and all(values.get(f) for f in REQUIRED_LABEL_FIELDS)


def complete_label_sql(columns) -> sa.ColumnElement[bool]:
    """The rule as a SQL condition on a ``pp_labels`` table (or ORM class): every required field non-empty."""
    return sa.and_(*(sa.func.coalesce(getattr(columns, f), "") != "" for f in REQUIRED_LABEL_FIELDS))
