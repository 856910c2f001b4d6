"""The run's view of a release: the same reader as the scorer's, with the images left undecoded."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest
from harness.renderings_folder import write_renderings

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.figures.release.read import decode_image, load_rendering_images, load_renderings


def test_images_come_with_the_rows_the_scorer_reads(tmp_path: Path):
    ids = write_renderings(tmp_path / "release", 4, bad_image_ids=frozenset({"r002"}))
    table = load_rendering_images(tmp_path / "release")
    assert sorted(table["render_id"]) == ids == sorted(r.render_id for r in load_renderings(tmp_path / "release"))
    images = {row["render_id"]: row["image"] for row in table}
    assert set(images["r001"]) == {"bytes", "path"}          # undecoded
    assert decode_image(images["r001"]).mode == "RGB" and decode_image(images["r001"]).size == (48, 36)
    with pytest.raises(OSError):                              # a broken image fails alone, when it is decoded
        decode_image(images["r002"])


def test_a_release_without_images_is_refused_naming_the_column(tmp_path: Path):
    write_renderings(tmp_path / "release", 3)
    for path in (tmp_path / "release" / "renderings").glob("*.parquet"):
        table = pq.read_table(path)
        pq.write_table(table.drop(["image"]), path)
    assert len(load_renderings(tmp_path / "release")) == 3    # the scorer needs no image
    with pytest.raises(InputError) as err:
        load_rendering_images(tmp_path / "release")
    assert err.value.field == "image"


def test_rows_are_checked_as_the_scorer_checks_them(tmp_path: Path):
    write_renderings(tmp_path / "release", 3)
    for path in (tmp_path / "release" / "renderings").glob("*.parquet"):
        table = pq.read_table(path)
        pq.write_table(table.set_column(table.schema.get_field_index("role"), "role",
                                        [["sideways"] * table.num_rows]), path)
    with pytest.raises(InputError) as err:
        load_rendering_images(tmp_path / "release")
    assert err.value.field == "role" and "sideways" in err.value.message


def test_decode_image_needs_bytes_or_a_path():
    with pytest.raises(ValueError, match="neither bytes nor a path"):
        decode_image({"bytes": None, "path": None})
