"""Cosmetic styles: how a chart looks, never what it says (docs/design.md §3.2).

A :class:`Style` is a small frozen record of every cosmetic choice the
renderer makes. The invariance set of an instance is its base style plus K
re-renderings drawn deterministically from ``(seed, index)`` (docs/design.md §6), each
differing from the base and from each other in palette, font size, canvas
size and aspect, gridlines, bar width, markers, legend placement, background,
number format and, for bar families, orientation. Styles never touch the
data, so every re-rendering has the base's exact answer.

>>> base = base_style()
>>> base.style_id, base.orientation
('base', 'vertical')
>>> styles = rerender_styles(seed=0, index=3, k=8, orientable=True)
>>> len(styles), len({s.key() for s in styles}), base.key() in {s.key() for s in styles}
(8, 8, False)
>>> styles == rerender_styles(seed=0, index=3, k=8, orientable=True)
True
>>> Style.from_json(styles[0].to_json()) == styles[0]
True
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

import numpy as np

from rend_equiv_dataset.errors import InputError

# Palettes of mid-to-dark colours that stay distinct from every background below.
PALETTES: dict[str, tuple[str, ...]] = {
    "tab10": ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"),
    "dark2": ("#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#666666"),
    "set1": ("#e41a1c", "#377eb8", "#4daf4a", "#984ea3", "#ff7f00", "#a65628", "#f781bf", "#999999"),
    "okabe_ito": ("#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#f0e442", "#000000"),
    "deep": ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3", "#8c8c8c"),
    "muted": ("#4878d0", "#ee854a", "#6acc64", "#d65f5f", "#956cb4", "#8c613c", "#dc7ec0", "#797979"),
}
BACKGROUNDS: tuple[str, ...] = ("#ffffff", "#f7f7f7", "#fdf6e3", "#eef2f7", "#f4f1ea")
FONT_SIZES: tuple[float, ...] = (8.5, 9.0, 10.0, 11.0)
FIGURE_SIZES: tuple[tuple[float, float], ...] = ((6.4, 4.8), (7.2, 4.5), (5.8, 4.8), (8.0, 5.0), (6.4, 6.0))
GRIDS: tuple[str, ...] = ("none", "value", "both")
GRID_LINESTYLES: tuple[str, ...] = ("-", "--", ":")
BAR_WIDTHS: tuple[float, ...] = (0.5, 0.6, 0.7, 0.8)
MARKERS: tuple[str, ...] = ("o", "s", "^", "D")
LINE_WIDTHS: tuple[float, ...] = (1.5, 2.0, 2.5)
LEGEND_LOCATIONS: tuple[str, ...] = ("right", "top", "bottom")
NUMBER_FORMATS: tuple[str, ...] = ("plain", "comma")
ORIENTATIONS: tuple[str, ...] = ("vertical", "horizontal")
SPINES: tuple[str, ...] = ("all", "open")
TITLE_WEIGHTS: tuple[str, ...] = ("bold", "normal")
PIE_START_ANGLES: tuple[float, ...] = (90.0, 0.0, 140.0)

# Keeps the style stream apart from the data stream SeedSequence(seed, spawn_key=(index,)).
_STYLE_STREAM = 0x5717


@dataclass(frozen=True)
class Style:
    """Every cosmetic choice of one rendering.

    ``tick_rotation``, ``font_scale`` and ``canvas_scale`` are layout fixes the
    renderer applies when a first layout is not legible; they start neutral.
    """

    style_id: str = "base"
    palette: str = "tab10"
    background: str = "#ffffff"
    font_size: float = 10.0
    figure_size: tuple[float, float] = (6.4, 4.8)
    grid: str = "value"
    grid_linestyle: str = "-"
    bar_width: float = 0.7
    marker: str = "o"
    line_width: float = 2.0
    legend_location: str = "right"
    number_format: str = "plain"
    orientation: str = "vertical"
    spines: str = "all"
    title_weight: str = "bold"
    pie_start_angle: float = 90.0
    tick_rotation: float = 0.0
    font_scale: float = 1.0
    canvas_scale: float = 1.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "figure_size", tuple(float(v) for v in self.figure_size))
        for name, allowed in _CHOICES.items():
            if getattr(self, name) not in allowed:
                raise InputError(f"must be one of {sorted(allowed)}, got {getattr(self, name)!r}", field=name)
        if not 0.1 <= self.font_scale <= 2.0 or not 0.5 <= self.canvas_scale <= 3.0:
            raise InputError("layout scales out of range", field="font_scale")

    @property
    def colors(self) -> tuple[str, ...]:
        return PALETTES[self.palette]

    def key(self) -> tuple[Any, ...]:
        """The cosmetic choices without the id: two styles with equal keys look the same."""
        return tuple(getattr(self, f.name) for f in fields(self) if f.name != "style_id")

    def with_layout(self, *, tick_rotation: float | None = None, font_scale: float | None = None,
                    canvas_scale: float | None = None) -> Style:
        """The same style with a layout fix applied."""
        return replace(
            self,
            tick_rotation=self.tick_rotation if tick_rotation is None else tick_rotation,
            font_scale=self.font_scale if font_scale is None else font_scale,
            canvas_scale=self.canvas_scale if canvas_scale is None else canvas_scale,
        )

    def to_dict(self) -> dict[str, Any]:
        payload = asdict(self)
        payload["figure_size"] = list(self.figure_size)
        return payload

    def to_json(self) -> str:
        """Canonical JSON (sorted keys), as stored in the release."""
        return json.dumps(self.to_dict(), sort_keys=True, allow_nan=False)

    @classmethod
    def from_json(cls, text: str) -> Style:
        from rend_equiv_dataset.io import parse_json

        payload = parse_json(text)
        if not isinstance(payload, dict):
            raise InputError(f"expected a JSON object, got {type(payload).__name__}", field="style")
        unknown = set(payload) - {f.name for f in fields(cls)}
        if unknown:
            raise InputError(f"unknown style keys {sorted(unknown)}", field="style")
        return cls(**payload)


_CHOICES: dict[str, frozenset[Any]] = {
    "palette": frozenset(PALETTES),
    "grid": frozenset(GRIDS),
    "grid_linestyle": frozenset(GRID_LINESTYLES),
    "marker": frozenset(MARKERS),
    "legend_location": frozenset(LEGEND_LOCATIONS),
    "number_format": frozenset(NUMBER_FORMATS),
    "orientation": frozenset(ORIENTATIONS),
    "spines": frozenset(SPINES),
    "title_weight": frozenset(TITLE_WEIGHTS),
}


def base_style() -> Style:
    """The base style every instance and every edit is drawn in (paper §5: edits in the base style)."""
    return Style()


def style_rng(seed: int, index: int) -> np.random.Generator:
    """The style stream of instance ``(seed, index)``, independent of its data stream (docs/design.md §6)."""
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(index, _STYLE_STREAM))))


def sample_style(rng: np.random.Generator, style_id: str, orientable: bool) -> Style:
    """Draw one cosmetic style; orientation varies only where a horizontal layout is meaningful.

    ``orientable`` is the family's ``lies_horizontal`` (docs/design.md §3.2: "orientation where meaningful").
    """

    def pick(options: tuple[Any, ...]) -> Any:
        return options[int(rng.integers(len(options)))]

    orientation = pick(ORIENTATIONS) if orientable else "vertical"
    return Style(
        style_id=style_id,
        palette=pick(tuple(PALETTES)),
        background=pick(BACKGROUNDS),
        font_size=pick(FONT_SIZES),
        figure_size=pick(FIGURE_SIZES),
        grid=pick(GRIDS),
        grid_linestyle=pick(GRID_LINESTYLES),
        bar_width=pick(BAR_WIDTHS),
        marker=pick(MARKERS),
        line_width=pick(LINE_WIDTHS),
        legend_location=pick(LEGEND_LOCATIONS),
        number_format=pick(NUMBER_FORMATS),
        orientation=orientation,
        spines=pick(SPINES),
        title_weight=pick(TITLE_WEIGHTS),
        pie_start_angle=pick(PIE_START_ANGLES),
    )


def iter_styles(seed: int, index: int, orientable: bool) -> Iterator[Style]:
    """Distinct re-rendering styles of instance ``(seed, index)``, none equal to the base, in stream order.

    The renderer takes the first K that lay out legibly and skips any that do
    not (docs/design.md §3.2), so the sequence is the same in every process. Ids are
    assigned by the caller, by position among the accepted styles.
    """
    rng = style_rng(seed, index)
    seen = {base_style().key()}
    while True:
        style = sample_style(rng, "candidate", orientable)
        if style.key() not in seen:
            seen.add(style.key())
            yield style


def rerender_styles(seed: int, index: int, k: int, orientable: bool) -> list[Style]:
    """The first K candidate styles of instance ``(seed, index)``, with ids ``r1`` … ``rK``."""
    if k < 0:
        raise InputError(f"must be >= 0, got {k}", field="--rerenders")
    return [replace(style, style_id=f"r{n + 1}") for n, style in zip(range(k), iter_styles(seed, index, orientable))]
