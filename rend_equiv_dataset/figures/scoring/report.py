"""Write a score report folder: report.json, instances.jsonl, report.md and plots (docs/design.md §7.4).

The folder is built beside the target and renamed into place, so a failed
run leaves nothing half-written. An existing target is replaced only when it
is empty or is itself a report folder (it holds ``report.json``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.io import atomic_dir, write_json
from rend_equiv_dataset.figures.scoring.instances import InstanceScore
from rend_equiv_dataset.figures.scoring.pipeline import ScoreRun
from rend_equiv_dataset.reports import json_ready as clean
from rend_equiv_dataset.reports import markdown_table

__all__ = ["clean", "instance_record", "markdown", "write_report"]


def instance_record(score: InstanceScore, error: tuple[str, Any] | None) -> dict[str, Any]:
    """One line of instances.jsonl."""
    record = {
        "instance_id": score.instance_id,
        "data_seed": score.data_seed,
        "template_id": score.template_id,
        "answer_type": score.answer_type,
        "target": score.target,
        "answer": score.answer,
        "correct": score.correct,
        "rea": score.rea,
        "ecs": score.ecs,
        "combined": score.combined,
        "flagged": score.flagged,
        "ibem": score.ibem,
        "residuals": score.residuals,
        "detected": score.residual_flags(),
        "baselines": score.baselines,
    }
    if error is not None:
        record["error_class"] = error[0]
        record["error_map"] = error[1].to_dict() if error[1] is not None else None
    return clean(record)


def check_report_dir(out: str | Path, option: str = "--out") -> Path:
    """Refuse a target that exists and is neither empty nor a report folder."""
    target = Path(out)
    if target.exists() and not target.is_dir():
        raise InputError(f"{target} exists and is not a folder", field=option)
    if target.is_dir() and any(target.iterdir()) and not (target / "report.json").is_file():
        raise InputError(f"folder {target} is not empty and holds no report.json; refusing to replace it", field=option)
    if not target.resolve().parent.is_dir():
        raise InputError(f"parent folder {target.resolve().parent} does not exist", field=option)
    return target


def write_report(run: ScoreRun, out: str | Path) -> Path:
    """Write the whole report folder atomically; returns its path."""
    target = check_report_dir(out)
    with atomic_dir(target, overwrite=True) as folder:
        write_json(folder / "report.json", clean(run.report), ensure_ascii=True)
        with open(folder / "instances.jsonl", "w", encoding="utf-8") as handle:
            for score in run.scores:
                handle.write(json.dumps(instance_record(score, run.errors.get(score.instance_id)), allow_nan=False) + "\n")
        (folder / "report.md").write_text(markdown(run.report), encoding="utf-8")
        from rend_equiv_dataset.figures.scoring.plots import write_plots

        write_plots(run, folder)
    return target


def _fmt(value: Any, digits: int = 3) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def _ci(ci: Sequence[float] | None) -> str:
    return "—" if not ci else f"[{ci[0]:.3f}, {ci[1]:.3f}]"


def how_to_read(report: dict[str, Any]) -> list[str]:
    """The report's opening lines: the two IBEM detections, and why they may differ.

    IBEM (REA ≥ 0.75 and wrong) is where invariance cannot help. ECS's
    detection of it is reported twice: at the threshold (the share of IBEM with
    ECS < threshold) and at a matched false-positive rate (every signal flags
    its lowest scores until it has flagged as many correct instances as ECS
    does at the threshold, then its detection on IBEM is read off).
    """
    ibem, threshold = report["ibem"], report["threshold"]
    at, matched = ibem["at_threshold"]["ecs"], ibem["detection"].get("ecs")
    lines = [
        "How to read the IBEM numbers. IBEM are the instances whose base answer is wrong although "
        "REA ≥ 0.75 (the answer survived the cosmetic re-renderings). Two detections of IBEM are given:",
        "",
        f"- **at the threshold**: the share of IBEM with ECS < {threshold}, the operating point a user "
        "of the threshold gets;",
        f"- **at matched FPR**: each signal flags its lowest-scoring instances until it flags the same share "
        f"of *correct* instances as ECS does at the threshold ({_fmt(ibem['matched_fpr'])} here; ties split "
        "fractionally), and the share of IBEM it flags is read off. This compares signals at one "
        "false-positive rate; it is not a threshold a user can set.",
    ]
    if at is not None and matched is not None and matched > at + 1e-9:
        lines += [
            "",
            f"Here ECS detects {_fmt(at)} of IBEM at the threshold and {_fmt(matched)} at matched FPR: the "
            f"matched operating point also flags ECS values at or above {threshold} that no correct instance "
            "has (flagging them costs no false positive). An error that commutes with the edits keeps ECS "
            "high on IBEM (paper Theorem 2), so at the threshold it can be missed entirely; the matched "
            "figure shows how well ECS still ranks it.",
        ]
    return lines


def markdown(report: dict[str, Any]) -> str:
    """The readable report: headline, Table 1, Table 2 and the supporting checks."""
    ibem = report["ibem"]
    lines = [
        "# REND-EQUIV score report",
        "",
        *how_to_read(report),
        "",
        f"- instances: {report['n_instances']} (seeds {', '.join(map(str, report['seeds']))})",
        f"- accuracy: {_fmt(report['accuracy'])} {_ci(report['accuracy_ci'])}",
        f"- ECS threshold: {report['threshold']}",
        f"- IBEM (REA ≥ 0.75 and wrong): n = {ibem['n']}, rate {_fmt(ibem['rate'])} {_ci(ibem['rate_ci'])}",
        f"- matched false-positive rate (ECS on correct instances): {_fmt(ibem['matched_fpr'])}",
        f"- ECS detection on IBEM at the threshold: {_fmt(ibem['at_threshold']['ecs'])} {_ci(ibem['at_threshold_ci']['ecs'])}",
        f"- ECS detection on IBEM at matched FPR: {_fmt(ibem['detection'].get('ecs'))} {_ci(ibem['detection_ci'].get('ecs'))}",
        f"- Corollary 3 on IBEM: ECS flags {_fmt(ibem['corollary3']['ecs'])}, "
        f"combined flags {_fmt(ibem['corollary3']['combined'])}, same set: {ibem['corollary3']['identical']}",
        f"- IBEM with no residual on any edit: {_fmt(report['no_residual_fraction'])} {_ci(report['no_residual']['ci'])}; "
        f"oracle best edit {_fmt(report['no_residual']['oracle_best_edit'])}",
        "",
        "## Table 1 — detection by edit type on IBEM",
        "",
    ]
    lines += markdown_table(
        ["edit", "flagged", "n", "rate", "95% CI (cluster bootstrap)", "95% CI (exact)", "predicted"],
        ([edit, row["flagged"], row["n"], _fmt(row["rate"]), _ci(row.get("ci")), _ci(row["ci_exact"]), _fmt(row["predicted"])]
         for edit, row in report["detection_by_edit"].items()),
    )
    lines += ["", *markdown_table(["comparison", "p", "p (Bonferroni)"],
                                  ([t["comparison"], _fmt(t["p"], 4), _fmt(t["p_bonferroni"], 4)] for t in report["fisher"]))]
    lines += ["", "## Table 2 — signals", ""]
    lines += markdown_table(
        ["signal", "n", "AUROC", "RC-AUC", "ECE", "IBEM detection (matched FPR)", "AUROC (REA ≥ 0.75)", "ECE (REA ≥ 0.75)"],
        ([name, row["n"], f"{_fmt(row['auroc'])} {_ci(row['auroc_ci'])}", _fmt(row["rc_auc"]), _fmt(row["ece"]),
          _fmt(ibem["detection"].get(name)), _fmt(row["high_rea"]["auroc"]), _fmt(row["high_rea"]["ece"])]
         for name, row in report["signals"].items()),
    )
    gain = report["combined_gain"]
    lines += ["", f"Combined minus REA AUROC: {_fmt(gain['auroc'])} {_ci(gain['ci'])}", ""]
    lines += _cv_lines(report) + _seed_lines(report) + _accuracy_lines(report) + _taxonomy_lines(report)
    return "\n".join(lines) + "\n"


def _cv_lines(report: dict[str, Any]) -> list[str]:
    if not report["threshold_cv"]:
        return []
    lines = ["## Threshold cross-validation (fit on one seed, test on the others)", ""]
    lines += markdown_table(
        ["train seed", "threshold", "test detection", "test FPR", "default detection", "default FPR"],
        ([row["train_seed"], row["threshold"], _fmt(row["test_detection"]), _fmt(row["test_fpr"]),
          _fmt(row["default_detection"]), _fmt(row["default_fpr"])] for row in report["threshold_cv"]),
    )
    return [*lines, ""]


def _seed_lines(report: dict[str, Any]) -> list[str]:
    lines = ["## Per seed", ""]
    lines += markdown_table(
        ["seed", "n", "accuracy", "AUROC (combined)", "IBEM n", "ECS detection"],
        ([seed, row["n"], _fmt(row["accuracy"]), _fmt(row["auroc"].get("combined")), row["ibem_n"],
          _fmt(row["ibem_detection"])] for seed, row in report["per_seed"].items()),
    )
    return [*lines, ""]


def _accuracy_lines(report: dict[str, Any]) -> list[str]:
    lines = ["## Difficulty control: base versus edited accuracy", ""]
    lines += markdown_table(
        ["edit", "n", "base", "edited", "difference"],
        ([edit, row["n"], _fmt(row["base_accuracy"]), _fmt(row["edited_accuracy"]), _fmt(row["difference"])]
         for edit, row in report["edit_accuracy"].items()),
    )
    cycle = report.get("matched_cycle")
    if cycle:
        lines += ["", "## Swap versus cycle (instances with both)", ""]
        lines += markdown_table(
            ["population", "n", "swap", "cycle", "only swap", "only cycle", "McNemar p"],
            ([name, cycle[name]["n"], cycle[name]["swap_flagged"], cycle[name]["cycle_flagged"], cycle[name]["only_swap"],
              cycle[name]["only_cycle"], _fmt(cycle[name]["mcnemar_p"], 4)] for name in ("all", "wrong")),
        )
        ratios = cycle.get("predicted_undetectable_ratio") or {}
        lines += ["", *(f"Predicted swap/cycle undetectable-set ratio at m = {m}: 2(m−2)!/m = {r:g}" for m, r in ratios.items())]
    return [*lines, ""]


def _taxonomy_lines(report: dict[str, Any]) -> list[str]:
    wrong, ibem = report["taxonomy"]["wrong"], report["taxonomy"]["ibem"]
    lines = ["## Error taxonomy", "", *markdown_table(["class", "wrong", "IBEM"], ([n, wrong[n], ibem[n]] for n in wrong))]
    return [*lines, ""]
