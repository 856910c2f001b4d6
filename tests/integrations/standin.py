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

from PIL import Image

from figures.scoring.release_fixture import TINY_OUTPUTS, tiny_rows


def colour(render_id: str) -> tuple[int, int, int]:
    digest = hashlib.sha256(render_id.encode()).digest()
    return digest[0], digest[1], digest[2]


def png(render_id: str) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (24, 16), colour(render_id)).save(buffer, format="PNG")
    return buffer.getvalue()


def write_image_release(folder: Path) -> Path:
    """The five hand-checked instances of ``tiny_rows`` as a release folder with images."""
    import datasets

    from rend_equiv_dataset.hub import card_metadata, write_card, write_config

    rows = [{**row, "image": {"bytes": png(row["render_id"]), "path": None}} for row in tiny_rows()]
    dataset = datasets.Dataset.from_list(rows).cast_column("image", datasets.Image())
    folder.mkdir(parents=True, exist_ok=True)
    written = write_config(folder, "renderings", dataset)
    write_card(folder, card_metadata([written], default="renderings"), "Test release with images.")
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
