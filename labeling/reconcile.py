"""Reconciliation: turn several raters' decisions and labels into one final decision/label per item.

Two kinds of items, reconciled in this order:

* **identification** -- one per post: the raters' "is this a PP?" answers;
* **labels** -- one per PP (``<post>_<n>``) of a post whose final identification says it is a PP: the raters'
  symptom, root cause, introducing and exposing stage.

An item is *ready* once at least ``min_raters`` raters have rated it (for labels: completely labelled at least one
PP of the post; a half-finished classification does not count). Ready items where every rater gives the same
answer become final without a visit (method ``agreement``); the others wait for an adjudicator (method
``adjudicated``, ``decided_by`` the adjudicator). Human finals (``adjudicated``, ``imported``) are never
overwritten here; an ``agreement`` final follows the raters: if they later change their minds alike it is
updated; as soon as they disagree it is deleted (audited: the write of the decision or label that broke it does
that, see ``records.reopen_broken_agreement`` and :func:`reopen_broken_label_agreements`, and the agreement step
catches any left) and the item goes back to the adjudicator. Agreement finals of the PPs of a post that ends up
final as not a PP are withdrawn (an audited delete).

The two symptoms of a PP are compared as a set: ``(oom, slow)`` and ``(slow, oom)`` agree.
Every write goes through :mod:`labeling.records`, so it is audited.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from core.db import Store
from core.errors import PPMinerError
from core.schema.labeling import (
    FinalIdentification,
    FinalLabel,
    PPLabel,
    Rater,
    pp_key,
    rater_display,
)
from core.sites import PostKey, as_post
from labeling.agreement import IDENTIFICATION, PP, collect_ratings
from labeling.alignment import align_pps
from labeling.codebook import DIMENSION_OF_COLUMN
from labeling.records import (
    LABEL_FIELDS,
    delete_final_identification,
    delete_final_label,
    final_label,
    find_rater,
    get_or_create_rater,
    set_final_identification,
    set_final_label,
)
from labeling.vocabulary import (
    AGREEMENT_METHOD,
    AGREEMENT_MIN_RATERS,
    CODED_FIELDS,
    COMPARED_COLUMNS,
    label_is_complete,
)

AGREEMENT, ADJUDICATED = AGREEMENT_METHOD, "adjudicated"
#: The compared dimensions of a PP's labels and the label columns each covers.
DIMENSIONS = COMPARED_COLUMNS
#: Which codebook dimension a label column takes its codes from.
CODEBOOK_DIMENSION = DIMENSION_OF_COLUMN


def dimension_value(values: dict[str, Any], dimension: str) -> Any:
    """The comparable value of one dimension of a rating: symptoms as a set, the rest as the code."""
    if dimension == "symptom":
        return frozenset(v for v in (values.get("symptom1"), values.get("symptom2")) if v)
    return values.get(DIMENSIONS[dimension][0])


@dataclass(frozen=True)
class IdentificationItem:
    """One post with every rater's decision (rater name -> is_pp, by rater name) and its current final."""

    question_id: PostKey  # the post (site, id)
    votes: dict[str, bool]
    final: bool | None = None
    final_method: str | None = None

    @property
    def key(self) -> str:
        return str(self.question_id)

    @property
    def agreed(self) -> bool:
        return len(set(self.votes.values())) == 1

    @property
    def needs_adjudication(self) -> bool:
        return not self.agreed and self.final_method in (None, AGREEMENT)


@dataclass(frozen=True)
class LabelItem:
    """One PP with the complete ratings of the post's raters (rater name -> label columns; None: not rated)."""

    question_id: PostKey  # the post (site, id)
    pp_index: int
    ratings: dict[str, dict[str, Any] | None]
    final: dict[str, Any] | None = None
    final_method: str | None = None

    @property
    def key(self) -> str:
        return pp_key(self.question_id, self.pp_index)

    @property
    def disagreements(self) -> tuple[str, ...]:
        """The dimensions on which the raters differ (all of them when a rater did not label this PP)."""
        if any(r is None for r in self.ratings.values()):
            return tuple(DIMENSIONS)
        return tuple(
            dim
            for dim in DIMENSIONS
            if len({dimension_value(r, dim) for r in self.ratings.values() if r is not None}) > 1
        )

    @property
    def agreed(self) -> bool:
        return not self.disagreements

    @property
    def needs_adjudication(self) -> bool:
        return not self.agreed and self.final_method in (None, AGREEMENT)

    @property
    def open_fields(self) -> tuple[str, ...]:
        """The label columns the adjudicator has to decide, in deciding order."""
        dims = self.disagreements
        return tuple(f for f in CODED_FIELDS if any(f in DIMENSIONS[d] for d in dims))

    def agreed_values(self) -> dict[str, Any]:
        """Columns of the agreeing dimensions (from the first rater), plus the first rater's ``part`` if any."""
        rated = [r for r in self.ratings.values() if r is not None]
        if not rated:
            return {}
        first = rated[0]
        values = {
            f: first.get(f) for dim in DIMENSIONS if dim not in self.disagreements for f in DIMENSIONS[dim]
        }
        part = next((r.get("part") for r in rated if r.get("part")), None)
        if part:
            values["part"] = part
        return values


@dataclass
class Summary:
    """What :func:`finalize_agreements` did and what is left."""

    identifications_agreed: int = 0
    identifications_open: int = 0
    identifications_pending: int = 0
    labels_agreed: int = 0
    labels_open: int = 0
    labels_pending: int = 0
    labels_withdrawn: int = 0
    reopened: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}

    def lines(self) -> list[str]:
        """A few lines for the command's output."""
        out = [
            f"identification: {self.identifications_agreed} made final on agreement, "
            f"{self.identifications_open} to adjudicate, {self.identifications_pending} waiting for more raters",
            f"labels: {self.labels_agreed} PPs made final on agreement, {self.labels_open} to adjudicate, "
            f"{self.labels_pending} waiting for more raters",
        ]
        if self.labels_withdrawn:
            out.append(f"withdrawn: {self.labels_withdrawn} agreed PPs of posts now final as not a PP")
        if self.reopened:
            out.append(f"reopened (the raters changed their answers): {', '.join(self.reopened)}")
        return out


def _rater_names(session: Session) -> dict[int, str]:
    return dict(session.execute(sa.select(Rater.id, Rater.name)).all())


def identification_items(
    session: Session, min_raters: int = AGREEMENT_MIN_RATERS
) -> tuple[list[IdentificationItem], int]:
    """Posts rated by at least ``min_raters`` raters, by post id, and how many rated posts still wait for raters.

    The raters' decisions come from :func:`labeling.agreement.collect_ratings`, the listing the kappas use."""
    rated = collect_ratings(session, None, (IDENTIFICATION,))[IDENTIFICATION]
    finals = {row.key: row for row in session.scalars(sa.select(FinalIdentification))}
    items, pending = [], 0
    for rating in sorted(rated, key=lambda r: r.question_id):
        if len(rating.ratings) < min_raters:
            pending += 1
            continue
        final = finals.get(rating.question_id)
        items.append(
            IdentificationItem(
                rating.question_id,
                {name: value == PP for name, value in sorted(rating.ratings.items())},
                None if final is None else final.is_pp,
                None if final is None else final.method,
            )
        )
    return items, pending


def _label_values(row: Any) -> dict[str, Any]:
    return {f: getattr(row, f) for f in LABEL_FIELDS}


def _finals_where(is_pp: bool, post: PostKey | None):
    """(site, question_id) of the posts whose final decision is ``is_pp`` (only ``post``, if given)."""
    query = sa.select(FinalIdentification.site, FinalIdentification.question_id).where(
        FinalIdentification.is_pp.is_(is_pp)
    )
    if post is not None:
        query = query.where(FinalIdentification.site == post.site, FinalIdentification.question_id == post.id)
    return query


def label_items(
    session: Session, min_raters: int = AGREEMENT_MIN_RATERS, question_id: PostKey | int | None = None
) -> tuple[list[LabelItem], int]:
    """PPs of posts finally judged PPs whose post has complete labels from ``min_raters`` raters (by PP id),
    and how many such PPs still wait for raters. ``question_id``: only that post's PPs."""
    names = _rater_names(session)
    pp_posts = _finals_where(True, None if question_id is None else as_post(question_id))
    # Every PP takes part in the alignment (an unfinished one is still the PP it points at); only complete ones
    # count as ratings.
    ratings: dict[PostKey, dict[str, dict[int, dict[str, Any]]]] = defaultdict(lambda: defaultdict(dict))
    in_pp_posts = sa.tuple_(PPLabel.site, PPLabel.question_id).in_(pp_posts)
    for row in session.scalars(sa.select(PPLabel).where(in_pp_posts)):
        ratings[row.key][names[row.rater_id]][row.pp_index] = _label_values(row)
    final_in = sa.tuple_(FinalLabel.site, FinalLabel.question_id).in_(pp_posts)
    finals = {(row.key, row.pp_index): row for row in session.scalars(sa.select(FinalLabel).where(final_in))}
    items, pending = [], 0
    for qid in sorted(ratings):
        by_rater = ratings[qid]

        raters = sorted(r for r, pps in by_rater.items() if any(label_is_complete(v) for v in pps.values()))
        # PPs paired across raters as agreement pairs them (labeling.alignment), never by typing order.
        for slot_no, slot in enumerate(align_pps(by_rater), 1):
            rated = {name: by_rater[name].get(slot[name]) if name in slot else None for name in raters}
            rated = {name: values if label_is_complete(values) else None for name, values in rated.items()}
            if not any(rated.values()):
                continue
            if len(raters) < min_raters:
                pending += 1
                continue
            final = finals.get((qid, slot_no))
            items.append(
                LabelItem(
                    qid,
                    slot_no,
                    rated,
                    None if final is None else _label_values(final),
                    None if final is None else final.method,
                )
            )
    return items, pending


def finalize_agreements(session: Session, min_raters: int = AGREEMENT_MIN_RATERS) -> Summary:
    """Make every agreed, ready item final (identifications first, so newly final PP posts get their labels
    reconciled too) and count what is left for the adjudicator. Call inside one transaction."""
    if min_raters < 1:
        raise ValueError("min_raters must be at least 1")
    summary = Summary()
    items, summary.identifications_pending = identification_items(session, min_raters)
    for item in items:
        if item.agreed and item.final_method in (None, AGREEMENT):
            value = next(iter(item.votes.values()))
            if item.final != value or item.final_method is None:
                set_final_identification(session, item.question_id, value, AGREEMENT)
                summary.identifications_agreed += 1
        elif item.needs_adjudication:
            summary.identifications_open += 1
            if item.final_method == AGREEMENT:
                summary.reopened.append(str(item.question_id))
    summary.labels_withdrawn = len(_withdraw_agreed_labels(session))
    labels, summary.labels_pending = label_items(session, min_raters)
    summary.labels_agreed = len(_finalize_labels(session, labels))
    for item in labels:
        if item.needs_adjudication:
            summary.labels_open += 1
            if item.final_method == AGREEMENT:  # the raters no longer agree: the final goes (audited)
                delete_final_label(session, item.question_id, item.pp_index, AGREEMENT)
                summary.reopened.append(item.key)
    return summary


def _withdraw_agreed_labels(
    session: Session, question_id: PostKey | int | None = None, actor: str = AGREEMENT
) -> list[dict[str, Any]]:
    """Delete (audited) the agreement finals of PPs whose post is now final as not a PP; return what they held.

    Human finals of such posts stay: someone decided them on purpose."""
    not_pp = _finals_where(False, None if question_id is None else as_post(question_id))
    rows = session.scalars(
        sa.select(FinalLabel).where(
            FinalLabel.method == AGREEMENT, sa.tuple_(FinalLabel.site, FinalLabel.question_id).in_(not_pp)
        )
    ).all()
    withdrawn = []
    for row in rows:
        withdrawn.append({"question_id": row.key, "pp_index": row.pp_index, **_label_values(row)})
        delete_final_label(session, row.key, row.pp_index, actor)
    return withdrawn


def standing(
    session: Session, min_raters: int = AGREEMENT_MIN_RATERS, done: Summary | None = None
) -> Summary:
    """What the database holds now, counted once for every report (``--auto-only`` and a session's closing lines):
    finals made on agreement, items to adjudicate, items waiting for more raters. ``done``: a run's withdrawn and
    reopened items, carried over."""
    out = Summary() if done is None else replace(done)
    ids, out.identifications_pending = identification_items(session, min_raters)
    labels, out.labels_pending = label_items(session, min_raters)
    out.identifications_open = sum(i.needs_adjudication for i in ids)
    out.labels_open = sum(i.needs_adjudication for i in labels)
    for model, name in ((FinalIdentification, "identifications_agreed"), (FinalLabel, "labels_agreed")):
        agreed = sa.select(sa.func.count()).select_from(model).where(model.method == AGREEMENT)
        setattr(out, name, int(session.scalar(agreed) or 0))
    return out


def finalize(store: Store, min_raters: int = AGREEMENT_MIN_RATERS) -> Summary:
    """:func:`finalize_agreements` in one transaction of its own; reports what the database then holds."""
    with store.write() as session:
        return standing(session, min_raters, finalize_agreements(session, min_raters))


def _holds(item: LabelItem | None, final: FinalLabel) -> bool:
    """Whether a PP's final made on agreement still is what its raters agree on (the coded fields)."""
    if item is None or not item.agreed:
        return False
    agreed = item.agreed_values()
    return all(getattr(final, f) == agreed.get(f) for f in CODED_FIELDS)


def reopen_broken_label_agreements(session: Session, post: PostKey | int, actor: str | None) -> list[str]:
    """Reopen the PP finals of ``post`` made on agreement that its raters' complete labels no longer agree on
    (a changed, cleared or removed label): each is deleted, audited, and the PP is to reconcile again. Every write
    of a rater's labels (classify, a raters merge, an import) calls this. Returns the PP ids reopened.

    The PPs are paired as agreement and reconcile pair them; a final whose raters still agree stays, however
    few they are now (``finalize_agreements`` counts raters)."""
    post = as_post(post)
    held = session.scalars(
        sa.select(FinalLabel).where(
            FinalLabel.site == post.site, FinalLabel.question_id == post.id, FinalLabel.method == AGREEMENT
        )
    ).all()
    if not held:
        return []
    items = {item.pp_index: item for item in label_items(session, 1, post)[0]}
    reopened = []
    for final in held:
        if not _holds(items.get(final.pp_index), final):
            delete_final_label(session, post, final.pp_index, actor)
            reopened.append(pp_key(post, final.pp_index))
    return reopened


def _finalize_labels(session: Session, items: list[LabelItem]) -> list[LabelItem]:
    """Write (or refresh) the agreement finals of the agreed items; return the items written."""
    written = []
    for item in items:
        if item.agreed and item.final_method in (None, AGREEMENT):
            values = {f: None for f in LABEL_FIELDS if f != "note"} | item.agreed_values()
            current = {f: (item.final or {}).get(f) for f in values}
            if item.final_method is None or current != values:
                set_final_label(session, item.question_id, item.pp_index, AGREEMENT, **values)
                written.append(item)
    return written


def open_identifications(
    session: Session, min_raters: int = AGREEMENT_MIN_RATERS
) -> list[IdentificationItem]:
    """Posts whose raters disagree and that no human has decided yet, by post id."""
    return [item for item in identification_items(session, min_raters)[0] if item.needs_adjudication]


def open_labels(session: Session, min_raters: int = AGREEMENT_MIN_RATERS) -> list[LabelItem]:
    """PPs whose raters disagree and that no human has decided yet, by PP id."""
    return [item for item in label_items(session, min_raters)[0] if item.needs_adjudication]


# --- adjudicated decisions and their undo -------------------------------------------------------------------


@dataclass(frozen=True)
class Decision:
    """An adjudicated decision as recorded, with what it replaced (None: there was no final), for undo.

    ``agreed_labels``: PPs of a post just judged a PP whose labels the raters agree on, made final with it.
    ``open_labels``: that post's PPs the raters disagree on, to be adjudicated next.
    ``withdrawn_labels``: agreement finals of a post just judged not a PP, removed with it (restored by undo).
    """

    kind: str  # "identification" | "label"
    question_id: PostKey
    pp_index: int | None
    previous: dict[str, Any] | None
    agreed_labels: tuple[LabelItem, ...] = ()
    open_labels: tuple[LabelItem, ...] = ()
    withdrawn_labels: tuple[dict[str, Any], ...] = ()


def decide_identification(
    session: Session,
    adjudicator: Rater,
    question_id: PostKey | int,
    is_pp: bool,
    min_raters: int = AGREEMENT_MIN_RATERS,
) -> Decision:
    """Record the adjudicator's final PP / not-PP decision on a post; a PP post's agreed labels become final."""
    question_id = as_post(question_id)
    row = session.get(FinalIdentification, question_id)
    previous = None
    if row is not None:
        previous = {"is_pp": row.is_pp, "method": row.method, "decided_by": row.decided_by}
    set_final_identification(session, question_id, is_pp, ADJUDICATED, adjudicator)
    agreed: list[LabelItem] = []
    still_open: list[LabelItem] = []
    withdrawn: list[dict[str, Any]] = []
    if is_pp:
        items = label_items(session, min_raters, question_id)[0]
        agreed = [i for i in _finalize_labels(session, items) if i.final_method is None]
        still_open = [i for i in items if i.needs_adjudication]
    else:
        withdrawn = _withdraw_agreed_labels(session, question_id, adjudicator.name)
    return Decision(
        "identification", question_id, None, previous, tuple(agreed), tuple(still_open), tuple(withdrawn)
    )


def decide_label(session: Session, adjudicator: Rater, item: LabelItem, chosen: dict[str, Any]) -> Decision:
    """Record the final labels of a PP: the agreed dimensions plus the adjudicator's ``chosen`` columns."""
    unknown = set(chosen) - set(CODED_FIELDS)
    if unknown:
        raise ValueError(f"not label columns: {sorted(unknown)}")
    missing = [f for f in item.open_fields if f not in chosen]
    if missing:
        raise ValueError(f"{item.key}: no decision for {missing}")
    row = final_label(session, item.question_id, item.pp_index)
    previous = None
    if row is not None:
        previous = _label_values(row) | {"method": row.method, "decided_by": row.decided_by}
    values = {f: None for f in LABEL_FIELDS if f != "note"} | item.agreed_values() | chosen
    if not values.get("symptom1") and values.get("symptom2"):  # a lone second symptom becomes the first
        values["symptom1"], values["symptom2"] = values["symptom2"], None
    if values.get("symptom2") == values.get("symptom1"):
        values["symptom2"] = None
    set_final_label(session, item.question_id, item.pp_index, ADJUDICATED, adjudicator, **values)
    return Decision("label", item.question_id, item.pp_index, previous)


def undo(session: Session, decision: Decision, actor: str) -> None:
    """Put back what ``decision`` replaced: the earlier final, or no final at all (an audited delete)."""
    prev = decision.previous
    by = session.get(Rater, prev["decided_by"]) if prev and prev.get("decided_by") else None
    if decision.kind == "identification":
        for item in decision.agreed_labels:
            delete_final_label(session, item.question_id, item.pp_index, actor)
        for old in decision.withdrawn_labels:
            values = {f: old[f] for f in LABEL_FIELDS}
            set_final_label(session, old["question_id"], old["pp_index"], AGREEMENT, **values)
        if prev is not None:
            set_final_identification(session, decision.question_id, prev["is_pp"], prev["method"], by)
            return
        delete_final_identification(session, decision.question_id, actor)
        return
    if prev is not None:
        values = {f: prev[f] for f in LABEL_FIELDS}
        set_final_label(session, decision.question_id, decision.pp_index, prev["method"], by, **values)
        return
    delete_final_label(session, decision.question_id, decision.pp_index or 1, actor)


# --- an adjudicator's session: the queue the UI walks ----------------------------------------------------------


class AlreadyDecided(PPMinerError):
    """The item got a human final from elsewhere after it was queued; it has been dropped from the queue."""


Item = IdentificationItem | LabelItem


class ReconcileSession:
    """The open items of a study in the order an adjudicator visits them, with skip and undo.

    Opening it makes every agreed item final (one transaction). Then come the disputed identifications, then
    the disputed labels; a post the adjudicator judges a PP brings its own disputed PPs to the end of the queue.
    A skipped item goes to the end too (it comes back later in this session). Every decision is committed when
    made, in its own transaction; ``undo`` takes back the last decision or skip.
    """

    def __init__(self, store: Store, adjudicator: str, min_raters: int = AGREEMENT_MIN_RATERS) -> None:
        if not adjudicator.strip():
            raise PPMinerError("the adjudicator needs a name (--adjudicator NAME)")
        self.store, self.min_raters = store, min_raters
        self._adjudicator_name = adjudicator
        with store.write() as s:
            # found, not created: an adjudicator is stored with their first decision (see _judge)
            self.adjudicator: Rater | None = find_rater(s, adjudicator)
            self.summary = finalize_agreements(s, min_raters)
        with store.read() as s:
            self.pending: list[Item] = [*open_identifications(s, min_raters), *open_labels(s, min_raters)]
        self.decided = 0
        self._history: list[tuple[str, Item, Decision | None]] = []

    @property
    def current(self) -> Item | None:
        return self.pending[0] if self.pending else None

    @property
    def remaining(self) -> int:
        return len(self.pending)

    def decide_identification(self, is_pp: bool) -> Decision:
        item = self.current
        if not isinstance(item, IdentificationItem):
            raise ValueError("the current item is not an identification")
        with self.store.write() as s:
            self._check_not_decided(s, item, s.get(FinalIdentification, tuple(item.question_id)))
            judge = self._judge(s)
            decision = decide_identification(s, judge, item.question_id, is_pp, self.min_raters)
        self.adjudicator = judge
        self._done(item, decision)
        queued = {i.key for i in self.pending if isinstance(i, LabelItem)}
        self.pending.extend(i for i in decision.open_labels if i.key not in queued)
        return decision

    def decide_label(self, chosen: dict[str, Any]) -> Decision:
        item = self.current
        if not isinstance(item, LabelItem):
            raise ValueError("the current item is not a PP's labels")
        with self.store.write() as s:
            final = final_label(s, item.question_id, item.pp_index)
            self._check_not_decided(s, item, final)
            judge = self._judge(s)
            decision = decide_label(s, judge, item, chosen)
        self.adjudicator = judge
        self._done(item, decision)
        return decision

    @property
    def adjudicator_name(self) -> str:
        return (
            self.adjudicator.name if self.adjudicator is not None else rater_display(self._adjudicator_name)
        )

    def _judge(self, session: Session) -> Rater:
        """The adjudicator's rater row, created in ``session`` with their first decision."""
        return self.adjudicator or get_or_create_rater(session, self._adjudicator_name)

    def _check_not_decided(self, session: Session, item: Item, final: Any) -> None:
        """Someone else (another adjudicator, an import) settled the item since it was queued: drop it, say so."""
        if final is None or final.method == AGREEMENT:
            return
        who = session.get(Rater, final.decided_by).name if final.decided_by else final.method
        self.pending.remove(item)
        what = f"post {item.question_id}" if isinstance(item, IdentificationItem) else f"PP {item.key}"
        raise AlreadyDecided(f"{what} was decided meanwhile by {who} ({final.method}); left as it is")

    def _done(self, item: Item, decision: Decision) -> None:
        self.pending.pop(0)
        self.decided += 1
        self._history.append(("decide", item, decision))

    def skip(self) -> None:
        if len(self.pending) > 1:
            item = self.pending.pop(0)
            self.pending.append(item)
            self._history.append(("skip", item, None))

    def undo(self) -> Item | None:
        """Take back the last decision (restoring the finals it replaced) or skip; its item becomes current.
        Returns that item, or None when there is nothing to undo."""
        if not self._history:
            return None
        kind, item, decision = self._history[-1]
        if kind == "skip":
            self.pending.remove(item)
        else:
            assert decision is not None
            with self.store.write() as s:
                undo(s, decision, self.adjudicator.name)
            added = {i.key for i in decision.open_labels}
            self.pending = [i for i in self.pending if not (isinstance(i, LabelItem) and i.key in added)]
            self.decided -= 1
        self._history.pop()
        self.pending.insert(0, item)
        return item
