"""Small hand-written ``renderings`` tables (docs/design.md §7.2) and release folders for scoring tests."""

from __future__ import annotations

import json
from pathlib import Path

from rend_equiv_dataset.transforms import IDENTITY, Affine, LabelMap, to_json


def row(instance, role, variant, target, *, answer_type="number", labels=(), transform=IDENTITY, seed=0, template=None, index=0):
    """One renderings row; render ids are ``instance/variant`` (plus an index for re-renderings)."""
    suffix = f"{variant}{index}" if role == "rerender" else variant
    return {
        "render_id": f"{instance}/{suffix}",
        "instance_id": instance,
        "data_seed": seed,
        "template_id": template or instance.split("-")[-1],
        "family": "bar",
        "question_type": "read_value" if answer_type == "number" else "argmax",
        "role": role,
        "variant": variant,
        "question": "What is the value?" if answer_type == "number" else "Which is largest?",
        "target": target,
        "answer_type": answer_type,
        "labels": list(labels),
        "transform": to_json(transform),
    }


def instance_rows(instance, target, edits, *, answer_type="number", labels=(), rerenders=4, seed=0, template=None):
    """Base + re-renderings + edits; ``edits`` is [(variant, transform, edited labels or None)]."""
    common = {"answer_type": answer_type, "seed": seed, "template": template}
    rows = [row(instance, "base", "base", target, labels=labels, **common)]
    rows += [row(instance, "rerender", "style", target, labels=labels, index=k, **common) for k in range(rerenders)]
    for variant, transform, edit_labels in edits:
        value = float(target) if answer_type == "number" else target
        new = transform.apply(value)
        text = repr(float(new)) if answer_type == "number" else new
        rows.append(row(instance, "edit", variant, text, labels=edit_labels or labels, transform=transform, **common))
    return rows


SWAP_AB = LabelMap.from_pairs({"A": "B", "B": "A"})
SWAP_CA = LabelMap.from_pairs({"C": "A", "A": "C"})
DELETE_A = LabelMap.from_pairs({"A": "B"})


def tiny_rows():
    """Five hand-checked instances (see tests/scoring/test_hand_computed.py for every value)."""
    abc = ("A", "B", "C")
    return [
        *instance_rows("s0-i1", "10", [("scale", Affine(2.0), None), ("offset", Affine(1.0, 5.0), None), ("zoom", IDENTITY, None)]),
        *instance_rows("s0-i2", "A", [("swap", SWAP_AB, None), ("delete_max", DELETE_A, ("B", "C")), ("zoom", IDENTITY, None)],
                       answer_type="label", labels=abc),
        *instance_rows("s0-i3", "40", [("scale", Affine(0.5), None), ("zoom", IDENTITY, None)]),
        *instance_rows("s0-i4", "C", [("swap", SWAP_CA, None), ("zoom", IDENTITY, None)], answer_type="label", labels=abc),
        *instance_rows("s0-i5", "100", [("offset", Affine(1.0, 10.0), None), ("zoom", IDENTITY, None)]),
    ]


TINY_OUTPUTS = {
    # i1: a pure ×1.5 misreading; one re-rendering drifts to 14 (6.7% from 15: disagrees)
    "s0-i1/base": "The answer is 15.",
    "s0-i1/style0": "15", "s0-i1/style1": "15", "s0-i1/style2": "15.0", "s0-i1/style3": "14",
    "s0-i1/scale": "30", "s0-i1/offset": "22.5", "s0-i1/zoom": "15",
    # i2: confuses A with B everywhere; the delete_max edit answer is C
    "s0-i2/base": "B",
    "s0-i2/style0": "B", "s0-i2/style1": "b", "s0-i2/style2": "Answer: B", "s0-i2/style3": "B",
    "s0-i2/swap": "A", "s0-i2/delete_max": "C", "s0-i2/zoom": "B",
    # i3: correct; re-rendering 50 disagrees (25%); zoom 38 is exactly 5% off (agrees)
    "s0-i3/base": "40",
    "s0-i3/style0": "40", "s0-i3/style1": "41", "s0-i3/style2": "39", "s0-i3/style3": "50",
    "s0-i3/scale": "20", "s0-i3/zoom": "38",
    # i4: wrong and unstable; style3 is missing from the file (unanswered)
    "s0-i4/base": "The answer is A",
    "s0-i4/style0": "A", "s0-i4/style1": "A", "s0-i4/style2": "B",
    "s0-i4/swap": "A", "s0-i4/zoom": "B",
    # i5: correct base, inconsistent edits: a false positive for ECS
    "s0-i5/base": "100",
    "s0-i5/style0": "100", "s0-i5/style1": "100", "s0-i5/style2": "100", "s0-i5/style3": "100",
    "s0-i5/offset": "130", "s0-i5/zoom": "80",
}


def write_release(rows, folder: Path) -> Path:
    """Write ``rows`` as a release folder with a dataset card, as the generator does."""
    import datasets

    from rend_equiv_dataset.hub import card_metadata, write_card, write_config

    folder.mkdir(parents=True, exist_ok=True)
    dataset = datasets.Dataset.from_list(rows)
    written = write_config(folder, "renderings", dataset)
    write_card(folder, card_metadata([written], default="renderings"), "Test release.")
    return folder


def write_predictions(outputs: dict[str, str], path: Path, meta: dict | None = None) -> Path:
    lines = [json.dumps({"meta": meta})] if meta is not None else []
    lines += [json.dumps({"render_id": k, "output": v}) for k, v in outputs.items()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
