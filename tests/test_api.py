"""The curated top-level API: every name resolves to its defining module, and the import stays light."""

from __future__ import annotations

import importlib
import subprocess
import sys

import numpy as np
import pytest

import rend_equiv_dataset


@pytest.mark.parametrize("name", rend_equiv_dataset.__all__)
def test_every_public_name_resolves(name):
    value = getattr(rend_equiv_dataset, name)
    if name != "__version__":
        module = rend_equiv_dataset.API[name]
        assert value is getattr(importlib.import_module(module), name)
        assert value.__module__ == module  # the API names a definition, not a re-export
        assert (value.__doc__ or "").strip(), f"{name} has no docstring"
    assert name in dir(rend_equiv_dataset)


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="has no attribute 'generate_everything'"):
        rend_equiv_dataset.generate_everything  # noqa: B018
    assert not hasattr(rend_equiv_dataset, "RuleKind")


def test_the_api_works_end_to_end_on_a_small_case():
    from rend_equiv_dataset import PanelData, generate_instance, grade, n_eff, stratified_gain

    inst = generate_instance(0, 6)
    assert grade(f"The answer is {inst.target}.", inst.target, inst.answer_type, labels=inst.labels).correct
    data = PanelData.from_arrays([[1, 1, 0], [0, 0, 1]], [1, 0], [1, 1], ["p", "q"])
    # both queries pivotal; uniform replacement is right on 3/3 and 1/3 of the choices, the panel on both
    assert stratified_gain(data).pivotal_gain == pytest.approx(2 / 3 - 1)
    assert n_eff(np.array([[1, 1], [0, 0], [1, 1], [0, 0]])) == pytest.approx(1.0)  # identical judges count once


def test_importing_the_package_loads_no_heavy_library():
    code = ("import sys, rend_equiv_dataset; from rend_equiv_dataset import __version__; "
            "print(sorted(m for m in ('numpy', 'datasets', 'torch', 'transformers', 'pydantic', 'matplotlib') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
