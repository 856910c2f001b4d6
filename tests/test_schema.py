"""The release schema is written once; the writer, the reader and the scorer follow it."""

from __future__ import annotations

from rend_equiv_dataset import schema
from rend_equiv_dataset.figures.release import read, records


def test_renderings_columns_are_the_contract():
    assert schema.RENDERING_COLUMNS == (
        "render_id", "instance_id", "data_seed", "template_id", "family", "question_type", "role",
        "variant", "image", "question", "target", "answer_type", "labels", "transform",
    )
    assert schema.ROLES == ("base", "rerender", "edit")
    assert schema.ANSWER_TYPES == ("number", "label")
    assert "image" not in schema.RENDERING_TEXT_COLUMNS
    assert len(schema.RENDERING_TEXT_COLUMNS) == len(schema.RENDERING_COLUMNS) - 1


def test_writer_features_follow_the_schema():
    assert tuple(records.rendering_features()) == schema.RENDERING_COLUMNS
    features = records.instance_features()
    assert tuple(features) == schema.INSTANCE_COLUMNS
    assert tuple(features["rerenders"].feature) == schema.RERENDER_FIELDS
    assert tuple(features["edits"].feature) == schema.EDIT_FIELDS


def test_reader_reads_the_schema_columns():
    assert read.COLUMNS == schema.RENDERING_TEXT_COLUMNS
    assert read.CONFIG == schema.RENDERINGS and read.MATCHED_CONFIG == schema.MATCHED_CYCLE_RENDERINGS


def test_every_instance_config_has_its_renderings_config():
    assert set(schema.RENDERINGS_OF) | set(schema.RENDERINGS_OF.values()) == set(schema.CONFIGS)
    assert schema.render_id("s1-pie-000", "rerender", "r3") == "s1-pie-000/rerender/r3"
