"""The Hub-ready REND-EQUIV release: instances → images → parquet configs + dataset card (docs/design.md §3.4).

The builder's names load on first use, so reading a release
(:mod:`.read`, what the scorer and the ``evaluate`` modules import) never
loads the generator, the renderer or the card writer.
"""

from __future__ import annotations

from rend_equiv_dataset.exports import lazy_getattr

_EXPORTS = {
    "ReleaseSettings": "rend_equiv_dataset.figures.release.card",
    "ReleaseSummary": "rend_equiv_dataset.figures.release.build",
    "build_release": "rend_equiv_dataset.figures.release.build",
}

__all__ = sorted(_EXPORTS)


__getattr__ = lazy_getattr(__name__, _EXPORTS)
