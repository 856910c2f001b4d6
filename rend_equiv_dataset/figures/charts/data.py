"""The chart data model: what a chart shows, independent of how it is drawn.

Every other part reads charts through these types: the question templates
compute exact answers from them, the edits transform them, the renderer
draws them, and table import (bring-your-own-data) builds them.

>>> chart = ChartData(
...     family=Family.BAR, title="Exports by country", categories=("France", "Japan"),
...     series=(Series("Exports", (12.0, 30.5)),), x_label="Country", y_label="Exports", unit="bn USD")
>>> chart.values("Exports")
(12.0, 30.5)
>>> ChartData.from_json(chart.to_json()) == chart
True
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from rend_equiv_dataset.errors import InputError


class Family(str, Enum):
    """The six chart families (docs/design.md §3.1)."""

    BAR = "bar"
    GROUPED_BAR = "grouped_bar"
    STACKED_BAR = "stacked_bar"
    LINE = "line"
    SCATTER = "scatter"
    PIE = "pie"


@dataclass(frozen=True)
class Series:
    """One named data series: one value per category, in category order."""

    name: str
    values: tuple[float, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "values", tuple(float(v) for v in self.values))
        for v in self.values:
            if not math.isfinite(v):
                raise InputError(f"series {self.name!r} has a non-finite value {v!r}", field="values")


@dataclass(frozen=True)
class ChartData:
    """The data behind one chart.

    Attributes:
        family: the chart family.
        title: chart title.
        categories: category labels (bars, x ticks, pie slices, scatter point labels), unique.
        series: one or more series, each with ``len(categories)`` values. Bar, line and
            pie charts of one series have one; grouped and stacked bars have several.
            A scatter chart has one series: the y value of each labelled point.
        x_label, y_label: axis titles (for a pie chart, ``y_label`` names the quantity).
        unit: unit of the values (``"%"``, ``"bn USD"``, ``""``), shown on the value axis.
        x_values: scatter only: the x coordinate of each labelled point.
        value_range: axis limits (low, high) of the value axis, or ``None`` for automatic;
            the zoom edit changes only this.
    """

    family: Family
    title: str
    categories: tuple[str, ...]
    series: tuple[Series, ...]
    x_label: str = ""
    y_label: str = ""
    unit: str = ""
    x_values: tuple[float, ...] | None = None
    value_range: tuple[float, float] | None = None
    extra: tuple[tuple[str, str], ...] = field(default=())

    def __post_init__(self) -> None:
        object.__setattr__(self, "family", Family(self.family))
        object.__setattr__(self, "categories", tuple(self.categories))
        object.__setattr__(self, "series", tuple(self.series))
        if len(self.categories) < 2:
            raise InputError(f"a chart needs at least 2 categories, got {len(self.categories)}", field="categories")
        if len(set(self.categories)) != len(self.categories):
            raise InputError("category labels must be unique", field="categories")
        if not self.series:
            raise InputError("a chart needs at least one series", field="series")
        for s in self.series:
            if len(s.values) != len(self.categories):
                raise InputError(
                    f"series {s.name!r} has {len(s.values)} values for {len(self.categories)} categories",
                    field="series",
                )
        if self.x_values is not None:
            object.__setattr__(self, "x_values", tuple(float(x) for x in self.x_values))
            if len(self.x_values) != len(self.categories):
                raise InputError("x_values must have one value per category", field="x_values")
        if self.value_range is not None:
            low, high = (float(v) for v in self.value_range)
            if not low < high:
                raise InputError(f"value_range must have low < high, got {self.value_range}", field="value_range")
            object.__setattr__(self, "value_range", (low, high))

    @property
    def series_names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.series)

    def values(self, series: str | None = None) -> tuple[float, ...]:
        """Values of the named series (the first when ``series`` is None)."""
        if series is None:
            return self.series[0].values
        for s in self.series:
            if s.name == series:
                return s.values
        raise KeyError(series)

    def replace(self, **changes: Any) -> ChartData:
        """A copy with some fields changed (validated again)."""
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        return {
            "family": self.family.value,
            "title": self.title,
            "categories": list(self.categories),
            "series": [{"name": s.name, "values": list(s.values)} for s in self.series],
            "x_label": self.x_label,
            "y_label": self.y_label,
            "unit": self.unit,
            "x_values": None if self.x_values is None else list(self.x_values),
            "value_range": None if self.value_range is None else list(self.value_range),
            "extra": dict(self.extra),
        }

    def to_json(self) -> str:
        """Canonical JSON (stable key order), as stored in the release."""
        return json.dumps(self.to_dict(), allow_nan=False, sort_keys=True)

    @classmethod
    def from_dict(cls, payload: dict[str, Any]) -> ChartData:
        try:
            return cls(
                family=Family(payload["family"]),
                title=payload["title"],
                categories=tuple(payload["categories"]),
                series=tuple(Series(s["name"], tuple(s["values"])) for s in payload["series"]),
                x_label=payload.get("x_label", ""),
                y_label=payload.get("y_label", ""),
                unit=payload.get("unit", ""),
                x_values=None if payload.get("x_values") is None else tuple(payload["x_values"]),
                value_range=None if payload.get("value_range") is None else tuple(payload["value_range"]),
                extra=tuple(sorted((payload.get("extra") or {}).items())),
            )
        except KeyError as err:
            raise InputError("missing key in chart data", field=str(err.args[0])) from None
        except ValueError as err:
            raise InputError(str(err), field="family") from None

    @classmethod
    def from_json(cls, text: str) -> ChartData:
        from rend_equiv_dataset.io import parse_json

        payload = parse_json(text)
        if not isinstance(payload, dict):
            raise InputError(f"expected a JSON object, got {type(payload).__name__}", field="data")
        return cls.from_dict(payload)
