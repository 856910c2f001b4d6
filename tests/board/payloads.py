"""Hand-made results payloads for the leaderboard store tests."""

from __future__ import annotations

from typing import Any


def figure_payload(name: str, sha: str, accuracy: float | None, *, fingerprint: str = "f" * 64, **config: Any) -> dict[str, Any]:
    """A hand-made figure results payload (what :func:`results_payload` returns) with one headline set."""
    results: dict[str, Any] = {}
    for offset, column in enumerate(("accuracy", "ecs_auroc", "ibem_detection", "combined_auroc")):
        value = None if accuracy is None else round(accuracy - 0.1 * offset, 6)
        results[column] = value
        results[f"{column}_ci"] = None if value is None else [round(value - 0.05, 6), round(value + 0.05, 6)]
    return {
        "config": {"model_name": name, "submission_sha256": sha, "dataset_fingerprint": fingerprint, "package_version": "0.0", **config},
        "results": {"rend_equiv": results},
    }
