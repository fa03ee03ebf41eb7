"""The labeling vocabulary, defined once: codebook dimensions, the agreement's dimensions, the label columns
each compared dimension covers, the fields a complete label needs, and how two symptoms compare.

``codebook``, ``agreement``, ``reconcile``, ``queue`` and ``progress`` take these names from here.
"""

from __future__ import annotations

from core.label_rule import REQUIRED_LABEL_FIELDS, complete_label_sql, label_is_complete

__all__ = [
    "AGREEMENT_DIMENSIONS",
    "AGREEMENT_METHOD",
    "AGREEMENT_MIN_RATERS",
    "CODEBOOK_DIMENSIONS",
    "CODED_FIELDS",
    "FIELD_DIMENSION",
    "COMPARED_COLUMNS",
    "IDENTIFICATION",
    "LABEL_DIMENSIONS",
    "REQUIRED_LABEL_FIELDS",
    "SET_JOIN",
    "complete_label_sql",
    "label_is_complete",
    "symptom_set",
]

#: The codebook's own dimensions: the code lists a codebook file holds (stages share one list).
CODEBOOK_DIMENSIONS = ("symptom", "root_cause", "stage")

#: Agreement's dimensions: the PP / not-PP decision, then the label dimensions (categories included).
IDENTIFICATION = "identification"
LABEL_DIMENSIONS = (
    "symptom",
    "symptom_category",
    "root_cause",
    "root_cause_category",
    "introducing_stage",
    "exposing_stage",
)
AGREEMENT_DIMENSIONS = (IDENTIFICATION, *LABEL_DIMENSIONS)

#: The label dimensions reconcile compares and the label columns each covers.
COMPARED_COLUMNS: dict[str, tuple[str, ...]] = {
    "symptom": ("symptom1", "symptom2"),
    "root_cause": ("root_cause",),
    "introducing_stage": ("introducing_stage",),
    "exposing_stage": ("exposing_stage",),
}
#: The codebook columns of a label, in the order an adjudicator decides them.
CODED_FIELDS = ("symptom1", "symptom2", "root_cause", "introducing_stage", "exposing_stage")
#: The codebook dimension (``CODEBOOK_DIMENSIONS``) whose codes each coded column holds.
FIELD_DIMENSION = {
    "symptom1": "symptom",
    "symptom2": "symptom",
    "root_cause": "root_cause",
    "introducing_stage": "stage",
    "exposing_stage": "stage",
}

SET_JOIN = "+"

#: How a final was made: by the raters' agreement (reopened when it no longer holds), an adjudicator, an import.
AGREEMENT_METHOD = "agreement"
#: The fewest raters whose agreement makes a final (reconcile's default ``--min-raters``). A final made on
#: agreement is reopened when a decision removed (an undo, a raters merge) leaves fewer raters than this.
AGREEMENT_MIN_RATERS = 2


def symptom_set(symptom1: str | None, symptom2: str | None) -> str | None:
    """A PP's symptoms as one unordered set, its sorted codes joined by ``+`` (None when it has none)."""
    codes = sorted({c for c in (symptom1, symptom2) if c})
    return SET_JOIN.join(codes) if codes else None
