"""A small ``renderings`` folder in the release layout (docs/design.md §7.2), written for tests."""

from __future__ import annotations

import io
import json
from pathlib import Path

from PIL import Image

CARD = """---
configs:
- config_name: renderings
  data_files:
  - split: test
    path: renderings/*.parquet
---
# test renderings
"""


def png_bytes(color: tuple[int, int, int], size: tuple[int, int] = (48, 36)) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, color).save(buffer, format="PNG")
    return buffer.getvalue()


def write_renderings(folder: Path, n: int, bad_image_ids: frozenset[str] = frozenset()) -> list[str]:
    """Write ``n`` renderings (ids r000.. in shuffled row order); returns the ids sorted."""
    import datasets

    ids = [f"r{i:03d}" for i in range(n)]
    order = sorted(ids, key=lambda rid: (int(rid[1:]) * 7) % max(n, 1))  # not sorted on disk
    rows = {
        "render_id": order,
        "instance_id": [f"s0-{int(r[1:])}" for r in order],
        "data_seed": [0] * n,
        "template_id": [f"t{int(r[1:])}" for r in order],
        "family": ["bar"] * n,
        "question_type": ["read_value"] * n,
        "role": ["base"] * n,
        "variant": ["base"] * n,
        "image": [
            {"bytes": b"not a png" if r in bad_image_ids else png_bytes((int(r[1:]) * 40 % 256, 90, 160)), "path": None}
            for r in order
        ],
        "question": [f"What is the value of item {r}?" for r in order],
        "target": ["1"] * n,
        "answer_type": ["number"] * n,
        "labels": [["A", "B"]] * n,
        "transform": [json.dumps({"kind": "identity"})] * n,
    }
    features = datasets.Features(
        {
            "render_id": datasets.Value("string"),
            "instance_id": datasets.Value("string"),
            "data_seed": datasets.Value("int64"),
            "template_id": datasets.Value("string"),
            "family": datasets.Value("string"),
            "question_type": datasets.Value("string"),
            "role": datasets.Value("string"),
            "variant": datasets.Value("string"),
            "image": datasets.Image(),
            "question": datasets.Value("string"),
            "target": datasets.Value("string"),
            "answer_type": datasets.Value("string"),
            "labels": datasets.List(datasets.Value("string")),
            "transform": datasets.Value("string"),
        }
    )
    (folder / "renderings").mkdir(parents=True, exist_ok=True)
    datasets.Dataset.from_dict(rows, features=features).to_parquet(folder / "renderings" / "test-00000.parquet")
    (folder / "README.md").write_text(CARD)
    return sorted(ids)
