"""Judge-panel submissions: a ``panel score`` report folder as a results file of the leaderboard's panel table.

Stored by :func:`rend_equiv_dataset.board.store.submit_payload` as
``LEADERBOARD/panels/<org>/<name>/results_<UTC time>.json`` with
``{"config": {...provenance}, "results": {"rend_equiv_panels": {...}}}``:
the pivotal-stratified gain with its 95% interval, the call rate, the
effective number of votes with and without the signal, and the panel's
accuracy. The report's plots and Markdown travel with it for the panel page.
"""

from __future__ import annotations

import hashlib
import math
from pathlib import Path
from typing import Any

from rend_equiv_dataset.board.store import Kind, check_board_dir, check_model_name, library_versions, stderr_of, submit_payload
from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.io import parse_json, read_text

TASK = "rend_equiv_panels"
MAX_REPORT_BYTES = 50 * 2**20
_ASSETS = ("report.md", "error_rate_by_margin.png", "gain_by_margin.png", "coverage_sweep.png")


def _number(report: dict[str, Any], dotted: str, path: Path, *, nullable: bool = False) -> float | None:
    value: Any = report
    for part in dotted.split("."):
        if not isinstance(value, dict) or part not in value:
            raise InputError("missing field (is this a `rend-equiv panel score` report?)", file=str(path), field=dotted)
        value = value[part]
    if value is None and nullable:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise InputError(f"expected a finite number{' or null' if nullable else ''}, got {value!r}", file=str(path), field=dotted)
    return float(value)


def _interval(report: dict[str, Any], dotted: str, path: Path) -> list[float] | None:
    value: Any = report
    for part in dotted.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    if value is None or (isinstance(value, list) and any(v is None for v in value)):
        return None
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)):
        raise InputError(f"expected [low, high] or null, got {value!r}", file=str(path), field=dotted)
    return [float(value[0]), float(value[1])]


def read_panel_report(report_dir: str | Path, option: str = "--report") -> tuple[dict[str, Any], bytes, dict[str, bytes]]:
    """The report folder's ``report.json`` (parsed and as bytes) and its plots and Markdown."""
    folder = Path(report_dir)
    path = folder / "report.json"
    if not path.is_file():
        raise InputError(f"no report.json in {folder} (make one with `rend-equiv panel score`)", field=option)
    text = read_text(path, max_bytes=MAX_REPORT_BYTES)
    data = text.encode("utf-8")  # the file's bytes: it decoded as UTF-8
    report = parse_json(text, file=path)
    if not isinstance(report, dict):
        raise InputError("expected a JSON object", file=str(path))
    assets = {name: (folder / name).read_bytes() for name in _ASSETS if (folder / name).is_file()}
    return report, data, assets


def panel_payload(report: dict[str, Any], report_bytes: bytes, panel_name: str, path: Path) -> dict[str, Any]:
    """The results file of one panel report."""
    check_model_name(panel_name, "--panel-name")
    pivotal_ci = _interval(report, "pivotal.ci", path)
    change_ci = _interval(report, "n_eff.change_ci", path)
    results = {
        "pivotal_gain": _number(report, "pivotal.gain", path, nullable=True),
        "pivotal_gain_ci": pivotal_ci,
        "pivotal_gain_stderr": stderr_of(pivotal_ci),
        "pivotal_n": _number(report, "pivotal.n", path),
        "call_rate": _number(report, "call_rate", path),
        "n_eff": _number(report, "n_eff.panel", path, nullable=True),
        "n_eff_with_signal": _number(report, "n_eff.with_signal", path, nullable=True),
        "n_eff_change_ci": change_ci,
        "panel_accuracy": _number(report, "accuracy.panel", path),
        "k": _number(report, "k", path),
        "n": _number(report, "n", path),
    }
    provenance: dict[str, Any] = report["provenance"] if isinstance(report.get("provenance"), dict) else {}
    config = {
        "model_name": panel_name,
        "model_sha": provenance.get("records_sha256") or "unknown",
        "model_dtype": "n/a",
        "model_type": "judge panel",
        "params_billions": None,
        "judges": [j.get("name") for j in report.get("judges", []) if isinstance(j, dict)],
        "submission_sha256": hashlib.sha256(report_bytes).hexdigest(),
        "records_sha256": provenance.get("records_sha256"),
        "judge_source": provenance.get("judge_source"),
        "coverage": report.get("coverage"),
        "package_version": provenance.get("package_version"),
        "versions": library_versions(),
        "seed": provenance.get("seed"),
        "n_resamples": provenance.get("n_resamples"),
        "dataset_fingerprint": None,
    }
    return {"config": config, "results": {TASK: results}}


def submit_panel(report_dir: str | Path, panel_name: str, leaderboard: str | Path) -> Path:
    """Add a panel report to the leaderboard's panel table; returns the results file path."""
    check_model_name(panel_name, "--panel-name")
    check_board_dir(leaderboard)
    report, data, assets = read_panel_report(report_dir)
    payload = panel_payload(report, data, panel_name, Path(report_dir) / "report.json")
    return submit_payload(leaderboard, Kind.PANELS, payload, assets)
