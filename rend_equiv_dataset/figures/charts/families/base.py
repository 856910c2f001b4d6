"""The chart-family object: everything that differs between families, in one class per family.

A :class:`ChartFamily` subclass holds, for one :class:`~rend_equiv_dataset.figures.charts.data.Family`:

- how its data is sampled (``sample``, ``category_counts``) and which question
  types its template slots ask (``question_cycle``; ``lookup`` names the
  question that reads one category's value: ``"value"``, or ``"share"`` on a pie);
- how it is drawn (``draw``; ``shows_legend``, ``category_ticks``,
  ``lies_horizontal`` and ``frame_margins`` for the shared layout);
- what zoom means for it (``has_value_axis``, ``zoom_range``) and which values
  its value axis must show (``value_span``, ``shown_values``);
- its own legibility check (``hidden_marks``);
- what a table must hold to be drawn as it (``table_problem``, ``x_column``).

Decorating a subclass with :func:`register_family` files it under its
``family``; every caller asks :func:`family_of` instead of comparing families.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

import numpy as np

from rend_equiv_dataset.figures.charts.data import ChartData, Family
from rend_equiv_dataset.figures.charts.styles import Style

if TYPE_CHECKING:
    from matplotlib.figure import Figure


class ChartFamily:
    """One chart family. Subclass it, set the class attributes, and decorate with :func:`register_family`."""

    family: ClassVar[Family]
    category_counts: ClassVar[tuple[int, int]]
    """Inclusive range of the number of categories a sampled chart has."""
    question_cycle: ClassVar[tuple[str, ...]]
    """Question type of each template slot: slot k asks ``question_cycle[k % len(question_cycle)]``."""
    lookup: ClassVar[str] = "value"
    """The question type that reads one category's value (a pie is read as shares)."""
    has_value_axis: ClassVar[bool] = True
    """Whether ``value_range`` sets value-axis limits (else it sets how much of the frame the chart fills)."""
    category_ticks: ClassVar[bool] = True
    """Whether the categories are tick labels along an axis (scatter points and pie slices carry their own)."""
    lies_horizontal: ClassVar[bool] = False
    """Whether a horizontal style turns the chart (categories on the vertical axis)."""
    shows_legend: ClassVar[bool] = True
    """Whether several series get a legend (pie slices are labelled in place)."""
    x_column: ClassVar[bool] = False
    """Whether the first value column of a table gives the x coordinate of each point (scatter)."""

    @staticmethod
    def sample(rng: np.random.Generator, m: int, /) -> ChartData:
        """Seeded chart data of this family with ``m`` categories."""
        raise NotImplementedError

    def draw(self, fig: Figure, ax: Any, data: ChartData, style: Style) -> None:
        """Draw ``data`` on ``ax`` (margins, legend and title placement are the renderer's)."""
        raise NotImplementedError

    def hidden_marks(self, fig: Figure, data: ChartData, style: Style) -> list[str]:
        """Marks of the drawn figure too small to see (empty when every mark shows)."""
        return []

    def frame_margins(self, left: float, right: float, bottom: float, top: float,
                      font_in: float, longest: int) -> tuple[float, float, float, float]:
        """Margins in inches (left, right, bottom, top), given those of an axes chart."""
        return left, right, bottom, top

    def shown_values(self, data: ChartData) -> list[float]:
        """Every value the value axis must show."""
        return [v for s in data.series for v in s.values]

    def value_span(self, data: ChartData) -> float:
        """Largest magnitude the value axis must show."""
        return max(abs(v) for s in data.series for v in s.values)

    def zoom_range(self, data: ChartData, rng: np.random.Generator,
                   headroom: tuple[float, float]) -> tuple[float, float]:
        """The value range the zoom edit sets: zero-based, ``headroom`` times the span, in whole numbers."""
        return 0.0, float(np.ceil(self.value_span(data) * rng.uniform(*headroom)))

    def table_problem(self, n_series: int, values: Sequence[float]) -> str | None:
        """Why a table of ``n_series`` value columns holding ``values`` cannot be drawn as this family."""
        return None


FAMILY_KINDS: dict[Family, ChartFamily] = {}
"""Family -> its registered object, in registration order."""

F = TypeVar("F", bound=type[ChartFamily])


def register_family(cls: F) -> F:
    """Class decorator: register a chart family under ``cls.family``."""
    family = cls.__dict__.get("family")
    if not isinstance(family, Family):
        raise ValueError(f"{cls.__name__} needs a class attribute family (a Family member)")
    if family in FAMILY_KINDS:
        raise ValueError(f"the {family.value} family is already registered")
    if cls.sample is ChartFamily.sample or cls.draw is ChartFamily.draw:
        raise ValueError(f"{cls.__name__} needs sample(rng, m) and draw(fig, ax, data, style)")
    FAMILY_KINDS[family] = cls()
    return cls


def family_of(chart: ChartData | Family | str) -> ChartFamily:
    """The family object of a chart (or of a family or its name).

    >>> from rend_equiv_dataset.figures.charts import families  # registers the six families
    >>> family_of("pie").lookup, family_of(Family.LINE).has_value_axis
    ('share', True)
    """
    family = chart.family if isinstance(chart, ChartData) else Family(chart)
    return FAMILY_KINDS[family]
