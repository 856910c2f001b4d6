"""Drawing real tables: long labels wrap, pie labels show one percentage, ticks print exactly,
and an outlier that hides other bars fails the legibility check."""

import pytest

from rend_equiv_dataset.figures.charts.data import ChartData, Family, Series
from rend_equiv_dataset.figures.charts.render import (
    IllegibleChartError,
    WRAP_CATEGORY_CHARS,
    draw,
    missing_glyphs,
    render,
    wrap,
)
from rend_equiv_dataset.figures.charts.styles import base_style


def _texts(fig):
    fig.canvas.draw()
    ax = fig.axes[0]
    return ax, [t.get_text() for t in ax.texts]


def test_long_category_and_axis_labels_wrap_and_stay_legible():
    labels = ("Adults who use the internet daily", "Adults who never use the internet",
              "Adults who use it several times a week", "Other answers")
    chart = ChartData(Family.BAR, "Internet use among adults in the European Union member states, 2023 survey",
                      labels, (Series("Share of adults who answered this way in the survey", (61.0, 9.0, 25.0, 5.0)),),
                      x_label="Answer", y_label="Share of adults who answered this way in the survey", unit="%")
    result = render(chart, base_style())  # would raise IllegibleChartError if anything were clipped
    assert result.size[0] >= 640
    fig = draw(chart, base_style())
    ax, _ = _texts(fig)
    ticks = [t.get_text() for t in ax.get_xticklabels()]
    assert all(max(len(line) for line in t.split("\n")) <= WRAP_CATEGORY_CHARS for t in ticks)
    assert "\n" in ax.get_title() and "\n" in ax.get_ylabel()


def test_wrap_keeps_short_text_and_long_words():
    assert wrap("Japan", 16) == "Japan"
    assert wrap("Pneumonoultramicroscopic disease", 10) == "Pneumonoultramicroscopic\ndisease"


def test_pie_of_percentages_shows_one_percentage_per_slice():
    chart = ChartData(Family.PIE, "Shipments", ("Samsung", "Apple", "Xiaomi", "Others"),
                      (Series("Share", (20.1, 17.3, 13.5, 48.9)),), unit="%")
    _, texts = _texts(draw(chart, base_style()))
    assert texts[4:] == ["20.1%", "17.3%", "13.5%", "48.9%"]  # after the four slice names
    counts = chart.replace(unit="", series=(Series("Units", (2.0, 1.0, 1.0, 4.0)),))
    _, texts = _texts(draw(counts, base_style()))
    assert texts[4:] == ["2\n(25.0%)", "1\n(12.5%)", "1\n(12.5%)", "4\n(50.0%)"]


def test_value_ticks_print_every_tick_exactly():
    chart = ChartData(Family.BAR, "Growth", ("A", "B", "C"), (Series("Growth", (-11.3, -3.7, 6.2)),), unit="%")
    fig = draw(chart, base_style())
    fig.canvas.draw()
    ax = fig.axes[0]
    for tick, loc in zip(ax.get_yticklabels(), ax.get_yticks()):
        if tick.get_text():
            assert float(tick.get_text().replace(",", "")) == pytest.approx(loc)


def test_an_outlier_that_hides_the_other_bars_is_illegible():
    chart = ChartData(Family.BAR, "Revenue", ("A", "B", "C", "D"), (Series("Revenue", (50000.0, 3.0, 2.0, 4.0)),))
    with pytest.raises(IllegibleChartError, match="outlier hides it"):
        render(chart, base_style())
    render(chart.replace(series=(Series("Revenue", (50.0, 3.0, 2.0, 4.0)),)), base_style())


def test_characters_no_font_draws_are_found():
    chart = ChartData(Family.BAR, "t", ("\U00010000", "b"), (Series("s", (1.0, 2.0)),))
    assert missing_glyphs(chart) == "\U00010000"
    with pytest.raises(IllegibleChartError, match="no installed font draws"):
        render(chart, base_style())
