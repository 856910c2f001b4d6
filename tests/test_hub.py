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


def _image_rows(n):
    return [{"id": f"r{i}", "image": {"bytes": _png((i % 256, 0, 0)), "path": None}} for i in range(n)]


IMAGE_FEATURES = datasets.Features({"id": datasets.Value("string"), "image": datasets.Image()})


def _streamed(folder, rows, cuts, max_rows):
    from rend_equiv_dataset.hub import ConfigWriter

    with ConfigWriter(folder, "things", IMAGE_FEATURES, max_rows_per_shard=max_rows) as writer:
        start = 0
        for cut in [*sorted(cuts), len(rows)]:
            writer.add_rows(rows[start:cut])
            start = cut
        return writer.close()


def _files(folder, written):
    return [(folder / p).read_bytes() for p in written.paths]


def test_streamed_shards_do_not_depend_on_how_rows_are_batched(tmp_path):
    from hypothesis import given, settings
    from hypothesis import strategies as st

    rows = _image_rows(230)
    reference = _streamed(tmp_path / "ref", rows, [], 150)
    expected = _files(tmp_path / "ref", reference)
    runs = iter(range(10**6))

    @settings(max_examples=15, deadline=None)
    @given(st.lists(st.integers(0, 230), max_size=6))
    def same_bytes(cuts):
        folder = tmp_path / f"run{next(runs)}"
        written = _streamed(folder, rows, cuts, 150)
        assert written == reference and _files(folder, written) == expected

    same_bytes()


def test_streamed_shards_hold_rows_in_order_in_row_groups_of_100_images(tmp_path):
    import pyarrow.parquet as pq

    written = _streamed(tmp_path, _image_rows(230), [7, 120], 150)
    assert written.paths == ("data/things/test-00000-of-00002.parquet", "data/things/test-00001-of-00002.parquet")
    files = [pq.ParquetFile(tmp_path / p) for p in written.paths]
    assert [[f.metadata.row_group(i).num_rows for i in range(f.num_row_groups)] for f in files] == [[100, 50], [80]]
    assert sum(pq.read_table(tmp_path / p).nbytes for p in written.paths) == written.num_bytes
    assert written.download_size == sum((tmp_path / p).stat().st_size for p in written.paths)
    loaded = datasets.load_dataset("parquet", data_files=[str(tmp_path / p) for p in written.paths], split="train",
                                   cache_dir=str(tmp_path / "cache"))
    assert loaded["id"] == [f"r{i}" for i in range(230)]
    assert loaded[129]["image"].getpixel((0, 0)) == (129, 0, 0)
    assert not list(tmp_path.rglob("*.partial"))


def test_a_config_writer_refuses_rows_of_another_schema(tmp_path):
    import pyarrow as pa

    from rend_equiv_dataset.hub import ConfigWriter

    with ConfigWriter(tmp_path, "things", IMAGE_FEATURES) as writer, pytest.raises(InputError, match="columns and types"):
        writer.add_table(pa.table({"id": ["a"]}))
