"""Simulated readers: observed detection by edit type equals the theory's prediction (paper §4, Theorem 7)."""

import pytest

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.figures.scoring.predictions import Prediction
from rend_equiv_dataset.figures.scoring.pipeline import score_predictions
from rend_equiv_dataset.figures.scoring.simulate import mixture_prediction, parse_spec, predicted_by_edit, simulate
from rend_equiv_dataset.figures.scoring.synthetic import synthetic_renderings


@pytest.fixture(scope="module")
def renderings():
    return synthetic_renderings(n_instances=60, seeds=(0, 1), rerenders=2)


@pytest.fixture(scope="module")
def matched():
    return synthetic_renderings(n_instances=40, seeds=(0,), rerenders=2, label_share=1.0, cycle=True)


def _observe(renderings, spec, seed=0, n_resamples=300):
    sim = simulate(renderings, spec, seed=seed)
    predictions = {r["render_id"]: Prediction(**r) for r in sim.records}
    run = score_predictions(renderings, predictions, n_resamples=n_resamples)
    return sim, run


def _rates(run):
    return {g: row["rate"] for g, row in run.report["detection_by_edit"].items() if row["n"]}


def test_perfect_reader_is_always_right(renderings):
    _, run = _observe(renderings, "perfect")
    assert run.report["accuracy"] == 1.0
    assert run.report["ibem"]["n"] == 0
    assert all(s.ecs == 1.0 and s.rea == 1.0 for s in run.scores)


@pytest.fixture(scope="module")
def small_values():
    return synthetic_renderings(n_instances=60, seeds=(0, 1), rerenders=2, values=(1, 20))


def test_pure_scale_error_escapes_scale_and_is_caught_by_offset(small_values):
    renderings = small_values  # values below 20 and shifts >= 5: the commutator exceeds 5% everywhere
    sim, run = _observe(renderings, "scale:1.5")
    observed, predicted = _rates(run), predicted_by_edit(renderings, sim)
    assert observed == {"offset": 1.0, "scale": 0.0, "zoom": 0.0}
    assert predicted == observed
    assert run.report["ibem"]["n"] == 72  # the 36 numeric instances of each seed
    assert all(row["predicted"] == row["rate"] for row in run.report["detection_by_edit"].values() if row["n"])


def test_offset_error_matches_theory_exactly_including_tolerance(renderings):
    sim, run = _observe(renderings, "offset:7")
    observed, predicted = _rates(run), predicted_by_edit(renderings, sim)
    assert predicted == observed
    assert observed["offset"] == 0.0 and observed["zoom"] == 0.0
    assert 0.0 < observed["scale"] < 1.0  # a 7-unit bias hides within 5% on large values


def test_swap_consistent_confusion_escapes_the_swap_edit(renderings):
    sim, run = _observe(renderings, "permute:swap")
    observed, predicted = _rates(run), predicted_by_edit(renderings, sim)
    assert observed["swap"] == 0.0 and observed["zoom"] == 0.0
    assert predicted == observed
    assert run.report["taxonomy"]["ibem"]["permutation"] == run.report["ibem"]["n"]


def test_large_values_hide_a_scale_error_from_offset_within_tolerance(renderings):
    sim, run = _observe(renderings, "scale:1.5")
    observed = _rates(run)
    assert observed["scale"] == 0.0 and 0.0 < observed["offset"] < 1.0
    assert predicted_by_edit(renderings, sim) == observed


def test_cycle_catches_what_swap_misses_on_matched_instances(matched):
    sim, run = _observe(matched, "permute:swap")
    assert predicted_by_edit(matched, sim) == _rates(run)
    cycle = run.report["matched_cycle"]["wrong"]
    assert cycle["swap_flagged"] == 0 and cycle["cycle_flagged"] == cycle["n"] == 40


def test_cycle_confusion_escapes_cycle(matched):
    sim, run = _observe(matched, "permute:cycle")
    observed = _rates(run)
    assert observed["cycle"] == 0.0 and observed["zoom"] == 0.0
    assert observed["swap"] == 1.0  # m = 6: a 6-cycle never commutes with a transposition
    assert predicted_by_edit(matched, sim) == observed


@pytest.mark.parametrize("spec", ["affine:1.2,3", "permute:random", "scale:0.8+permute:cycle"])
def test_zoom_catches_no_style_invariant_error(renderings, spec):
    sim, run = _observe(renderings, spec, seed=3)
    assert _rates(run)["zoom"] == 0.0
    assert predicted_by_edit(renderings, sim) == _rates(run)


def test_mixture_within_bootstrap_interval(renderings):
    spec = "0.4*scale:1.5+0.3*permute:swap+0.3*perfect"
    _, run = _observe(renderings, spec, seed=1, n_resamples=2000)
    population = mixture_prediction(renderings, spec)
    for g, row in run.report["detection_by_edit"].items():
        if not row["n"]:
            continue
        low, high = row["ci"]
        assert low - 1e-12 <= population[g] <= high + 1e-12, (g, population[g], row["ci"])


def test_noise_breaks_invariance(renderings):
    _, run = _observe(renderings, "noise:0.3", seed=2)
    numeric = [s for s in run.scores if s.answer_type == "number"]
    assert sum(s.rea < 0.75 for s in numeric) > len(numeric) / 2
    assert run.report["ibem"]["n"] < len(numeric) / 4


def test_same_seed_same_records(renderings):
    assert simulate(renderings, "noise:0.2+permute:random", seed=5).records == simulate(renderings, "noise:0.2+permute:random", seed=5).records
    assert simulate(renderings, "noise:0.2", seed=5).records != simulate(renderings, "noise:0.2", seed=6).records


@pytest.mark.parametrize("spec", ["", "bogus", "scale:", "scale:x", "affine:1", "0*perfect", "-1*perfect", "noise:0", "permute:other",
                                  "scale:inf", "perfect:1"])
def test_bad_specs(spec):
    with pytest.raises(InputError) as err:
        parse_spec(spec)
    assert err.value.field == "--reader"
