"""The paper's six edits g, one registered class each.

Each class holds its operator (``propose``: the base chart data, the posed
question and a seeded generator in, the edited data g(D) and JSON-able
parameters out, or ``None`` when it cannot apply to this chart and question,
as when delete_max would delete a category the question names), its
answer-transform φ_g per question type (the question types it applies to),
its difficulty controls and its theory transform; see
:class:`rend_equiv_dataset.figures.edits.registry.EditType`. The generator
checks the controls and the law a*(g(D), q) = φ_g(a*(D, q)) before it keeps
a proposal.

An edit whose φ_g would be the identity for a question (scale on argmax,
offset on a difference, delete_max on argmin, swap of the two labels a sum
or mean of two names) does not list that question:
it is not an equivariance edit for it. ``zoom`` (φ = identity) is the
invariance control every question carries.

| edit | data change |
| --- | --- |
| scale | multiply the question's series by c ∈ :data:`SCALE_FACTORS` |
| offset | add an integer Δ ≠ 0 to the question's series |
| delete_max | remove the category holding the maximum of the question's series |
| swap | exchange two category labels, one of them the answer (or the two the question names) |
| cycle | relabel all m categories by one m-cycle |
| zoom | change ``value_range`` only |

>>> import numpy as np
>>> from rend_equiv_dataset.figures.charts.data import ChartData, Family, Series
>>> from rend_equiv_dataset.figures.questions import Question
>>> chart = ChartData(Family.BAR, "t", ("A", "B", "C"), (Series("s", (10.0, 30.0, 20.0)),))
>>> delete_max(chart, Question("argmax", "s", ()), np.random.default_rng(0)).data.categories
('A', 'C')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from rend_equiv_dataset.figures.charts.data import ChartData, Series
from rend_equiv_dataset.figures.charts.families import family_of
from rend_equiv_dataset.figures.edits.registry import MAIN, MATCHED, OPERATORS, EditType, Proposal, register_edit
from rend_equiv_dataset.figures.questions import Question, answer
from rend_equiv_dataset.theory.detection import CYCLE, DELETE_MAX, OFFSET, SCALE, SWAP, ZOOM
from rend_equiv_dataset.transforms import Affine, LabelMap, Transform

__all__ = ["OPERATORS", "SCALE_FACTORS", "OFFSET_FRACTION", "ZOOM_HEADROOM", "Proposal", "Scale", "Offset",
           "DeleteMax", "Swap", "Cycle", "Zoom", "scale", "offset", "delete_max", "swap", "cycle", "zoom"]

SCALE_FACTORS: tuple[float, ...] = (0.5, 1.5, 2.0)
"""Scale factors c: short decimals, so scaled values stay exact to two decimals."""

OFFSET_FRACTION = (0.1, 0.35)
"""|Δ| is drawn as this fraction of the series maximum, then rounded to an integer."""

ZOOM_HEADROOM = (1.15, 1.8)
"""The zoomed axis top is this multiple of the value span (a range change, never a crop)."""


def _clean(value: float) -> float:
    """Drop float noise from arithmetic on short decimals (18.450000000000003 -> 18.45)."""
    return float(round(value, 6))


def _map_series(data: ChartData, name: str, fn: Callable[[float], float]) -> ChartData:
    series = tuple(
        Series(s.name, tuple(_clean(fn(v)) for v in s.values)) if s.name == name else s for s in data.series
    )
    return data.replace(series=series)


def scale(data: ChartData, question: Question, rng: np.random.Generator) -> Proposal | None:
    """Multiply the question's series by c (c ≠ 1, c > 0)."""
    factor = float(SCALE_FACTORS[int(rng.integers(len(SCALE_FACTORS)))])
    return Proposal(_map_series(data, question.series, lambda v: v * factor),
                    {"series": question.series, "factor": factor})


def offset(data: ChartData, question: Question, rng: np.random.Generator) -> Proposal | None:
    """Add an integer Δ ≠ 0 to the question's series, keeping every value positive."""
    values = data.values(question.series)
    delta = float(max(1, round(rng.uniform(*OFFSET_FRACTION) * max(values))))
    if rng.random() < 0.5 and min(values) - delta > 0:
        delta = -delta
    return Proposal(_map_series(data, question.series, lambda v: v + delta),
                    {"series": question.series, "delta": delta})


def delete_max(data: ChartData, question: Question, rng: np.random.Generator) -> Proposal | None:
    """Remove the category holding the current maximum of the question's series."""
    values = data.values(question.series)
    drop = values.index(max(values))
    deleted = data.categories[drop]
    if deleted in question.categories or len(data.categories) <= 2:
        return None
    keep = [i for i in range(len(data.categories)) if i != drop]
    edited = data.replace(
        categories=tuple(data.categories[i] for i in keep),
        series=tuple(Series(s.name, tuple(s.values[i] for i in keep)) for s in data.series),
        x_values=None if data.x_values is None else tuple(data.x_values[i] for i in keep),
    )
    return Proposal(edited, {"series": question.series, "deleted": deleted})


def _relabel(data: ChartData, mapping: Mapping[str, str]) -> ChartData:
    return data.replace(categories=tuple(mapping.get(c, c) for c in data.categories))


def swap(data: ChartData, question: Question, rng: np.random.Generator) -> Proposal | None:
    """Exchange two category labels: the two the question names, else the answer and another."""
    if len(question.categories) == 2:
        first, second = question.categories
    else:
        first = str(answer(data, question))
        others = [c for c in data.categories if c != first and c not in question.categories]
        second = others[int(rng.integers(len(others)))]
    mapping = {first: second, second: first}
    return Proposal(_relabel(data, mapping), {"labels": [first, second], "map": mapping})


def cycle(data: ChartData, question: Question, rng: np.random.Generator) -> Proposal | None:
    """Relabel all m categories by one m-cycle (paper §4.3, Corollary 6)."""
    if question.categories:
        return None
    order = [data.categories[int(i)] for i in rng.permutation(len(data.categories))]
    mapping = {label: order[(j + 1) % len(order)] for j, label in enumerate(order)}
    return Proposal(_relabel(data, mapping), {"cycle": order, "map": mapping})


def zoom(data: ChartData, question: Question, rng: np.random.Generator) -> Proposal | None:
    """Set an explicit value-axis range that shows every value; data and answer unchanged.

    What the range means is the family's (:meth:`~rend_equiv_dataset.figures.charts.families.base.ChartFamily.zoom_range`):
    bars and stacks keep a zero baseline, lines and scatters may start above zero, and a
    pie, which has no value axis, takes total / ``value_range[1]`` of its full radius.
    """
    low, top = family_of(data).zoom_range(data, rng, ZOOM_HEADROOM)
    return Proposal(data.replace(value_range=(low, top)), {"value_range": [low, top]})


# --- answer-transforms φ_g: (base data, question, edit params) -> φ_g; paper §3 Eq. 1 --------------

def _phi_scale(data: ChartData, q: Question, p: Mapping[str, Any]) -> Transform:
    return Affine(p["factor"], 0.0)


def _phi_offset(data: ChartData, q: Question, p: Mapping[str, Any]) -> Transform:
    return Affine(1.0, p["delta"])


def _phi_offset_sum(data: ChartData, q: Question, p: Mapping[str, Any]) -> Transform:
    return Affine(1.0, len(data.categories) * p["delta"])


def _phi_offset_named(data: ChartData, q: Question, p: Mapping[str, Any]) -> Transform:
    return Affine(1.0, len(q.categories) * p["delta"])


def _phi_delete_max_label(data: ChartData, q: Question, p: Mapping[str, Any]) -> Transform:
    ranked = sorted(zip(data.values(q.series), data.categories), reverse=True)
    return LabelMap.from_pairs({ranked[0][1]: ranked[1][1]})


def _phi_delete_max_share(data: ChartData, q: Question, p: Mapping[str, Any]) -> Transform:
    total = sum(data.values(q.series))
    return Affine(total / (total - max(data.values(q.series))), 0.0)


def _phi_relabel(data: ChartData, q: Question, p: Mapping[str, Any]) -> Transform:
    return LabelMap.from_pairs(dict(p["map"]))


# --- the registered edit types, in the order edits are listed on an instance ----------------------

@register_edit
class Scale(EditType):
    """Multiply the question's series by c: φ = a ↦ c·a on values, differences, sums and means."""

    name = "scale"
    propose = staticmethod(scale)
    phi_rules = {"value": _phi_scale, "difference": _phi_scale, "sum": _phi_scale, "sum_of": _phi_scale,
                 "mean": _phi_scale, "mean_of": _phi_scale}
    theory = SCALE


@register_edit
class Offset(EditType):
    """Add Δ to the question's series: φ = a ↦ a + Δ on values, means and the difference of that series
    minus another, a ↦ a + nΔ on sums of n values."""

    name = "offset"
    propose = staticmethod(offset)
    phi_rules = {"value": _phi_offset, "sum": _phi_offset_sum, "sum_of": _phi_offset_named, "mean": _phi_offset,
                 "mean_of": _phi_offset, "series_difference": _phi_offset}
    theory = OFFSET


@register_edit
class DeleteMax(EditType):
    """Delete the maximum: argmax moves to the runner-up; a pie share is rescaled by S/(S − max)."""

    name = "delete_max"
    propose = staticmethod(delete_max)
    phi_rules = {"argmax": _phi_delete_max_label, "share": _phi_delete_max_share}
    point_change = -1
    theory = DELETE_MAX


@register_edit
class Swap(EditType):
    """Exchange two labels: φ is that transposition on argmax, argmin and both compare answers."""

    name = "swap"
    propose = staticmethod(swap)
    phi_rules = {"argmax": _phi_relabel, "argmin": _phi_relabel, "compare": _phi_relabel,
                 "compare_lower": _phi_relabel}
    suites = frozenset({MAIN, MATCHED})
    theory = SWAP


@register_edit
class Cycle(EditType):
    """Relabel all m categories by one m-cycle (matched set only: paper §4.3, Corollary 6)."""

    name = "cycle"
    propose = staticmethod(cycle)
    phi_rules = {"argmax": _phi_relabel, "argmin": _phi_relabel}
    suites = frozenset({MATCHED})
    theory = CYCLE


@register_edit
class Zoom(EditType):
    """Change the value-axis range only: φ = identity, the invariance control of every instance."""

    name = "zoom"
    propose = staticmethod(zoom)
    invariance = True
    suites = frozenset({MAIN, MATCHED})
    theory = ZOOM
