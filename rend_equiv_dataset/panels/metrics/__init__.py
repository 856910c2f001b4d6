"""Pivotal-vote panel metrics (panels paper §3–6; docs/design.md §4.3).

Public API, one home per rule:

* votes — :func:`tallies`, :func:`margins`, :func:`decisions`, :func:`pivotal`;
* replacement rules and gating — :class:`Rule`, :func:`uniform_expected_correct`,
  :func:`gated_decisions` (Algorithm 1);
* gains — :func:`stratified_gain`;
* effective votes — :func:`n_eff`, :func:`n_eff_with_signal`;
* diagnostics — :func:`judge_table`, :func:`region_rates`, :func:`error_by_margin`;
* analyses — sub-panels, the even-panel asymmetry, the permutation control,
  the coverage sweep and the policy table;
* the report — :func:`build_report`; :func:`write_report` writes it for a records file.
"""

from rend_equiv_dataset.panels.metrics.analyses import (
    coverage_sweep,
    even_asymmetry,
    permutation_control,
    policy_table,
    subpanel_table,
)
from rend_equiv_dataset.panels.metrics.coverage import SWEEP_LEVELS, signal_at_coverage
from rend_equiv_dataset.panels.metrics.data import PanelData
from rend_equiv_dataset.panels.metrics.effective import n_eff, n_eff_with_signal
from rend_equiv_dataset.panels.metrics.gains import StratifiedGain, panel_correct, stratified_gain
from rend_equiv_dataset.panels.metrics.panel_report import build_report, write_report
from rend_equiv_dataset.panels.metrics.judges import error_by_margin, judge_table, region_rates
from rend_equiv_dataset.panels.metrics.replacement import (
    MAJORITY_SIDE,
    RULES,
    UNIFORM,
    Fixed,
    MajoritySide,
    Rule,
    Uniform,
    register_rule,
    rule_named,
    gated_decisions,
    uniform_expected_correct,
)
from rend_equiv_dataset.panels.metrics.votes import decisions, margins, pivotal, tallies

__all__ = [
    "MAJORITY_SIDE",
    "SWEEP_LEVELS",
    "UNIFORM",
    "PanelData",
    "RULES",
    "Fixed",
    "MajoritySide",
    "Rule",
    "Uniform",
    "register_rule",
    "rule_named",
    "write_report",
    "StratifiedGain",
    "build_report",
    "coverage_sweep",
    "decisions",
    "error_by_margin",
    "even_asymmetry",
    "gated_decisions",
    "judge_table",
    "margins",
    "n_eff",
    "n_eff_with_signal",
    "panel_correct",
    "permutation_control",
    "pivotal",
    "policy_table",
    "region_rates",
    "signal_at_coverage",
    "stratified_gain",
    "subpanel_table",
    "tallies",
    "uniform_expected_correct",
]
