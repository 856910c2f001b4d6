"""Synthetic ``renderings`` rows (docs/design.md §7.2) without images, for scoring tests and benchmarks.

Scoring reads only the text columns, so a table with the release's shape can
be made in memory: numeric instances carry scale, offset and zoom edits;
label instances carry swap, delete_max and zoom, and (``cycle=True``, m = 6)
the matched cycle edit. Values are drawn from a seeded generator, per
instance, so the table depends only on its arguments.

>>> rows = synthetic_rows(n_instances=4, seeds=(0,), rerenders=2)
>>> sorted({r["role"] for r in rows}), len({r["instance_id"] for r in rows})
(['base', 'edit', 'rerender'], 4)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from rend_equiv_dataset.figures.release.read import RenderingRow, check_renderings, rendering_from_row
from rend_equiv_dataset.schema import BASE, EDIT, LABEL, NUMBER, RERENDER
from rend_equiv_dataset.theory.detection import edit_transform
from rend_equiv_dataset.transforms import IDENTITY, Transform, to_json

LABEL_POOL = ("Apples", "Bananas", "Cherries", "Dates", "Elderberries", "Figs", "Grapes", "Honeydew")


def _row(instance: str, seed: int, template: str, role: str, variant: str, target: str, kind: str, labels: Sequence[str],
         transform: Transform, suffix: str = "") -> dict[str, Any]:
    return {
        "render_id": f"{instance}/{variant}{suffix}",
        "instance_id": instance,
        "data_seed": seed,
        "template_id": template,
        "family": "bar" if kind == NUMBER else "pie",
        "question_type": "read_value" if kind == NUMBER else "argmax",
        "role": role,
        "variant": variant,
        "question": "What is the value of the first bar?" if kind == NUMBER else "Which category is largest?",
        "target": target,
        "answer_type": kind,
        "labels": list(labels),
        "transform": to_json(transform),
    }


def _number_edits(rng: np.random.Generator) -> list[tuple[str, Transform, list[str] | None]]:
    scale = float(rng.choice([0.5, 2.0, 3.0]))
    shift = float(rng.choice([5.0, 10.0, 20.0]))
    return [(name, edit_transform(name, scale=scale, shift=shift), None) for name in ("scale", "offset", "zoom")]


def _label_edits(rng: np.random.Generator, labels: list[str], answer: str, cycle: bool) -> list[tuple[str, Transform, list[str] | None]]:
    others = [x for x in labels if x != answer]
    partner = others[int(rng.integers(len(others)))]
    runner_up = others[int(rng.integers(len(others)))]
    edits: list[tuple[str, Transform, list[str] | None]] = [
        ("swap", edit_transform("swap", labels=(answer, partner)), None),
        ("delete_max", edit_transform("delete_max", labels=(answer, runner_up)), [x for x in labels if x != answer]),
        ("zoom", edit_transform("zoom"), None),
    ]
    if cycle:
        edits.append(("cycle", edit_transform("cycle", labels=labels), None))
    return edits


def synthetic_rows(
    n_instances: int = 300,
    seeds: Sequence[int] = (0,),
    rerenders: int = 8,
    label_share: float = 0.4,
    cycle: bool = False,
    values: tuple[int, int] = (10, 500),
) -> list[dict[str, Any]]:
    """Rows of a synthetic release: ``n_instances`` per seed, template ``t{k}`` shared across seeds.

    Numeric targets are integers drawn from ``values`` (low inclusive, high exclusive).
    """
    rows: list[dict[str, Any]] = []
    for seed in seeds:
        for k in range(n_instances):
            rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(k,))))
            instance, template = f"s{seed}-{k:04d}", f"t{k:04d}"
            is_label = k < round(label_share * n_instances)
            if is_label:
                m = 6 if cycle else int(rng.integers(3, 7))
                labels = list(LABEL_POOL[:m])
                target = labels[int(rng.integers(m))]
                edits = _label_edits(rng, labels, target, cycle)
                kind = LABEL
            else:
                labels, kind = [], NUMBER
                target = repr(float(rng.integers(*values)))
                edits = _number_edits(rng)
            rows.append(_row(instance, seed, template, BASE, BASE, target, kind, labels, IDENTITY))
            rows += [_row(instance, seed, template, RERENDER, "style", target, kind, labels, IDENTITY, str(j)) for j in range(rerenders)]
            for variant, transform, edit_labels in edits:
                value = transform.apply(float(target) if kind == NUMBER else target)
                text = repr(float(value)) if kind == NUMBER else str(value)
                rows.append(_row(instance, seed, template, EDIT, variant, text, kind, edit_labels or labels, transform))
    return rows


def synthetic_renderings(**kwargs: Any) -> list[RenderingRow]:
    """:func:`synthetic_rows` validated into :class:`RenderingRow` objects."""
    return check_renderings([rendering_from_row(r) for r in synthetic_rows(**kwargs)])
