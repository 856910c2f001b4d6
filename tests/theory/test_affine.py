"""Affine errors against affine edits: Theorem 4 and its undetectable sets, τ = 0 and τ > 0."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.theory.affine import (
    AffineToleranceRegion,
    affine_undetectable,
    commutator_residual,
    commutes_exactly,
)
from rend_equiv_dataset.transforms import IDENTITY, Affine, LabelMap

reals = st.floats(-50, 50, allow_nan=False, allow_infinity=False)
nonzero = reals.filter(lambda x: abs(x) > 1e-3)
not_one = reals.filter(lambda x: abs(x - 1.0) > 1e-3)


@given(alpha=reals, beta=reals, c=not_one, delta=nonzero, a=reals)
def test_theorem_4_residuals_numerically(alpha, beta, c, delta, a):
    """e(φ(a)) − φ(e(a)) is β(1 − c) for scale and δ(α − 1) for offset, at any answer a."""
    error, scale, offset = Affine(alpha, beta), Affine(c, 0.0), Affine(1.0, delta)
    numeric_scale = error.apply(scale.apply(a)) - scale.apply(error.apply(a))
    numeric_offset = error.apply(offset.apply(a)) - offset.apply(error.apply(a))
    assert commutator_residual(error, scale) == pytest.approx(beta * (1 - c), abs=1e-9)
    assert commutator_residual(error, offset) == pytest.approx(delta * (alpha - 1), abs=1e-9)
    scale_of_terms = 1 + abs(alpha * c * a) + abs(c * beta) + abs(beta)
    assert numeric_scale == pytest.approx(commutator_residual(error, scale), abs=1e-9 * scale_of_terms)
    offset_terms = 1 + abs(alpha * a) + abs(alpha * delta) + abs(delta) + abs(beta)
    assert numeric_offset == pytest.approx(commutator_residual(error, offset), abs=1e-9 * offset_terms)


@given(alpha=reals, beta=reals, c=not_one, delta=nonzero)
def test_scale_and_offset_together_are_complete(alpha, beta, c, delta):
    """Only α = 1, β = 0 escapes both edits (Theorem 4)."""
    suite = affine_undetectable([Affine(c, 0.0), Affine(1.0, delta)])
    assert suite.complete and suite.count == 1
    escapes = commutes_exactly(Affine(alpha, beta), Affine(c, 0.0)) and commutes_exactly(
        Affine(alpha, beta), Affine(1.0, delta)
    )
    assert escapes == (alpha == 1.0 and beta == 0.0)
    assert suite.contains(Affine(alpha, beta)) == escapes


@given(alpha=reals, beta=reals, c=not_one)
def test_scale_alone_leaves_pure_scale_errors(alpha, beta, c):
    u = affine_undetectable([Affine(c, 0.0)])
    assert u.dimension == 1 and u.count is None
    assert u.contains(Affine(alpha, beta)) == (beta == 0.0)
    assert u.describe() == "{a ↦ α·a : α ∈ ℝ} (pure scale errors)"


@given(alpha=reals, beta=reals, delta=nonzero)
def test_offset_alone_leaves_pure_offsets(alpha, beta, delta):
    u = affine_undetectable([Affine(1.0, delta)])
    assert u.contains(Affine(alpha, beta)) == (alpha == 1.0)
    assert u.describe() == "{a ↦ a + β : β ∈ ℝ} (pure offset errors)"


@given(c=not_one, d=nonzero, alpha=reals)
def test_a_general_affine_edit_leaves_the_errors_fixing_its_fixed_point(c, d, alpha):
    u = affine_undetectable([Affine(c, d)])
    k = d / (1 - c)
    assert u.fixed_point == pytest.approx(k)
    assert u.contains(Affine(alpha, k * (1 - alpha)))
    assert not u.contains(Affine(alpha, k * (1 - alpha) + 1.0 + abs(k)))


@given(alpha=reals, beta=reals)
def test_identity_edits_change_nothing(alpha, beta):
    """Corollary 3: zoom adds no equation."""
    assert affine_undetectable([IDENTITY]).dimension == 2
    assert affine_undetectable([IDENTITY]).contains(Affine(alpha, beta))
    assert affine_undetectable([Affine(2.0), IDENTITY]) == affine_undetectable([Affine(2.0)])


def test_the_constant_error_is_handled():
    """α = 0 (a non-invertible reading: always the same number) is caught by the scale edit."""
    assert not commutes_exactly(Affine(0.0, 5.0), Affine(2.0, 0.0))
    assert commutes_exactly(Affine(0.0, 0.0), Affine(2.0, 0.0))  # always 0 commutes with a ↦ 2a


def test_parallel_edits_do_not_complete_the_suite():
    assert affine_undetectable([Affine(2.0), Affine(3.0)]).dimension == 1
    assert affine_undetectable([Affine(2.0, -4.0), Affine(3.0, -8.0)]).fixed_point == pytest.approx(4.0)


@given(alpha=st.floats(0.5, 2.0), beta=st.floats(-5, 5), tau=st.floats(0.001, 0.2), extra=st.floats(0.0, 0.2))
def test_tolerance_region_grows_with_tau_and_contains_the_exact_set(alpha, beta, tau, extra):
    """Theorem 2: C_τ ⊆ C_τ' for τ ≤ τ'; and U_0 ⊆ U_τ."""
    phis = (Affine(2.0), Affine(1.0, 3.0))
    small = AffineToleranceRegion(phis, tau, 10.0, 50.0)
    large = AffineToleranceRegion(phis, tau + extra, 10.0, 50.0)
    error = Affine(alpha, beta)
    if small.contains(error):
        assert large.contains(error)
    if affine_undetectable(phis).contains(error):
        assert small.contains(error)


def test_tolerance_region_exact_values():
    region = AffineToleranceRegion((Affine(2.0),), tau=0.05, low=10.0, high=100.0)
    # error a + β: residual |β|, smallest target 2·(10 + β): escapes while |β| ≤ 0.1·(10 + β).
    assert region.contains(Affine(1.0, 1.0))
    assert not region.contains(Affine(1.0, 1.2))
    assert region.contains(Affine(1.0, -0.9))
    assert not region.contains(Affine(1.0, -1.0))
    assert region.slack(Affine(1.0, 1.0), Affine(2.0)) == pytest.approx(1.1)


def test_a_range_through_zero_tolerates_only_exact_commuting():
    region = AffineToleranceRegion((Affine(2.0),), tau=0.5, low=-1.0, high=1.0)
    assert not region.contains(Affine(1.0, 0.01))
    assert region.contains(Affine(3.0, 0.0))
    assert "min_a" in region.describe()


@pytest.mark.parametrize(
    ("tau", "low", "high", "field"),
    [(-0.1, 0.0, 1.0, "tau"), (math.nan, 0.0, 1.0, "tau"), (0.1, 2.0, 1.0, "answers"), (0.1, 0.0, math.inf, "answers")],
)
def test_tolerance_region_rejects_bad_parameters(tau, low, high, field):
    with pytest.raises(InputError) as err:
        AffineToleranceRegion((Affine(2.0),), tau, low, high)
    assert err.value.field == field


def test_label_maps_are_not_affine():
    with pytest.raises(InputError, match="affine error class takes affine maps"):
        affine_undetectable([LabelMap.from_pairs({"A": "B"})])


@given(alpha=reals, beta=reals, c=reals, d=reals)
def test_commuting_is_symmetric(alpha, beta, c, d):
    e, phi = Affine(alpha, beta), Affine(c, d)
    assume(abs(commutator_residual(e, phi)) > 1e-6 or commutes_exactly(e, phi))
    assert commutes_exactly(e, phi) == commutes_exactly(phi, e)


@given(
    alpha=st.floats(-3, 3),
    beta=st.floats(-20, 20),
    a=st.floats(-100, 100),
    tau=st.floats(0.001, 0.5),
    name=st.sampled_from(["scale", "offset"]),
)
def test_region_at_one_answer_agrees_with_commutes(alpha, beta, a, tau, name):
    """The τ > 0 rule has one meaning: the region over [a*, a*] is the commutes(…, at=a*) test."""
    from rend_equiv_dataset.theory import commutes, edit_transform

    phi, error = edit_transform(name), Affine(alpha, beta)
    slack = AffineToleranceRegion((phi,), tau, a, a).slack(error, phi)
    assume(abs(abs(commutator_residual(error, phi)) - slack) > 1e-9 * (1 + slack))  # not on the boundary
    assert AffineToleranceRegion((phi,), tau, a, a).contains(error) == commutes(error, phi, tau=tau, at=a)
