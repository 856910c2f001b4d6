"""The strict predictions reader against malformed files (docs/design.md §7.3)."""

import json

import pytest

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.figures.scoring.predictions import read_predictions, write_predictions

IDS = ["r1", "r2", "r3"]
GOOD = '{"render_id": "r1", "output": "4"}'

BAD_FILES = {
    # name: (bytes, line, field or None, words in the message)
    "malformed_json": (GOOD + '\n{"render_id": "r2", "output": }\n', 2, None, "JSON"),
    "truncated_last_line": (GOOD + '\n{"render_id": "r2", "outp', 2, None, "JSON"),
    "output_is_number": ('{"render_id": "r1", "output": 4}\n', 1, "output", "string"),
    "render_id_is_number": ('{"render_id": 1, "output": "4"}\n', 1, "render_id", "string"),
    "empty_render_id": ('{"render_id": "", "output": "4"}\n', 1, "render_id", "at least 1"),
    "nan_logprob": ('{"render_id": "r1", "output": "4", "logprob": NaN}\n', 1, "logprob", "NaN"),
    "infinity_logprob": ('{"render_id": "r1", "output": "4", "logprob": -Infinity}\n', 1, "logprob", "Infinity"),
    "logprob_is_string": ('{"render_id": "r1", "output": "4", "logprob": "-0.5"}\n', 1, "logprob", "number"),
    "duplicate_render_id": (GOOD + "\n" + GOOD + "\n", 2, "render_id", "duplicate"),
    "duplicate_key": ('{"render_id": "r1", "output": "4", "output": "5"}\n', 1, None, "duplicate key"),
    "unknown_render_id": ('{"render_id": "zz", "output": "4"}\n', 1, "render_id", "not in this release"),
    "empty_file": ("", None, None, "no predictions"),
    "only_meta": ('{"meta": {"model": "m"}}\n', None, None, "no predictions"),
    "blank_line": (GOOD + '\n\n{"render_id": "r2", "output": "4"}\n', 2, None, "blank line"),
    "extra_field": ('{"render_id": "r1", "output": "4", "confidence": 0.9}\n', 1, "confidence", "Extra inputs"),
    "missing_output": ('{"render_id": "r1"}\n', 1, "output", "required"),
    "meta_not_first": (GOOD + '\n{"meta": {"model": "m"}}\n', 2, "meta", "first line"),
    "meta_with_other_keys": ('{"meta": {}, "render_id": "r1"}\n', 1, "meta", "exactly"),
    "meta_not_object": ('{"meta": [1, 2]}\n', 1, "meta", "exactly"),
    "fingerprint_mismatch": ('{"meta": {"dataset_fingerprint": "abc"}}\n' + GOOD + "\n", 1, "meta.dataset_fingerprint", "another dataset"),
    "array_line": ('["r1", "4"]\n', 1, None, "JSON object"),
    "scalar_line": ("42\n", 1, None, "JSON object"),
    "samples_not_strings": ('{"render_id": "r1", "output": "4", "samples": ["1", 2]}\n', 1, "samples.1", "string"),
    "perturbed_is_string": ('{"render_id": "r1", "output": "4", "perturbed": "4"}\n', 1, "perturbed", "list"),
    "answer_is_number": ('{"render_id": "r1", "output": "4", "answer": 4}\n', 1, "answer", "string"),
    "null_output": ('{"render_id": "r1", "output": null}\n', 1, "output", "string"),
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_bad_file_names_line_and_field(tmp_path, name):
    text, line, field, words = BAD_FILES[name]
    path = tmp_path / "p.jsonl"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as err:
        read_predictions(path, IDS, fingerprint="0" * 64)
    assert err.value.file == path
    assert err.value.line == line
    assert err.value.field == field
    assert words.lower() in str(err.value).lower()


def test_at_least_twenty_bad_files():
    assert len(BAD_FILES) >= 20


def test_not_utf8(tmp_path):
    path = tmp_path / "p.jsonl"
    path.write_bytes(b'{"render_id": "r1", "output": "\xff"}\n')
    with pytest.raises(InputError, match="UTF-8"):
        read_predictions(path, IDS)


def test_missing_file(tmp_path):
    with pytest.raises(InputError, match="cannot read"):
        read_predictions(tmp_path / "nope.jsonl", IDS)


def test_missing_renderings_are_listed(tmp_path):
    path = tmp_path / "p.jsonl"
    path.write_text('{"meta": {"dataset_fingerprint": "f"}}\n' + GOOD + "\n", encoding="utf-8")
    result = read_predictions(path, IDS, fingerprint="f")
    assert result.missing == ("r2", "r3")
    assert result.meta == {"dataset_fingerprint": "f"}
    assert result.by_render_id["r1"].output == "4"


def test_optional_fields_and_no_trailing_newline(tmp_path):
    path = tmp_path / "p.jsonl"
    path.write_text(
        '{"render_id": "r1", "output": "x", "answer": "4", "logprob": -1, "samples": ["4", "5"], "perturbed": null}',
        encoding="utf-8",
    )
    prediction = read_predictions(path, IDS).by_render_id["r1"]
    assert (prediction.answer, prediction.logprob, prediction.samples, prediction.perturbed) == ("4", -1.0, ["4", "5"], None)


def test_write_then_read_round_trip(tmp_path):
    path = tmp_path / "out" / "p.jsonl"
    records = [{"render_id": "r1", "output": "4"}, {"render_id": "r2", "output": "B", "logprob": -0.25}]
    write_predictions(path, records, meta={"dataset_fingerprint": "f"})
    result = read_predictions(path, IDS, fingerprint="f")
    assert sorted(result.by_render_id) == ["r1", "r2"]
    assert json.loads(path.read_text().splitlines()[0]) == {"meta": {"dataset_fingerprint": "f"}}


def test_write_refuses_nan_and_leaves_nothing(tmp_path):
    path = tmp_path / "p.jsonl"
    with pytest.raises(ValueError):
        write_predictions(path, [{"render_id": "r1", "output": "4", "logprob": float("nan")}])
    assert list(tmp_path.iterdir()) == []
