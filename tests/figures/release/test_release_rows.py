"""A small release, read back with `datasets`: contracts of docs/design.md §7.2 and the edit law on stored rows."""

import hashlib
import io
import json

import datasets
import numpy as np
import pytest
from PIL import Image

from rend_equiv_dataset.figures.charts.canonical import format_answer, parse_target
from rend_equiv_dataset.figures.charts.data import ChartData
from rend_equiv_dataset.figures.charts.render import render
from rend_equiv_dataset.figures.charts.styles import Style, base_style
from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.figures.generate import generate_instances, generate_matched_cycle
from rend_equiv_dataset.figures.release import ReleaseSettings, build_release
from rend_equiv_dataset.figures.release.build import cache_folder
from rend_equiv_dataset.schema import RENDERING_COLUMNS
from rend_equiv_dataset.transforms import from_json

K = 2
CONFIGS = ("instances", "renderings", "matched_cycle", "matched_cycle_renderings")


@pytest.fixture(scope="module")
def release(tmp_path_factory):
    root = tmp_path_factory.mktemp("release")
    sets = {"instances": generate_instances(0, per_family=1), "matched_cycle": generate_matched_cycle(0, n=2)}
    settings = ReleaseSettings(seeds=(0,), per_family=1, rerenders=K, matched_cycle=2)
    summary = build_release(sets, root / "out", settings, workers=1, progress=False)
    # one private cache per config: datasets caches a local folder by its name
    loaded = {c: datasets.load_dataset(str(summary.folder), c, split="test", cache_dir=str(root / f"hf-cache-{c}"))
              for c in CONFIGS}
    return summary, sets, loaded


def _images_by_render_id(loaded):
    """render_id → decoded image, from the per-image configs (the only ones holding images)."""
    return {r["render_id"]: r["image"] for c in ("renderings", "matched_cycle_renderings") for r in loaded[c]}


def _pixels(image):
    return np.asarray(image.convert("RGB"))


def _decode(png):
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


def test_all_configs_load_and_images_are_stored_once(release):
    summary, sets, loaded = release
    assert summary.rows == {c: len(loaded[c]) for c in CONFIGS}
    assert len(loaded["instances"]) == 6 and len(loaded["matched_cycle"]) == 2
    assert isinstance(loaded["renderings"][0]["image"], Image.Image)
    images = _images_by_render_id(loaded)
    for config, per_image in (("instances", "renderings"), ("matched_cycle", "matched_cycle_renderings")):
        assert "image" not in loaded[config].column_names
        ids = set(loaded[per_image]["render_id"])
        referred = [ref for row in loaded[config] for ref in
                    [row["render_id"], *(r["render_id"] for r in row["rerenders"]), *(e["render_id"] for e in row["edits"])]]
        assert sorted(referred) == sorted(ids)  # every image referred to exactly once, nothing dangling
        assert all(isinstance(images[ref], Image.Image) for ref in referred)
    assert not cache_folder(summary.folder).exists()


def test_renderings_have_exactly_the_contract_fields_and_one_row_per_image(release):
    _, sets, loaded = release
    for config, name in (("renderings", "instances"), ("matched_cycle_renderings", "matched_cycle")):
        rows = loaded[config]
        assert tuple(rows.column_names) == RENDERING_COLUMNS
        assert len(set(rows["render_id"])) == len(rows)
        assert len(rows) == sum(1 + K + len(i.edits) for i in sets[name])
        assert set(rows["role"]) == {"base", "rerender", "edit"}
        assert set(rows["answer_type"]) <= {"number", "label"}


def test_edit_rows_obey_the_law_and_rerenders_keep_the_base_answer(release):
    _, _, loaded = release
    for config in ("renderings", "matched_cycle_renderings"):
        rows = loaded[config].remove_columns("image").to_list()
        base = {r["instance_id"]: r for r in rows if r["role"] == "base"}
        for row in rows:
            b = base[row["instance_id"]]
            transform = from_json(row["transform"])
            assert row["question"] == b["question"] and row["labels"] == b["labels"]
            expected = format_answer(transform.apply(parse_target(b["target"], b["answer_type"])), b["answer_type"])
            assert row["target"] == expected, row["render_id"]
            if row["role"] != "edit":
                assert row["target"] == b["target"] and row["transform"] == '{"kind": "identity"}'


def test_matched_cycle_rows_carry_swap_and_cycle(release):
    _, _, loaded = release
    variants = {r for r, role in zip(loaded["matched_cycle_renderings"]["variant"], loaded["matched_cycle_renderings"]["role"])
                if role == "edit"}
    assert {"swap", "cycle", "zoom"} <= variants


def test_edit_images_are_the_edited_data_drawn_in_the_base_style(release):
    _, sets, loaded = release
    images = _images_by_render_id(loaded)
    for row in loaded["instances"]:
        base_data = ChartData.from_json(row["data"])
        for edit in row["edits"]:
            expected = render(ChartData.from_json(edit["data"]), base_style()).png
            assert np.array_equal(_pixels(images[edit["render_id"]]), _decode(expected))
            if edit["type"] == "zoom":  # second, independent construction: only the axis range changes
                params = json.loads(edit["params"])
                zoomed = base_data.replace(value_range=tuple(params["value_range"]))
                assert np.array_equal(_pixels(images[edit["render_id"]]), _decode(render(zoomed, base_style()).png))


def test_rerenderings_are_the_base_data_in_their_stored_style(release):
    _, _, loaded = release
    images = _images_by_render_id(loaded)
    for row in loaded["instances"]:
        data = ChartData.from_json(row["data"])
        assert np.array_equal(_pixels(images[row["render_id"]]), _decode(render(data, Style.from_json(row["style"])).png))
        assert len(row["rerenders"]) == K
        for rerender in row["rerenders"]:
            style = Style.from_json(rerender["style"])
            assert style.style_id == rerender["style_id"]
            assert np.array_equal(_pixels(images[rerender["render_id"]]), _decode(render(data, style).png))


def test_manifest_and_card(release):
    summary, _, loaded = release
    manifest = dict(line.split("  ")[::-1] for line in (summary.folder / "images.sha256").read_text().splitlines())
    table = loaded["renderings"].cast_column("image", datasets.Image(decode=False))
    assert len(manifest) == len(loaded["renderings"]) + len(loaded["matched_cycle_renderings"])
    for row in table:
        assert manifest[row["render_id"]] == hashlib.sha256(row["image"]["bytes"]).hexdigest()
    text = (summary.folder / "README.md").read_text()
    for needle in ("rend-equiv build --seeds 0 --per-family 1 --rerenders 2 --matched-cycle 2",
                   "images.sha256", "Seeds: 0", "matplotlib", "ECS = mean", "| renderings |",
                   "## Intended use", "## Limitations and biases", 'split="test"'):
        assert needle in text


def test_the_card_parses_and_agrees_with_its_own_parquet_files(release):
    import pyarrow.parquet as pq
    from huggingface_hub import DatasetCard

    summary, _, loaded = release
    card = DatasetCard.load(summary.folder / "README.md")
    data = card.data.to_dict()
    assert data["license"] == "apache-2.0" and data["pretty_name"] == "REND-EQUIV" and data["language"] == ["en"]
    assert data["task_categories"] == ["visual-question-answering"]
    assert data["task_ids"] == ["visual-question-answering"]
    assert data["size_categories"] == ["n<1K"] and data["source_datasets"] == ["original"]
    assert data["annotations_creators"] == data["language_creators"] == ["machine-generated"]
    assert "charts" in data["tags"]
    assert {c["config_name"]: c.get("default", False) for c in data["configs"]} == {
        "instances": False, "renderings": True, "matched_cycle": False, "matched_cycle_renderings": False}
    info = {c["config_name"]: c for c in data["dataset_info"]}
    assert set(info) == set(CONFIGS)
    for config in CONFIGS:
        files = sorted((summary.folder / "data" / config).glob("*.parquet"))
        assert [f.name for f in files] == ["test-00000-of-00001.parquet"]
        table = pq.read_table(files[0])
        (split,) = info[config]["splits"]
        assert split == {"name": "test", "num_bytes": table.nbytes, "num_examples": table.num_rows}
        assert table.num_rows == len(loaded[config]) == summary.rows[config]
        assert info[config]["download_size"] == files[0].stat().st_size
        assert datasets.Features._from_yaml_list(info[config]["features"]) == loaded[config].features
    # both papers, as BibTeX
    assert "2608.05675" in card.text and "2608.06940" in card.text and card.text.count("@misc{") == 2


def test_duplicate_instance_ids_are_refused(tmp_path):
    instances = generate_instances(0, per_family=1)
    settings = ReleaseSettings(seeds=(0,), per_family=1, rerenders=0, matched_cycle=0)
    with pytest.raises(InputError, match="appears twice"):
        build_release({"instances": instances + instances[:1]}, tmp_path / "out", settings, progress=False)
    with pytest.raises(InputError, match="unknown instance set"):
        build_release({"extras": instances}, tmp_path / "out", settings, progress=False)
    assert not (tmp_path / "out").exists()
