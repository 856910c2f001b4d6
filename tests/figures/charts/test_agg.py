"""The text-caching canvas draws matplotlib's own pixels, in any order, across sizes and forked workers."""

import multiprocessing

import matplotlib
import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from rend_equiv_dataset.figures.charts import agg
from rend_equiv_dataset.figures.charts.agg import TextCachingCanvas
from rend_equiv_dataset.figures.charts.data import ChartData
from rend_equiv_dataset.figures.charts.families import family_of
from rend_equiv_dataset.figures.charts.render import configure_matplotlib, draw, installed_fallback_fonts, render
from rend_equiv_dataset.figures.charts.styles import base_style, rerender_styles
from rend_equiv_dataset.figures.generate import generate_instances

pytestmark = pytest.mark.skipif(not agg._FAST_TEXT, reason="this matplotlib draws text another way")


def _pixels(fig: Figure, canvas_class: type) -> bytes:
    canvas_class(fig)
    fig.canvas.draw()
    return bytes(fig.canvas.buffer_rgba())


def _charts() -> list[tuple[ChartData, object]]:
    """Every family, its edits (other labels and values) and re-renderings: rotated ticks, legends, sizes."""
    return [(chart, style) for instance in generate_instances(3, per_family=1)
            for chart in [instance.data, *(edit.data for edit in instance.edits[:3])]
            for style in (base_style(), *rerender_styles(3, 0, 3, family_of(chart).lies_horizontal))]


def test_every_family_draws_the_stock_canvas_pixels_byte_for_byte():
    with matplotlib.rc_context():
        configure_matplotlib()
        for chart, style in _charts():
            rendering = render(chart, style)  # the legible layout the build would use
            stock = _pixels(draw(chart, rendering.style), FigureCanvasAgg)
            fig = draw(chart, rendering.style)
            first, again = _pixels(fig, TextCachingCanvas), _pixels(fig, TextCachingCanvas)  # miss, then hits
            assert first == stock == again, (chart.family, rendering.style.style_id)


@pytest.mark.parametrize("text", ["Sales 2019/20", "Ünïcödé – €1,234.5\nsecond line", "売上高（百万円）",
                                  "mixed 年 text", "$x^2$ math"])
@pytest.mark.parametrize("rotation", [0, 90, 33])
def test_single_texts_match_the_stock_renderer_at_any_angle_size_and_weight(text, rotation):
    if any(ord(ch) > 0x2FFF for ch in text) and not installed_fallback_fonts():
        pytest.skip("no CJK font installed")
    with matplotlib.rc_context():
        configure_matplotlib()
        for size, weight in ((7, "normal"), (11.5, "bold"), (19, "normal")):
            def figure() -> Figure:
                fig = Figure(figsize=(3, 2), dpi=100)
                fig.text(0.3, 0.4, text, rotation=rotation, fontsize=size, fontweight=weight)
                return fig
            assert _pixels(figure(), TextCachingCanvas) == _pixels(figure(), FigureCanvasAgg), (size, weight)


def test_a_generic_family_follows_the_settings_of_the_moment():
    """'sans-serif' means whatever font.sans-serif says when drawn: neither the shaped runs nor the
    line metrics may be remembered across a change of that setting."""
    def pixels(canvas_class: type) -> bytes:
        fig = Figure(figsize=(3, 1), dpi=100)
        fig.text(0.1, 0.3, "Height 2019\nWeight", family="sans-serif", fontsize=14)
        return _pixels(fig, canvas_class)

    drawn = {}
    for fonts in (["DejaVu Sans"], ["DejaVu Serif"], ["DejaVu Sans"]):
        with matplotlib.rc_context({"font.sans-serif": fonts}):
            drawn.setdefault(fonts[0], set()).add(pixels(TextCachingCanvas))
            assert pixels(TextCachingCanvas) == pixels(FigureCanvasAgg)
    assert len(drawn["DejaVu Sans"]) == 1 and drawn["DejaVu Sans"] != drawn["DejaVu Serif"]


def test_one_canvas_reused_at_many_sizes_keeps_few_renderers_and_draws_each_size_afresh():
    fig = Figure(dpi=100)
    fig.text(0.1, 0.5, "label")
    canvas = TextCachingCanvas(fig)
    seen = {}
    for width in [2, 3, 4, 2, 5, 6, 7, 8, 9, 2, 3]:
        fig.set_size_inches(width, 1)
        canvas.draw()
        pixels = np.asarray(canvas.buffer_rgba()).copy()
        assert pixels.shape == (100, width * 100, 4)
        assert np.array_equal(pixels, seen.setdefault(width, pixels))
        assert len(canvas._renderers) <= agg._MAX_RENDERERS


_STARTED_WITHOUT_RUNS = None


def _note_runs_at_start() -> None:
    global _STARTED_WITHOUT_RUNS
    _STARTED_WITHOUT_RUNS = not agg._RUNS


def _render_in_child(jobs):  # type: ignore[no-untyped-def]
    return _STARTED_WITHOUT_RUNS, [render(chart, style).png for chart, style in jobs]


def test_forked_workers_draw_what_the_parent_draws_while_the_parent_holds_shaped_text():
    """FT2Font reads its file through a descriptor a forked child shares with its parent: two workers
    drawing with the parent's shaped runs corrupt each other's glyphs (FreeType "too many hints",
    "invalid outline", or wrong pixels). Every child starts with no runs of its own."""
    jobs = _charts()
    expected = [render(chart, style).png for chart, style in jobs]
    assert agg._RUNS
    halves = [jobs[0::2], jobs[1::2]] * 2
    with multiprocessing.get_context("fork").Pool(2, initializer=_note_runs_at_start) as pool:
        results = pool.map(_render_in_child, halves, chunksize=1)
    assert all(started_without_runs for started_without_runs, _ in results)
    drawn = [pngs for _, pngs in results]
    assert drawn[0] == expected[0::2] == drawn[2] and drawn[1] == expected[1::2] == drawn[3]


def test_where_the_fast_path_would_draw_other_pixels_matplotlib_draws_all_text(monkeypatch, caplog):
    """A matplotlib whose private text calls changed meaning is caught by the once-per-process check:
    every text is then drawn the stock way, so the images stay matplotlib's own."""
    monkeypatch.setattr(agg.TextCachingRenderer, "_draw_run", lambda self, *args: None)  # draws no glyph at all
    monkeypatch.setattr(agg, "_AGREES", None)
    def figure() -> Figure:
        fig = Figure(figsize=(3, 2), dpi=100)
        fig.text(0.2, 0.4, "Exports 2019", fontsize=12)
        return fig
    with caplog.at_level("WARNING"):
        assert _pixels(figure(), TextCachingCanvas) == _pixels(figure(), FigureCanvasAgg)
    assert agg._AGREES is False and "draws text differently" in caplog.text
    assert (TextCachingCanvas(figure()).get_renderer()._get_font_height_metrics(
        matplotlib.font_manager.FontProperties(family="DejaVu Sans")) == (None, None, None))
