"""The release schema of REND-EQUIV, once: config names, columns, roles, answer and edit types.

Every writer (:mod:`rend_equiv_dataset.figures.release.records`), reader
(:mod:`rend_equiv_dataset.figures.release.read`) and scorer
(:mod:`rend_equiv_dataset.figures.scoring`) of a release takes these names
from here, so a column or a config is renamed in one place.

A release holds up to four configs: ``instances`` (one row per instance:
data, question, answer, base image, re-renderings and edits) and
``renderings`` (one row per image a model answers), and the same pair for the
matched swap-versus-cycle set of paper §4.3.

>>> RENDERINGS_OF[INSTANCES], RENDERINGS_OF[MATCHED_CYCLE]
('renderings', 'matched_cycle_renderings')
>>> render_id("s0-bar-007", BASE, BASE), render_id("s0-bar-007", EDIT, "swap")
('s0-bar-007/base', 's0-bar-007/edit/swap')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import datasets

INSTANCES = "instances"
RENDERINGS = "renderings"
MATCHED_CYCLE = "matched_cycle"
MATCHED_CYCLE_RENDERINGS = "matched_cycle_renderings"

RENDERINGS_OF: dict[str, str] = {INSTANCES: RENDERINGS, MATCHED_CYCLE: MATCHED_CYCLE_RENDERINGS}
"""Each instance config and the per-image config derived from it (same columns for both pairs)."""

CONFIGS: tuple[str, ...] = (INSTANCES, RENDERINGS, MATCHED_CYCLE, MATCHED_CYCLE_RENDERINGS)

BASE, RERENDER, EDIT = "base", "rerender", "edit"
ROLES: tuple[str, ...] = (BASE, RERENDER, EDIT)
"""What a rendering is: the base chart, a cosmetic re-rendering (φ = identity) or an edit g."""

NUMBER, LABEL = "number", "label"
ANSWER_TYPES: tuple[str, ...] = (NUMBER, LABEL)

EDIT_TYPES: tuple[str, ...] = ("scale", "offset", "delete_max", "swap", "cycle", "zoom")
"""The paper's edits, in the order they are listed on an instance. The figure benchmark's
registry (:mod:`rend_equiv_dataset.figures.edits.registry`) holds one class for each, and
may hold more; ``variant`` of an edit rendering is its edit type."""

RENDERING_COLUMNS: tuple[str, ...] = (
    "render_id", "instance_id", "data_seed", "template_id", "family", "question_type", "role",
    "variant", "image", "question", "target", "answer_type", "labels", "transform",
)
"""Columns of the ``renderings`` configs, in file order."""

RENDERING_TEXT_COLUMNS: tuple[str, ...] = tuple(c for c in RENDERING_COLUMNS if c != "image")
"""The light columns a scorer reads (everything but the PNG)."""

INSTANCE_COLUMNS: tuple[str, ...] = (
    "instance_id", "data_seed", "index", "template_id", "family", "question_type", "question", "target",
    "answer_type", "labels", "question_params", "data", "source", "render_id", "style", "rerenders", "edits",
)
"""Columns of the ``instances`` configs, in file order."""

RERENDER_FIELDS: tuple[str, ...] = ("style_id", "style", "render_id")
EDIT_FIELDS: tuple[str, ...] = ("type", "params", "transform", "target", "data", "render_id")
"""Fields of one struct of the ``rerenders`` and ``edits`` lists of an instance row; images are named by ``render_id``."""


def render_id(instance_id: str, role: str, variant: str) -> str:
    """The key of one image: ``<id>/base``, ``<id>/rerender/<style_id>`` or ``<id>/edit/<edit_type>``.

    An instance has at most one edit of each type, so the key is unique across a
    release and stable across builds.
    """
    return f"{instance_id}/{BASE}" if role == BASE else f"{instance_id}/{role}/{variant}"


def rendering_features() -> datasets.Features:
    """``datasets`` features of the ``renderings`` config, in :data:`RENDERING_COLUMNS` order."""
    import datasets

    string = datasets.Value("string")
    types = {"data_seed": datasets.Value("int64"), "image": datasets.Image(), "labels": datasets.List(string)}
    return datasets.Features({name: types.get(name, string) for name in RENDERING_COLUMNS})
