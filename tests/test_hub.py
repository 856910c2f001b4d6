"""Hub-ready folders: load_dataset reads what write_config + write_card wrote; writes are atomic.

`datasets` caches by folder name, so every load here gets its own ``cache_dir``.
"""

import hashlib
import io

import datasets
import pytest
import yaml
from PIL import Image

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.io import atomic_dir
from rend_equiv_dataset.hub import card_metadata, config_names, write_card, write_config


def _png(color):
    buffer = io.BytesIO()
    Image.new("RGB", (4, 3), color).save(buffer, format="PNG")
    return buffer.getvalue()


def _dataset(colors=("red", "blue")):
    features = datasets.Features({"id": datasets.Value("string"), "image": datasets.Image()})
    rows = {"id": [f"{c}-{i}" for i, c in enumerate(colors)],
            "image": [{"bytes": _png(c), "path": None} for c in colors]}
    return datasets.Dataset.from_dict(rows, features=features)


def _write(folder, colors=("red", "blue")):
    things = write_config(folder, "things", _dataset(colors))
    others = write_config(folder, "others", _dataset(("green",)))
    write_card(folder, card_metadata([things, others], default="things"), "# Things\n\nTwo tiny images.")
    return things


def _header(folder):
    return yaml.safe_load((folder / "README.md").read_text().split("---")[1])


def test_load_dataset_round_trip_with_images(tmp_path):
    out = tmp_path / "release"
    with atomic_dir(out) as staging:
        _write(staging)
    loaded = datasets.load_dataset(str(out), "things", split="test", cache_dir=str(tmp_path / "cache"))
    assert loaded["id"] == ["red-0", "blue-1"]
    assert loaded[1]["image"].getpixel((0, 0)) == (0, 0, 255)
    assert config_names(out) == ["others", "things"]
    assert "config_name: things" in (out / "README.md").read_text()


def test_default_config_and_split_sizes_in_the_card(tmp_path):
    out = tmp_path / "release"
    out.mkdir()
    written = _write(out)
    header = _header(out)
    assert [c.get("default", False) for c in header["configs"]] == [True, False]
    assert header["configs"][0]["data_files"] == [{"split": "test", "path": "data/things/test-*.parquet"}]
    info = {c["config_name"]: c for c in header["dataset_info"]}
    assert info["things"]["splits"] == [{"name": "test", "num_bytes": written.num_bytes, "num_examples": 2}]
    assert info["others"]["splits"][0]["num_examples"] == 1
    assert info["things"]["download_size"] == (out / written.paths[0]).stat().st_size
    # no config name: the default config
    loaded = datasets.load_dataset(str(out), split="test", cache_dir=str(tmp_path / "cache"))
    assert loaded["id"] == ["red-0", "blue-1"]
    builder = datasets.load_dataset_builder(str(out), "things", cache_dir=str(tmp_path / "cache"))
    assert builder.info.splits["test"].num_examples == 2


def test_a_rebuild_in_the_same_folder_loads_the_new_rows(tmp_path):
    # the card's split sizes change with the rows, so the cache does not serve the old build
    out, cache = tmp_path / "release", str(tmp_path / "cache")
    with atomic_dir(out) as staging:
        _write(staging)
    assert len(datasets.load_dataset(str(out), "things", split="test", cache_dir=cache)) == 2
    with atomic_dir(out, overwrite=True) as staging:
        _write(staging, ("red", "blue", "green", "white"))
    again = datasets.load_dataset(str(out), "things", split="test", cache_dir=cache)
    assert again["id"] == ["red-0", "blue-1", "green-2", "white-3"]


def test_card_metadata_refuses_an_unknown_default_and_twice_written_configs(tmp_path):
    things = write_config(tmp_path, "things", _dataset())
    with pytest.raises(InputError, match="default config 'nope'"):
        card_metadata([things], default="nope")
    with pytest.raises(InputError, match="written twice"):
        card_metadata([things, things])


def test_same_rows_same_bytes(tmp_path):
    digests = []
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
        _write(tmp_path / name)
        digests.append(hashlib.sha256((tmp_path / name / "data/things/test-00000-of-00001.parquet").read_bytes()).hexdigest())
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
