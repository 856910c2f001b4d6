"""Rows of the released configs (docs/design.md §3.4, §7.2) and their ``datasets`` features.

- ``instances`` (and ``matched_cycle``): one row per instance — data JSON,
  question, answer, the K re-renderings and the edits as lists of structs.
  It holds no images: the base, each re-rendering and each edit name their
  image by ``render_id``, a row of the per-image config, so every image is
  stored once.
- ``renderings`` (and ``matched_cycle_renderings``): one row per image a
  model answers, exactly the fields of docs/design.md §7.2.

``render_id`` is ``<instance_id>/base``, ``<instance_id>/rerender/<style_id>``
or ``<instance_id>/edit/<edit_type>`` (an instance has at most one edit of each
type), so it is unique across a release and stable across builds.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rend_equiv_dataset.figures.charts.styles import Style
from rend_equiv_dataset.figures.generate import Instance
from rend_equiv_dataset.schema import (
    BASE,
    EDIT,
    EDIT_FIELDS,
    INSTANCE_COLUMNS,
    RENDERING_COLUMNS,
    RERENDER,
    RERENDER_FIELDS,
    render_id,
    rendering_features,
)
from rend_equiv_dataset.transforms import IDENTITY, to_json

if TYPE_CHECKING:
    import datasets

__all__ = ["IDENTITY_JSON", "InstanceImages", "instance_features", "instance_record", "instance_row",
           "render_id", "rendering_features", "rendering_rows"]

IDENTITY_JSON = to_json(IDENTITY)


@dataclass(frozen=True)
class InstanceImages:
    """PNG bytes of one instance, with the styles they were drawn in
    (made by :func:`rend_equiv_dataset.figures.release.images.render_instance`)."""

    base: bytes
    base_style: Style
    rerenders: tuple[tuple[Style, bytes], ...]
    edits: tuple[bytes, ...]


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, allow_nan=False)


def instance_record(instance: Instance) -> dict[str, Any]:
    """The instance as canonical JSON-able values (no images)."""
    return {
        "instance_id": instance.instance_id,
        "data_seed": int(instance.data_seed),
        "index": int(instance.index),
        "template_id": instance.template_id,
        "family": instance.family.value,
        "question_type": instance.question_type,
        "question": instance.question,
        "target": instance.target,
        "answer_type": instance.answer_type,
        "labels": list(instance.labels),
        "question_params": _json(dict(instance.question_params)),
        "data": instance.data.to_json(),
        "source": instance.source,
        "edits": [
            {
                "type": edit.edit_type,
                "params": _json(dict(edit.params)),
                "transform": to_json(edit.transform),
                "target": edit.target,
                "data": edit.data.to_json(),
            }
            for edit in instance.edits
        ],
    }


def _image(png: bytes) -> dict[str, Any]:
    return {"bytes": png, "path": None}


def instance_row(instance: Instance, images: InstanceImages) -> dict[str, Any]:
    """One row of the ``instances`` config; images are referred to by ``render_id``."""
    record = instance_record(instance)
    iid = instance.instance_id
    edits = [{**edit, "render_id": render_id(iid, "edit", edit["type"])} for edit in record.pop("edits")]
    return {
        **record,
        "render_id": render_id(iid, "base", "base"),
        "style": images.base_style.to_json(),
        "rerenders": [{"style_id": s.style_id, "style": s.to_json(), "render_id": render_id(iid, "rerender", s.style_id)}
                      for s, _ in images.rerenders],
        "edits": edits,
    }


def rendering_rows(instance: Instance, images: InstanceImages) -> list[dict[str, Any]]:
    """The rows of the ``renderings`` config for one instance: base, each re-rendering, each edit."""
    shared = {
        "instance_id": instance.instance_id,
        "data_seed": int(instance.data_seed),
        "template_id": instance.template_id,
        "family": instance.family.value,
        "question_type": instance.question_type,
        "question": instance.question,
        "answer_type": instance.answer_type,
        "labels": list(instance.labels),
    }

    def row(role: str, variant: str, png: bytes, target: str, transform: str) -> dict[str, Any]:
        values = {**shared, "render_id": render_id(instance.instance_id, role, variant), "role": role,
                  "variant": variant, "image": _image(png), "target": target, "transform": transform}
        return {name: values[name] for name in RENDERING_COLUMNS}

    rows = [row(BASE, BASE, images.base, instance.target, IDENTITY_JSON)]
    rows += [row(RERENDER, style.style_id, png, instance.target, IDENTITY_JSON) for style, png in images.rerenders]
    rows += [row(EDIT, edit.edit_type, png, edit.target, to_json(edit.transform))
             for edit, png in zip(instance.edits, images.edits)]
    return rows


def _string() -> datasets.Value:
    import datasets

    return datasets.Value("string")


def instance_features() -> datasets.Features:
    """Features of the ``instances`` and ``matched_cycle`` configs (no images: ``render_id`` refers to them)."""
    import datasets

    s, i = _string, datasets.Value("int64")

    def struct(fields: tuple[str, ...]) -> dict[str, Any]:
        return {name: s() for name in fields}

    types = {"data_seed": i, "index": i, "labels": datasets.List(s()),
             "rerenders": datasets.List(struct(RERENDER_FIELDS)), "edits": datasets.List(struct(EDIT_FIELDS))}
    return datasets.Features({name: types.get(name, s()) for name in INSTANCE_COLUMNS})
