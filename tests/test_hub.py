"""Hub-ready folders: load_dataset reads what write_config + write_card wrote; writes are atomic."""

import hashlib
import io

import datasets
import pytest
from PIL import Image

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.io import atomic_dir
from rend_equiv_dataset.hub import card_metadata, config_names, write_card, write_config


def _png(color):
    buffer = io.BytesIO()
    Image.new("RGB", (4, 3), color).save(buffer, format="PNG")
    return buffer.getvalue()


def _dataset():
    features = datasets.Features({"id": datasets.Value("string"), "image": datasets.Image()})
    rows = {"id": ["a", "b"], "image": [{"bytes": _png("red"), "path": None}, {"bytes": _png("blue"), "path": None}]}
    return datasets.Dataset.from_dict(rows, features=features)


def _write(folder):
    ds = _dataset()
    write_config(folder, "things", ds)
    write_card(folder, card_metadata({"things": ds.features}), "# Things\n\nTwo tiny images.")


def test_load_dataset_round_trip_with_images(tmp_path):
    out = tmp_path / "release"
    with atomic_dir(out) as staging:
        _write(staging)
    loaded = datasets.load_dataset(str(out), "things", split="train")
    assert loaded["id"] == ["a", "b"]
    assert loaded[1]["image"].getpixel((0, 0)) == (0, 0, 255)
    assert config_names(out) == ["things"]
    assert "config_name: things" in (out / "README.md").read_text()


def test_same_rows_same_bytes(tmp_path):
    digests = []
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
        _write(tmp_path / name)
        digests.append(hashlib.sha256((tmp_path / name / "data/things/train-00000-of-00001.parquet").read_bytes()).hexdigest())
    assert digests[0] == digests[1]


def test_interrupted_write_leaves_nothing(tmp_path):
    out = tmp_path / "release"
    with pytest.raises(KeyboardInterrupt), atomic_dir(out) as staging:
        _write(staging)
        raise KeyboardInterrupt
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []


def test_non_empty_target_needs_overwrite(tmp_path):
    out = tmp_path / "release"
    out.mkdir()
    (out / "keep.txt").write_text("old")
    with pytest.raises(InputError) as err, atomic_dir(out):
        pass
    assert err.value.field == "--out"
    with atomic_dir(out, overwrite=True) as staging:
        _write(staging)
    assert not (out / "keep.txt").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["release"]
