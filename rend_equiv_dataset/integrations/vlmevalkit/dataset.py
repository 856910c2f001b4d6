"""The VLMEvalKit dataset class for REND-EQUIV (docs/design.md §8.2).

The behaviour is :class:`RendEquivMethods`; :func:`dataset_class` puts it in
front of VLMEvalKit's ``ImageBaseDataset`` when asked, so importing this
module does not import VLMEvalKit. VLMEvalKit builds the class with a dataset name (``REND_EQUIV`` or
``REND_EQUIV_MATCHED_CYCLE``); :meth:`RendEquivMethods.load_data` reads
``$LMUData/<name>.tsv`` as :mod:`.tsv` wrote it (and never downloads),
:meth:`~RendEquivMethods.build_prompt` sends the PNG and our prompt, and
:meth:`~RendEquivMethods.evaluate` scores the predictions table with the
scorer of ``rend-equiv score``
(:func:`~rend_equiv_dataset.integrations.scores.harness_metrics`), returns
one row of metrics (VLMEvalKit's result table) and writes the outputs as our
predictions file beside the table (``<table stem>_predictions.jsonl``).
"""

from __future__ import annotations

import base64
import math
from pathlib import Path
from typing import Any, ClassVar

from functools import cache

import pandas as pd

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.harness.prompts import figure_prompt
from rend_equiv_dataset.integrations.logs import read_table, write_sample_predictions
from rend_equiv_dataset.integrations.scores import (
    ROW_FIELDS,
    harness_metrics,
    sample_record,
)
from rend_equiv_dataset.integrations.vlmevalkit.tsv import DATASETS
from rend_equiv_dataset.io import atomic_write_bytes


class RendEquivMethods:
    """REND-EQUIV renderings as a VLMEvalKit VQA-style image dataset (the methods; see :func:`dataset_class`)."""

    dataset_name: str
    img_root: str
    data: pd.DataFrame

    TYPE = "VQA"
    MODALITY = "IMAGE"
    DATASET_URL: ClassVar[dict[str, str]] = {name: "" for name in DATASETS}
    DATASET_MD5: ClassVar[dict[str, str]] = {}

    def load_data(self, dataset: str) -> pd.DataFrame:
        """The exported TSV ``$LMUData/<dataset>.tsv``, every column as text."""
        from vlmeval.smp import LMUDataRoot

        path = Path(LMUDataRoot()) / f"{dataset}.tsv"
        if not path.is_file():
            raise InputError(f"no such file; write it with: rend-equiv export --format vlmevalkit --data RELEASE --out {path}", file=path)
        return pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False, na_values=[])

    def dump_image(self, line: Any) -> list[str]:
        """The rendering's PNG, written once under the image root as is (VLMEvalKit's default re-encodes to JPEG)."""
        root = Path(self.img_root)
        root.mkdir(parents=True, exist_ok=True)
        path = root / f"{line['index']}.png"
        if not path.is_file():
            atomic_write_bytes(path, base64.b64decode(line["image"]))
        return [str(path)]

    def build_prompt(self, line: Any) -> list[dict[str, str]]:
        """The image, then our prompt (:func:`~rend_equiv_dataset.harness.prompts.figure_prompt`)."""
        if isinstance(line, int):
            line = self.data.iloc[line]
        return [*({"type": "image", "value": p} for p in self.dump_image(line)),
                {"type": "text", "value": figure_prompt(line["question"])}]

    def evaluate(self, eval_file: str, **judge_kwargs: Any) -> pd.DataFrame:
        """Score VLMEvalKit's predictions table; one row of metrics (see the module docstring)."""
        path = Path(eval_file)
        table = read_table(path)
        missing = [c for c in (*ROW_FIELDS, "prediction") if c not in table]
        if missing:
            raise InputError(f"expected the REND_EQUIV columns, missing {missing}", file=path, field=missing[0])
        records = []
        for i in range(len(table["render_id"])):
            row = {c: table[c][i] for c in ROW_FIELDS}
            prediction = table["prediction"][i]
            unanswered = prediction is None or (isinstance(prediction, float) and math.isnan(prediction))
            records.append(sample_record(row, None if unanswered else str(prediction)))
        metrics = harness_metrics(records)
        write_sample_predictions(records, path.with_name(f"{path.stem}_predictions.jsonl"),
                                 meta={"harness": "vlmevalkit", "dataset": self.dataset_name})
        return pd.DataFrame([metrics])


@cache
def dataset_class() -> type[Any]:
    """``RendEquivDataset``: :class:`RendEquivMethods` over VLMEvalKit's ``ImageBaseDataset`` (one class per process)."""
    from vlmeval.dataset.image_base import ImageBaseDataset

    return type("RendEquivDataset", (RendEquivMethods, ImageBaseDataset), {"__module__": __name__,
                                                                            "__doc__": RendEquivMethods.__doc__})
