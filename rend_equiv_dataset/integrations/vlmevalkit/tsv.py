"""The VLMEvalKit TSV of a release config (``rend-equiv export --format vlmevalkit``; docs/design.md §8.2).

One line per rendering, tab-separated, with the columns VLMEvalKit's image
datasets expect — ``index`` (0, 1, …), ``image`` (the PNG, base64),
``question`` (the chart question; the prompt is built by
:meth:`~.dataset.RendEquivMethods.build_prompt`), ``answer`` (the target) and
``category`` (the chart family) — plus every light column of the
``renderings`` row (``labels`` as JSON), which the scorer needs. Rows are in
``render_id`` order, so the file is the same bytes for the same release.
"""

from __future__ import annotations

import base64
import csv
import json
from pathlib import Path

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.figures.release.read import has_config, load_rendering_images
from rend_equiv_dataset.integrations.scores import ROW_FIELDS
from rend_equiv_dataset.io import atomic_writer, check_output_file
from rend_equiv_dataset.schema import RENDERINGS

DATASETS = {"REND_EQUIV": "renderings", "REND_EQUIV_MATCHED_CYCLE": "matched_cycle_renderings"}
"""VLMEvalKit dataset name → the release config its TSV holds."""
VLMEVALKIT_COLUMNS = ("index", "image", "question", "answer", "category")
COLUMNS = VLMEVALKIT_COLUMNS + tuple(c for c in ROW_FIELDS if c != "question")


def write_tsv(release: str | Path, out: str | Path, config: str = RENDERINGS) -> int:
    """Write the TSV of ``config`` atomically; returns the number of rows."""
    from tqdm import tqdm

    target = check_output_file(out)
    if config != RENDERINGS and not has_config(release, config):
        raise InputError(f"the release has no {config!r} config", file=release, field="--config")
    table = load_rendering_images(release, config)
    order = sorted(range(len(table)), key=lambda i: table[i]["render_id"])
    with atomic_writer(target) as handle:
        writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
        writer.writerow(COLUMNS)
        for index, i in enumerate(tqdm(order, desc="export", unit="row", leave=False)):
            row = table[i]
            image = row["image"].get("bytes") or Path(row["image"]["path"]).read_bytes()
            extra = {c: json.dumps(row[c], ensure_ascii=False) if c == "labels" else row[c] for c in ROW_FIELDS}
            base = {"index": index, "image": base64.b64encode(image).decode("ascii"),
                    "answer": row["target"], "category": row["family"], **extra}
            writer.writerow([base[c] for c in COLUMNS])
    return len(order)
