"""The Hub-ready REND-EQUIV release: instances → images → parquet configs + dataset card (docs/design.md §3.4)."""

from rend_equiv_dataset.figures.release.build import ReleaseSettings, ReleaseSummary, build_release

__all__ = ["ReleaseSettings", "ReleaseSummary", "build_release"]
