"""A small local release whose every image is one solid colour, and a stand-in model that answers by colour.

The stand-in sees only what a harness gives a model (the image and the
prompt): it reads the image's colour, finds the rendering it was drawn for
and returns the scripted output of :data:`figures.scoring.release_fixture.TINY_OUTPUTS`
(correct readings, a ×1.5 scaled reader, swapped labels, a missing answer).
It records every prompt so tests can check that the harness sent ours.
"""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

from figures.scoring.release_fixture import TINY_OUTPUTS, tiny_rows
from PIL import Image


def colour(render_id: str) -> tuple[int, int, int]:
    digest = hashlib.sha256(render_id.encode()).digest()
    return digest[0], digest[1], digest[2]


def png(render_id: str) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (24, 16), colour(render_id)).save(buffer, format="PNG")
    return buffer.getvalue()


def write_image_release(folder: Path, *, matched: bool = False) -> Path:
    """The five hand-checked instances of ``tiny_rows`` as a release folder with images.

    With ``matched``, the label instances also form a ``matched_cycle_renderings``
    config (ids prefixed ``m-``), as a release with the swap/cycle set has.
    """
    import datasets

    from rend_equiv_dataset.hub import card_metadata, write_card, write_config

    def config(rows: list[dict]) -> datasets.Dataset:
        with_images = [{**row, "image": {"bytes": png(row["render_id"]), "path": None}} for row in rows]
        return datasets.Dataset.from_list(with_images).cast_column("image", datasets.Image())

    folder.mkdir(parents=True, exist_ok=True)
    written = [write_config(folder, "renderings", config(tiny_rows()))]
    if matched:
        labels = [r for r in tiny_rows() if r["answer_type"] == "label"]
        rows = [{**r, "render_id": "m-" + r["render_id"], "instance_id": "m-" + r["instance_id"]} for r in labels]
        written.append(write_config(folder, "matched_cycle_renderings", config(rows)))
    write_card(folder, card_metadata(written, default="renderings"), "Test release with images.")
    return folder


class StandIn:
    """Answer an image by its colour with the scripted output (``None``: no answer, as a missing line)."""

    def __init__(self) -> None:
        self.by_colour = {colour(row["render_id"]): row["render_id"] for row in tiny_rows()}
        assert len(self.by_colour) == len(tiny_rows()), "two renderings share a colour"
        self.prompts: list[str] = []

    def answer(self, image: Image.Image, prompt: str) -> str:
        self.prompts.append(prompt)
        render_id = self.by_colour[image.convert("RGB").getpixel((0, 0))]
        return TINY_OUTPUTS.get(render_id, "")
