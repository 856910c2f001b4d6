"""The REND-EQUIV generator: the equivariance law, the suite, controls, ids and determinism."""

import hashlib
import json
import os
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rend_equiv_dataset.figures.charts.canonical import format_answer, parse_target
from rend_equiv_dataset.figures.charts.data import ChartData, Family, Series
from rend_equiv_dataset.figures.charts.families import FAMILIES
from rend_equiv_dataset.figures.questions import Question, answer, question_text
from rend_equiv_dataset.figures.edits import EditType, operators
from rend_equiv_dataset.figures.edits.controls import chart_has_min_gaps
from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.figures import generate as figures
from rend_equiv_dataset.figures.generate import (
    EDIT_TYPES,
    EquivarianceError,
    Instance,
    StringLawError,
    generate_instance,
    generate_instances,
    generate_matched_cycle,
    generate_matched_instance,
    suite_statistics,
    verify_law,
)
from rend_equiv_dataset.transforms import IDENTITY, Affine, LabelMap, from_json, to_json

ROOT = Path(__file__).resolve().parents[2]

# The designed main-set suite per question type (zoom + the equivariance edits that apply).
MAIN_SUITES = {
    "value": ["scale", "offset", "zoom"],
    "difference": ["scale", "zoom"],
    "sum": ["scale", "offset", "zoom"],
    "argmax": ["delete_max", "swap", "zoom"],
    "argmin": ["swap", "zoom"],
    "compare": ["swap", "zoom"],
    "share": ["delete_max", "zoom"],
}
SEEDS = st.integers(0, 2**31 - 1)


def _question(inst: Instance) -> Question:
    return Question.from_params(inst.question_type, inst.question_params)


def _close(a, b):
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    return abs(a - b) <= 1e-9 * max(1.0, abs(a))


def check_instance(inst: Instance) -> None:
    """Every property an emitted instance must have."""
    q = _question(inst)
    base_answer = answer(inst.data, q)
    assert inst.target == format_answer(base_answer, inst.answer_type)
    assert inst.question == question_text(inst.data, q)
    assert inst.labels == inst.data.categories
    assert chart_has_min_gaps(inst.data)
    kinds = [e.edit_type for e in inst.edits]
    assert kinds.count("zoom") == 1 and 1 <= len(kinds) <= 3
    assert kinds == sorted(kinds, key=EDIT_TYPES.index)
    for edit in inst.edits:
        # the law a*(g(D), q) = φ_g(a*(D, q)), recomputed from the edited data
        edited_answer = answer(edit.data, q)
        assert _close(edited_answer, edit.transform.apply(base_answer)), (inst.instance_id, edit.edit_type)
        assert edit.target == format_answer(edited_answer, inst.answer_type)
        # the string-level law of the release contract, also through the stored JSON
        for transform in (edit.transform, from_json(to_json(edit.transform))):
            via = format_answer(transform.apply(parse_target(inst.target, inst.answer_type)), inst.answer_type)
            assert via == edit.target, (inst.instance_id, edit.edit_type, via, edit.target)
        # zoom is the only identity; every other edit moves the answer
        assert (edit.transform == IDENTITY) == (edit.edit_type == "zoom")
        if edit.edit_type != "zoom":
            assert edit.target != inst.target
        else:  # zoom changes the value-axis range and nothing else
            assert edit.data.value_range is not None and edit.data.replace(value_range=None) == inst.data
        # difficulty controls in the edited data
        assert chart_has_min_gaps(edit.data)
        assert len(edit.data.series) == len(inst.data.series)
        assert edit.data.series_names == inst.data.series_names
        expected_points = len(inst.data.categories) - (edit.edit_type == "delete_max")
        assert len(edit.data.categories) == expected_points
        assert question_text(edit.data, q) == inst.question  # the same question is asked
        assert json.loads(json.dumps(edit.to_dict()))["params"] == dict(edit.params)


@settings(max_examples=150)
@given(SEEDS, st.integers(0, 599))
def test_main_set_law_and_suite_hold_for_any_seed_and_index(seed, index):
    inst = generate_instance(seed, index)
    check_instance(inst)
    assert [e.edit_type for e in inst.edits] == MAIN_SUITES[inst.question_type]
    assert inst.family is FAMILIES[index % 6]
    assert inst.template_id == f"{inst.family.value}-{index // 6:03d}"
    assert inst.instance_id == f"s{seed}-{inst.template_id}"


@settings(max_examples=100)
@given(SEEDS, st.integers(0, 299))
def test_matched_set_law_and_edits_hold_for_any_seed_and_index(seed, index):
    inst = generate_matched_instance(seed, index)
    check_instance(inst)
    assert len(inst.labels) == 6 and inst.answer_type == "label"
    assert inst.question_type in ("argmax", "argmin")
    assert [e.edit_type for e in inst.edits] == ["swap", "cycle", "zoom"]
    swap, cyc = inst.edit("swap"), inst.edit("cycle")
    # swap: a transposition that moves the answer
    assert isinstance(swap.transform, LabelMap) and len(swap.transform.pairs) == 2
    (a, b), (c, d) = swap.transform.pairs
    assert (a, b) == (d, c) and inst.target in (a, b)
    assert swap.transform.is_bijection_on(inst.labels)
    # cycle: a single 6-cycle over all labels
    mapping = cyc.transform.mapping
    assert sorted(mapping) == sorted(inst.labels) and cyc.transform.is_bijection_on(inst.labels)
    label, orbit = inst.labels[0], set()
    for _ in range(6):
        orbit.add(label)
        label = mapping[label]
    assert label == inst.labels[0] and len(orbit) == 6
    # same base chart and data for both edits: only the labels move
    for edit in (swap, cyc):
        assert edit.data.series == inst.data.series
        assert edit.data.replace(categories=inst.data.categories) == inst.data
    assert inst.instance_id == f"s{seed}-mc-{index:03d}" and inst.template_id == f"mc-{index:03d}"


def test_default_sizes_and_statistics():
    main = generate_instances(0)
    assert len(main) == 300 and [i.index for i in main] == list(range(300))
    stats = suite_statistics(main)
    assert stats["families"] == {f.value: 50 for f in sorted(Family, key=lambda f: f.value)}
    assert set(stats["g_size"]) <= {1, 2, 3} and sum(stats["g_size"].values()) == 300
    assert stats["edits"]["zoom"] == 300
    assert 2.4 <= stats["mean_g"] <= 2.8  # the paper's mean is 2.61
    assert stats["mean_g"] == sum(len(i.edits) for i in main) / 300
    assert set(stats["question_types"]) == set(MAIN_SUITES)
    matched = generate_matched_cycle(0)
    assert len(matched) == 150
    m_stats = suite_statistics(matched)
    assert m_stats["g_size"] == {3: 150} and m_stats["categories"] == {6: 150}
    assert m_stats["edits"] == {"cycle": 150, "swap": 150, "zoom": 150}
    assert suite_statistics([])["n_instances"] == 0


def test_statistics_by_hand():
    insts = [generate_instance(0, i) for i in (0, 5, 6)]  # value bar, share pie, argmax bar
    stats = suite_statistics(insts)
    assert [i.question_type for i in insts] == ["value", "share", "argmax"]
    assert stats["g_size"] == {2: 1, 3: 2}
    assert stats["mean_g"] == pytest.approx(8 / 3)
    assert stats["edits"] == {"delete_max": 2, "offset": 1, "scale": 1, "swap": 1, "zoom": 3}
    assert stats["mean_g_by_family"] == {"bar": 3.0, "pie": 2.0}
    assert stats["mean_g_by_question_type"] == {"argmax": 3.0, "share": 2.0, "value": 3.0}


def test_every_template_slot_asks_a_question_its_family_supports():
    for family, types in figures.FAMILY_QUESTIONS.items():
        assert types and all(family in figures.QUESTION_TYPES[t].families for t in types)
    assert set(figures.FAMILY_QUESTIONS) == set(FAMILIES)
    assert {t for types in figures.FAMILY_QUESTIONS.values() for t in types} == set(MAIN_SUITES)


def test_same_seed_same_instances_alone_in_order_reversed_and_in_parallel():
    in_order = generate_instances(7, per_family=3)
    alone = [generate_instance(7, i) for i in range(18)]
    reversed_ = [generate_instance(7, i) for i in reversed(range(18))][::-1]
    with ProcessPoolExecutor(2) as pool:
        parallel = list(pool.map(generate_instance, [7] * 18, range(18)))
    assert in_order == alone == reversed_ == parallel
    assert generate_matched_cycle(7, 12) == [generate_matched_instance(7, i) for i in reversed(range(12))][::-1]


def _digest_script(hash_seed: str) -> str:
    code = (
        "import hashlib, json\n"
        "from rend_equiv_dataset.figures.generate import generate_instances, generate_matched_cycle\n"
        "rows = [i.to_dict() for i in generate_instances(4, per_family=2) + generate_matched_cycle(4, 6)]\n"
        "print(hashlib.sha256(json.dumps(rows, sort_keys=True).encode()).hexdigest())\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return out.stdout.strip()


def test_same_bytes_across_processes_and_hash_seeds():
    rows = [i.to_dict() for i in generate_instances(4, per_family=2) + generate_matched_cycle(4, 6)]
    here = hashlib.sha256(json.dumps(rows, sort_keys=True).encode()).hexdigest()
    assert _digest_script("1") == _digest_script("2") == here


def test_seeds_share_templates_but_no_ids():
    seeds = [generate_instances(s, per_family=4) for s in (0, 1, 2)]
    ids = [{i.instance_id for i in insts} for insts in seeds]
    assert all(len(x) == 24 for x in ids)
    assert not (ids[0] & ids[1]) and not (ids[0] & ids[2]) and not (ids[1] & ids[2])
    for a, b in zip(seeds[0], seeds[1]):
        assert (a.template_id, a.family, a.question_type) == (b.template_id, b.family, b.question_type)
        assert a.data != b.data
    matched = [generate_matched_cycle(s, 6) for s in (0, 1)]
    assert {i.template_id for i in matched[0]} == {i.template_id for i in matched[1]}
    assert not {i.instance_id for i in matched[0]} & {i.instance_id for i in matched[1]}
    assert not {i.instance_id for i in matched[0]} & ids[0]


def test_matched_stream_is_distinct_from_the_main_stream():
    assert generate_matched_instance(0, 0).data != generate_instance(0, 0).data


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda: generate_instance(-1, 0), "seed"),
        (lambda: generate_instance(0, -3), "index"),
        (lambda: generate_instance(True, 0), "seed"),
        (lambda: generate_instance(0, "4"), "index"),
        (lambda: generate_instance(1.5, 0), "seed"),
        (lambda: generate_instances(0, per_family=0), "per_family"),
        (lambda: generate_matched_cycle(0, n=0), "n"),
        (lambda: generate_matched_instance(None, 0), "seed"),
    ],
)
def test_bad_arguments_raise_input_error_naming_the_field(call, field):
    with pytest.raises(InputError) as err:
        call()
    assert err.value.field == field


# --- the generator refuses edits that break the law ------------------------------------------------

BASE = ChartData(Family.BAR, "t", ("A", "B", "C"), (Series("s", (10.0, 30.0, 20.0)),))


def test_verify_law_accepts_a_true_edit_and_rejects_a_false_one():
    doubled = BASE.replace(series=(Series("s", (20.0, 60.0, 40.0)),))
    assert verify_law(BASE, doubled, Question("sum", "s", ()), Affine(2.0)) == "120"
    with pytest.raises(EquivarianceError):
        verify_law(BASE, doubled, Question("sum", "s", ()), Affine(1.0, 60.5))
    swapped = BASE.replace(categories=("A", "C", "B"))
    assert verify_law(BASE, swapped, Question("argmax", "s", ()), LabelMap.from_pairs({"B": "C", "C": "B"})) == "C"
    with pytest.raises(EquivarianceError):
        verify_law(BASE, swapped, Question("argmax", "s", ()), IDENTITY)


def test_verify_law_rejects_answers_that_break_the_string_law():
    # 1.0000004 is written "1"; doubled it is 2.0000008, written "2.000001", not "2"
    base = BASE.replace(series=(Series("s", (1.0000004, 30.0, 20.0)),))
    doubled = base.replace(series=(Series("s", tuple(2 * v for v in base.values())),))
    with pytest.raises(StringLawError, match="string law"):
        verify_law(base, doubled, Question("value", "s", ("A",)), Affine(2.0))


def test_a_lying_operator_is_never_emitted(monkeypatch):
    def lying_scale(data, question, rng):
        proposal = operators.scale(data, question, rng)
        return operators.Proposal(proposal.data, {**proposal.params, "factor": proposal.params["factor"] + 0.5})

    monkeypatch.setattr(operators.Scale, "propose", staticmethod(lying_scale))
    with pytest.raises(EquivarianceError):
        generate_instance(0, 0)  # a value question: scale applies


def test_an_identity_phi_is_never_emitted_as_an_equivariance_edit(monkeypatch):
    monkeypatch.setattr(EditType, "phi", lambda self, data, q, params: IDENTITY)
    with pytest.raises(EquivarianceError, match="identity"):
        generate_instance(0, 0)


def test_edits_that_fail_the_controls_are_resampled_not_emitted(monkeypatch):
    calls = []

    def tie_then_fine(data, question, rng):
        calls.append(1)
        proposal = operators.offset(data, question, rng)
        if len(calls) == 1:  # first proposal creates a near-tie: must be discarded
            values = list(proposal.data.values(question.series))
            values[1] = values[0] * 1.01
            series = tuple(Series(s.name, tuple(values)) if s.name == question.series else s
                           for s in proposal.data.series)
            return operators.Proposal(proposal.data.replace(series=series), proposal.params)
        return proposal

    monkeypatch.setattr(operators.Offset, "propose", staticmethod(tie_then_fine))
    inst = generate_instance(0, 0)
    assert len(calls) >= 2
    check_instance(inst)
