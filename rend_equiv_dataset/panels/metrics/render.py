"""report.md and the figures of a panel report, drawn from the dict :func:`.panel_report.build_report` returns.

Rates, accuracies and gains are fractions everywhere, as in report.json and
the figure report (0.112, not 11.2% or +11.2pp): accuracies and rates with
four decimals, gains signed (+0.1120). Figures use matplotlib's
object-oriented API (no pyplot state) and PNGs carry no software stamp, so
the same report gives the same bytes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rend_equiv_dataset.reports import markdown_table


def _missing(value: float | None) -> bool:
    return value is None or math.isnan(value)


def _pct(value: float | None, digits: int = 4) -> str:
    """A rate or accuracy as a fraction.

    >>> _pct(0.8244), _pct(None)
    ('0.8244', '—')
    """
    return "—" if value is None or _missing(value) else f"{round(value, digits) + 0.0:.{digits}f}"  # + 0.0: no "-0.0000"


def _pp(value: float | None, digits: int = 4) -> str:
    """A gain (a difference of accuracies) as a signed fraction.

    >>> _pp(0.112), _pp(-0.0), _pp(float("nan"))
    ('+0.1120', '+0.0000', '—')
    """
    return "—" if value is None or _missing(value) else f"{round(value, digits) + 0.0:+.{digits}f}"


def _ci(ci: Sequence[float | None] | None, *, signed: bool = True) -> str:
    """An interval of fractions (signed, for gains).

    >>> _ci([-0.001, 0.0234]), _ci([0.1, 0.25], signed=False), _ci(None)
    ('[-0.0010, +0.0234]', '[0.1000, 0.2500]', '—')
    """
    if not ci:
        return "—"
    low, high = ci[0], ci[1]
    if _missing(low) or _missing(high):
        return "—"
    show = _pp if signed else _pct
    return f"[{show(low)}, {show(high)}]"


def _num(value: float | None, digits: int = 3) -> str:
    return "—" if value is None or (isinstance(value, float) and not math.isfinite(value)) else f"{value:.{digits}f}"


def _table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    return [*markdown_table(header, rows), ""]


def render_markdown(report: dict[str, Any]) -> str:
    """The report's tables in the paper's order (Tables 2, 4, 5, 3, 6, 7; Figures 2–3; Supplementary A)."""
    acc, piv, non = report["accuracy"], report["pivotal"], report["nonpivotal"]
    coverage = report.get("coverage")
    signal = f"coverage {coverage:.2f}" if coverage is not None else "signal given in the records"
    out = [f"# Panel report (k = {report['k']}, n = {report['n']}, {report['n_problems']} problems; {signal})", ""]
    out += ["## Uniform-random single-judge replacement (Table 2)", ""]
    out += _table(
        ["panel accuracy", "uniform accuracy", "overall gain", "pivotal n", "pivotal gain", "95% CI", "P(gain ≤ 0)", "non-pivotal n", "non-pivotal gain"],
        [[_pct(acc["panel"]), _pct(acc["uniform"]), _pp(report["overall_gain"]), piv["n"], _pp(piv["gain"]), _ci(piv["ci"]),
          _num(piv["p_gain_le_zero"], 4), non["n"], _pp(non["gain"], 4)]],
    )
    errors = report["errors"]
    out += [f"Panel errors: {errors['total']} ({errors['pivotal']} pivotal, {errors['nonpivotal']} non-pivotal). "
            f"On pivotal queries the panel is right {_pct(piv['panel_accuracy'])} and the signal {_pct(piv['signal_accuracy'])} of the time.", ""]
    neff, phi = report["n_eff"], report["phi"]
    out += ["## Aggregate and conditional diagnostics (Table 4)", ""]
    out += _table(
        ["diagnostic", "value"],
        [
            ["n_eff, panel", _num(neff["panel"], 2)],
            ["n_eff, signal replacing one judge (mean over j)", _num(neff["with_signal"], 2)],
            ["n_eff change [95% CI]", f"{_num(neff['change'], 2)} [{_num(neff['change_ci'][0], 2)}, {_num(neff['change_ci'][1], 2)}]"],
            ["mean judge–judge φ", _num(phi["judge_judge"])],
            ["mean signal–judge φ", _num(phi["signal_judge"])],
            ["overall accuracy gain (uniform)", _pp(report["overall_gain"])],
            [f"pivotal gain ({_pct(piv['fraction'])} of queries)", _pp(piv["gain"])],
            ["non-pivotal gain", _pp(non["gain"], 4)],
        ],
    )
    out += ["## Panel error rate by margin (Figure 2)", ""]
    out += _table(
        ["margin", "normalized", "n", "error rate", "95% CI", "uniform gain", "gain 95% CI"],
        [[r["margin"], _num(r["normalized_margin"], 2), r["n"], _pct(r["error_rate"]), _ci(r["ci"], signed=False),
          _pp(r["uniform_gain"]), _ci(r["gain_ci"])] for r in report["by_margin"]],
    )
    regions = report["regions"]
    out += ["## False-negative and false-positive rates by region", ""]
    out += _table(["region", "n", "FNR", "FPR"], [[name, r["n"], _pct(r["fnr"]), _pct(r["fpr"])] for name, r in regions.items()])
    out += ["## Judges (Table 5)", ""]
    rows = [[j["name"], _pct(j["reject_rate"]), _pct(j["accuracy"]), _pct(j["balanced_accuracy"]), _num(j["mcc"])] for j in report["judges"]]
    s = report["signal"]
    rows.append(["signal", _pct(s["reject_rate"]), _pct(s["accuracy"]), _pct(s["balanced_accuracy"]), _num(s["mcc"])])
    out += _table(["judge", "reject rate", "accuracy", "balanced accuracy", "MCC"], rows)
    out += _subpanel_section(report)
    out += _asymmetry_section(report)
    pc = report["permutation_control"]
    out += ["## Matched-accuracy permutation control (Supplementary A)", ""]
    out += _table(
        ["signal accuracy", "real pivotal gain", "synthetic mean", "synthetic 95% range", "share ≥ real", "signals"],
        [[_pct(pc["signal_accuracy"]), _pp(pc["real_gain"]), _pp(pc["mean_gain"]), _ci(pc["range95"]),
          _pct(pc["fraction_at_least_real"]), pc["n_permutations"]]],
    )
    if report.get("coverage_sweep"):
        out += ["## Coverage sweep (Figure 3)", ""]
        out += _table(["coverage", "signal accuracy", "pivotal gain", "95% CI"],
                      [[_pct(r["coverage"], 2), _pct(r["signal_accuracy"]), _pp(r["pivotal_gain"]), _ci(r["ci"])] for r in report["coverage_sweep"]])
    out += ["## Margin-threshold sweep (uniform replacement where the margin is at most t)", ""]
    out += _table(["t", "call rate", "accuracy"], [[r["max_margin"], _pct(r["call_rate"]), _pct(r["accuracy"])] for r in report["threshold_sweep"]])
    out += ["## Policies (Table 7)", ""]
    out += _table(["policy", "accuracy", "gain", "95% CI", "call rate"],
                  [[r["policy"], _pct(r["accuracy"]), _pp(r["gain"]), _ci(r["ci"]), _pct(r["call_rate"])] for r in report["policy"]])
    if report.get("by_benchmark"):
        out += ["## By benchmark", ""]
        out += _table(["benchmark", "n", "pivotal n", "pivotal gain", "non-pivotal n", "non-pivotal gain"],
                      [[name, b["n"], b["pivotal"]["n"], _pp(b["pivotal"]["gain"]), b["nonpivotal"]["n"], _pp(b["nonpivotal"]["gain"], 4)]
                       for name, b in report["by_benchmark"].items()])
    prov = report["provenance"]
    out += ["## Provenance", ""] + [f"- {key}: {value}" for key, value in prov.items()] + [""]
    return "\n".join(out)


def _subpanel_section(report: dict[str, Any]) -> list[str]:
    out = ["## Every sub-panel (Table 3)", ""]
    rows = []
    for size, block in report["subpanels"].items():
        low, high = block["pivotal_gain_range"]
        rows.append([size, block["n_subsets"], f"{block['pivotal_positive']}/{block['n_subsets']}", f"{_pp(low)} to {_pp(high)}",
                     "yes" if block["all_nonpivotal_zero"] else "NO"])
    return out + _table(["size k′", "subsets", "pivotal gain > 0", "pivotal gain range", "non-pivotal gain exactly 0"], rows)


def _asymmetry_section(report: dict[str, Any]) -> list[str]:
    rows = report["even_asymmetry"]
    if not rows:
        return []
    size = 2 * rows[1]["tally"]
    out = [f"## Even sub-panels, k′ = {size} (Table 6)", ""]
    return out + _table(
        ["tally s", "margin", "pivotal (Prop. 2)", "n", "gain", "per-subset gains"],
        [[r["tally"], r["margin"], "yes" if r["pivotal"] else "no", r["n"], _pp(r["gain"], 4),
          ", ".join(_pp(g) for g in r["subset_gains"])] for r in rows],
    )


def draw_figures(report: dict[str, Any], folder: Path) -> list[str]:
    """Write error_rate_by_margin.png, gain_by_margin.png and (full-form records) coverage_sweep.png."""
    names = ["error_rate_by_margin.png", "gain_by_margin.png"]
    margins = report["by_margin"]
    _bars(folder / names[0], [r["margin"] for r in margins], [r["error_rate"] for r in margins], [r["ci"] for r in margins],
          "raw margin |2s − k|", "panel error rate", f"Panel error rate by margin (k = {report['k']})")
    _bars(folder / names[1], [r["margin"] for r in margins], [r["uniform_gain"] for r in margins], [r["gain_ci"] for r in margins],
          "raw margin |2s − k|", "accuracy gain (uniform replacement)", "Gain by margin")
    if report.get("coverage_sweep"):
        names.append("coverage_sweep.png")
        _coverage_plot(folder / names[-1], report["coverage_sweep"])
    return names


def _clean(values: Sequence[float | None]) -> list[float]:
    return [math.nan if v is None else float(v) for v in values]


def _errors(centre: Sequence[float], cis: Sequence[Sequence[float | None]]) -> list[list[float]]:
    low = [max(0.0, c - (math.nan if ci[0] is None else ci[0])) for c, ci in zip(centre, cis)]
    high = [max(0.0, (math.nan if ci[1] is None else ci[1]) - c) for c, ci in zip(centre, cis)]
    return [[0.0 if math.isnan(v) else v for v in low], [0.0 if math.isnan(v) else v for v in high]]


def _figure() -> tuple[Any, Any]:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(5.0, 3.4), dpi=100)
    FigureCanvasAgg(figure)
    return figure, figure.add_axes((0.14, 0.16, 0.82, 0.74))


def _save(figure: Any, path: Path) -> None:
    figure.savefig(path, format="png", metadata={"Software": None})


def _bars(path: Path, x: Sequence[int], y: Sequence[float | None], cis: Sequence[Sequence[float | None]], xlabel: str, ylabel: str, title: str) -> None:
    figure, axes = _figure()
    centre = _clean(y)
    plotted = [0.0 if math.isnan(v) else v for v in centre]
    axes.bar([str(v) for v in x], plotted, color="#4c72b0", yerr=_errors(plotted, cis), capsize=4)
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    axes.set_title(title, fontsize=10)
    _save(figure, path)


def _coverage_plot(path: Path, rows: Sequence[dict[str, Any]]) -> Any:
    """Pivotal gain against signal accuracy, one point per coverage level.

    The coverage of each point is its colour (read on the colour bar), not a
    text label beside it: the 13+ levels crowd together where the signal's
    accuracy saturates, and labels there would overlap. Returns the figure.
    """
    from matplotlib import colormaps
    from matplotlib.colors import Normalize

    figure, axes = _figure()
    axes.set_position((0.14, 0.16, 0.66, 0.74))
    ordered = sorted(rows, key=lambda r: r["coverage"])
    accuracy = [r["signal_accuracy"] for r in ordered]
    gain = _clean([r["pivotal_gain"] for r in ordered])
    coverage = [r["coverage"] for r in ordered]
    norm, cmap = Normalize(vmin=0.0, vmax=max(coverage)), colormaps["viridis"]
    axes.plot(accuracy, gain, color="#bbbbbb", linewidth=1, zorder=1)
    axes.errorbar(accuracy, gain, yerr=_errors(gain, [r["ci"] for r in ordered]), fmt="none", ecolor="#999999",
                  capsize=2, zorder=2)
    points = axes.scatter(accuracy, gain, c=coverage, cmap=cmap, norm=norm, s=22, zorder=3)
    colorbar = figure.colorbar(points, cax=figure.add_axes((0.84, 0.16, 0.03, 0.74)))
    colorbar.set_label("coverage c (share of assertions run)", fontsize=8)
    axes.set_xlabel("signal accuracy")
    axes.set_ylabel("pivotal gain (uniform replacement)")
    axes.set_title("Coverage sweep", fontsize=10)
    _save(figure, path)
    return figure
