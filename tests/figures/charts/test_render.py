"""The renderer: readable, legible, deterministic images of every family."""

import io

import matplotlib
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from rend_equiv_dataset.figures.charts.data import ChartData, Family, Series
from rend_equiv_dataset.figures.charts.families import family_of
from rend_equiv_dataset.figures.charts.render import (
    DPI,
    IllegibleChartError,
    draw,
    format_number,
    legibility_problems,
    render,
    value_decimals,
)
from rend_equiv_dataset.figures.charts.styles import base_style, rerender_styles

CATEGORIES = ("Norway", "Brazil", "Japan", "Kenya", "Canada")
CHARTS = {
    Family.BAR: ChartData(Family.BAR, "Exports", CATEGORIES, (Series("Exports", (12.5, 30.0, 22.25, 8.0, 17.5)),),
                          x_label="Country", y_label="Exports", unit="bn USD"),
    Family.GROUPED_BAR: ChartData(Family.GROUPED_BAR, "Revenue", CATEGORIES[:4],
                                  (Series("2023", (12, 30, 22, 8)), Series("2024", (14, 28, 25, 9))),
                                  x_label="Region", y_label="Revenue", unit="m EUR"),
    Family.STACKED_BAR: ChartData(Family.STACKED_BAR, "Energy", CATEGORIES[:4],
                                  (Series("Coal", (12, 30, 22, 18)), Series("Gas", (14, 28, 25, 19))),
                                  x_label="Country", y_label="Output", unit="TWh"),
    Family.LINE: ChartData(Family.LINE, "Visitors", ("Jan", "Feb", "Mar", "Apr"),
                           (Series("Visitors", (1200, 1350, 1100, 1600)),), x_label="Month", y_label="Visitors"),
    Family.SCATTER: ChartData(Family.SCATTER, "Height and weight", CATEGORIES,
                              (Series("Weight", (60, 72, 55, 80, 68)),), x_values=(160, 175, 150, 185, 170),
                              x_label="Height", y_label="Weight", unit="kg"),
    Family.PIE: ChartData(Family.PIE, "Share", CATEGORIES[:4], (Series("Share", (35, 25, 20, 20)),), unit="%"),
}


def _pixels(png):
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


def _texts(data, style):
    fig = draw(data, style)
    fig.canvas.draw()
    return [t.get_text() for t in fig.axes[0].texts], fig


@pytest.mark.parametrize("family", list(Family))
def test_every_family_renders_deterministic_rgb_png_of_the_styled_size(family):
    data = CHARTS[family]
    for style in [base_style(), *rerender_styles(0, 0, 2, family_of(family).lies_horizontal)]:
        result = render(data, style)
        image = Image.open(io.BytesIO(result.png))
        assert image.mode == "RGB"
        width, height = (round(v * result.style.canvas_scale * DPI) for v in style.figure_size)
        assert image.size == result.size == (width, height)
        assert render(data, style).png == result.png


@pytest.mark.parametrize("family", list(Family))
def test_the_png_holds_exactly_the_drawn_pixels(family):
    result = render(CHARTS[family], base_style())
    fig = draw(CHARTS[family], result.style)
    fig.canvas.draw()
    drawn = np.asarray(fig.canvas.buffer_rgba())[:, :, :3]
    assert np.array_equal(_pixels(result.png), drawn)
    assert result.png.startswith(b"\x89PNG\r\n\x1a\n") and result.png.endswith(b"IEND\xaeB`\x82")


def _assert_reuse_draws_fresh_figures(jobs):
    """Rendered in order and in reverse (so each job reuses what another left), every image is the
    same, and equals a fresh figure's."""
    from rend_equiv_dataset.figures.charts.render import _encode

    first = [render(data, style) for data, style in jobs]
    again = [render(data, style) for data, style in reversed(jobs)][::-1]
    assert [r.png for r in again] == [r.png for r in first]
    for (data, _), result in zip(jobs, first):
        fresh = draw(data, result.style)
        fresh.canvas.draw()
        assert _encode(fresh)[0] == result.png, (data.family, result.style.style_id)


def test_an_image_does_not_depend_on_what_the_process_rendered_before():
    """render() reuses a figure and its axes per family and orientation, resized to each style's
    canvas: its bytes must equal a fresh figure's, in any order."""
    jobs = [(data, style) for data in CHARTS.values()
            for style in [base_style(), *rerender_styles(0, 1, 6, family_of(data).lies_horizontal)]]
    assert len({style.figure_size for _, style in jobs}) > 2  # the reused figures change size
    _assert_reuse_draws_fresh_figures(jobs)


def test_reused_axes_draw_other_data_as_a_fresh_figure_would():
    """An instance's edits (other categories, series, values, zoom) drawn on the axes its base or
    another edit left behind give the bytes of a fresh figure."""
    from rend_equiv_dataset.figures.generate import generate_instances

    jobs = [(chart, style) for instance in generate_instances(0, per_family=1)
            for chart in [instance.data, *(edit.data for edit in instance.edits)]
            for style in (base_style(), *rerender_styles(0, 1, 1, family_of(chart).lies_horizontal))]
    _assert_reuse_draws_fresh_figures(jobs)


@pytest.mark.parametrize("family", list(Family))
def test_rerenderings_look_different_from_the_base(family):
    base = _pixels(render(CHARTS[family], base_style()).png)
    for style in rerender_styles(0, 1, 3, family_of(family).lies_horizontal):
        other = _pixels(render(CHARTS[family], style).png)
        assert other.shape != base.shape or (other != base).any()


@pytest.mark.parametrize("family", [Family.BAR, Family.GROUPED_BAR, Family.STACKED_BAR, Family.LINE])
def test_every_value_is_printed_on_value_charts(family):
    data = CHARTS[family]
    decimals = value_decimals(data)
    for style in [base_style(), *rerender_styles(0, 2, 3, family_of(family).lies_horizontal)]:
        texts, _ = _texts(data, render(data, style).style)
        expected = [format_number(v, decimals, style.number_format) for s in data.series for v in s.values]
        assert sorted(texts) == sorted(expected)


def test_scatter_points_carry_label_and_value_and_pie_slices_are_named():
    texts, _ = _texts(CHARTS[Family.SCATTER], base_style())
    assert sorted(texts) == sorted(f"{c}: {v:.0f}" for c, v in zip(CATEGORIES, (60, 72, 55, 80, 68)))
    texts, _ = _texts(CHARTS[Family.PIE], base_style())
    for category, value in zip(CATEGORIES[:4], (35, 25, 20, 20)):
        assert category in texts
        assert f"{value}%" in texts  # values in percent: one percentage, not value and share


@pytest.mark.parametrize("family, orientation", [(Family.BAR, "vertical"), (Family.BAR, "horizontal"),
                                                 (Family.STACKED_BAR, "horizontal"), (Family.LINE, "vertical"),
                                                 (Family.SCATTER, "vertical")])
def test_value_range_sets_exactly_the_value_axis_limits(family, orientation):
    style = base_style().__class__(orientation=orientation)
    zoomed = CHARTS[family].replace(value_range=(-5.0, 2500.0))
    texts, fig = _texts(zoomed, style)
    ax = fig.axes[0]
    limits = ax.get_xlim() if orientation == "horizontal" else ax.get_ylim()
    assert limits == (-5.0, 2500.0)
    assert sorted(texts) == sorted(_texts(CHARTS[family], style)[0])


def test_value_range_changes_the_image_of_a_bar_chart():
    data = CHARTS[Family.BAR]
    assert render(data, base_style()).png != render(data.replace(value_range=(0.0, 100.0)), base_style()).png


def test_overlapping_or_clipped_text_is_reported():
    fig = draw(CHARTS[Family.BAR], base_style())
    fig.canvas.draw()
    assert legibility_problems(fig) == []
    ax = fig.axes[0]
    title = ax.title.get_window_extent(fig.canvas.get_renderer())
    ax.annotate("Exports", ((title.x0 + title.x1) / 2, (title.y0 + title.y1) / 2), xycoords="figure pixels")
    ax.annotate("far away", (2000, 2000), xycoords="figure pixels")
    fig.canvas.draw()
    problems = legibility_problems(fig)
    assert any("overlaps" in p for p in problems)
    assert any("'far away' is clipped" in p for p in problems)


def test_long_labels_are_relaid_out_until_legible():
    names = tuple(f"Department of {w}" for w in ("Finance", "Research", "Operations", "Logistics", "Marketing", "Legal"))
    data = ChartData(Family.BAR, "Budget", names, (Series("Budget", (10, 20, 30, 40, 50, 60)),))
    crowded = draw(data, base_style())
    crowded.canvas.draw()
    assert legibility_problems(crowded)  # the first layout fails ...
    result = render(data, base_style())
    assert (result.style.tick_rotation, result.style.canvas_scale) != (0.0, 1.0)  # ... so it was re-laid out
    fixed = draw(data, result.style)
    fixed.canvas.draw()
    assert legibility_problems(fixed) == []


def test_an_impossible_chart_raises_instead_of_emitting_an_illegible_image():
    names = tuple(f"An extremely long slice name number {i}" for i in range(40))
    data = ChartData(Family.PIE, "Too many slices", names, (Series("v", tuple(range(1, 41))),))
    with pytest.raises(IllegibleChartError, match="not legible"):
        render(data, base_style())


@settings(max_examples=8)
@given(
    family=st.sampled_from([Family.BAR, Family.GROUPED_BAR, Family.LINE, Family.SCATTER]),
    n=st.integers(2, 7),
    seed=st.integers(0, 1000),
)
def test_render_never_returns_an_image_that_fails_the_legibility_check(family, n, seed):
    rng = np.random.default_rng(seed)
    n_series = 2 if family is Family.GROUPED_BAR else 1
    series = tuple(Series(f"S{j}", tuple(np.round(rng.uniform(1, 500, n), 1))) for j in range(n_series))
    x_values = tuple(np.round(rng.uniform(0, 50, n), 1)) if family is Family.SCATTER else None
    data = ChartData(family, "Random", tuple(f"Item {i}" for i in range(n)), series, x_values=x_values)
    style = rerender_styles(seed, n, 1, family_of(family).lies_horizontal)[0]
    try:
        result = render(data, style)
    except IllegibleChartError:
        return  # refusing is allowed (the build then draws another style); emitting an illegible image is not
    fig = draw(data, result.style)
    fig.canvas.draw()
    assert legibility_problems(fig) == []


def test_rendering_leaves_the_callers_matplotlib_settings_alone():
    expected = render(CHARTS[Family.LINE], base_style()).png
    with matplotlib.rc_context({"font.size": 23.0, "lines.linewidth": 9.0}):
        assert render(CHARTS[Family.LINE], base_style()).png == expected
        assert matplotlib.rcParams["font.size"] == 23.0


def test_a_configured_process_draws_the_same_bytes_without_resetting_settings():
    from rend_equiv_dataset.figures.charts.render import configure_matplotlib

    expected = [render(data, base_style()).png for data in CHARTS.values()]
    with matplotlib.rc_context():
        configure_matplotlib()  # what a warmed-up worker has: render() then skips its own reset
        assert [render(data, base_style()).png for data in CHARTS.values()] == expected
        matplotlib.rcParams["lines.linewidth"] = 9.0  # changed after configuration: reset again per image
        assert render(CHARTS[Family.LINE], base_style()).png == expected[list(CHARTS).index(Family.LINE)]
        assert matplotlib.rcParams["lines.linewidth"] == 9.0


def test_number_formats():
    assert format_number(1234.5, 1, "comma") == "1,234.5"
    assert format_number(1234.5, 2, "plain") == "1234.50"
    assert format_number(-0.001, 1, "plain") == "0"
    chart = ChartData(Family.BAR, "t", ("a", "b"), (Series("s", (1.0, 2.125)),))
    assert value_decimals(chart) == 3
    assert value_decimals(chart.replace(series=(Series("s", (1.0, 2.0)),))) == 0
