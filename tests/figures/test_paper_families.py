"""Published content is pinned: seed 0 of the paper release does not move when a family is registered.

Generation draws its families from ``PAPER_FAMILIES`` (never from every
registered family), so adding a chart family changes no instance unless a
build asks for it. The golden values below were computed before the family
set was pinned; a change to them is a change to the published benchmark and
must be deliberate (a new release version), never a side effect.
"""

from __future__ import annotations

import hashlib
import inspect
import json

import pytest

from rend_equiv_dataset.figures import generate
from rend_equiv_dataset.figures.charts.data import Family
from rend_equiv_dataset.figures.charts.families import FAMILIES, PAPER_FAMILIES
from rend_equiv_dataset.figures.generate import generate_instances, generate_matched_cycle
from rend_equiv_dataset.figures.release.records import instance_record

SEED0_RECORDS_SHA256 = "ea93a2e28b7191f285a656b1bcdbc5b45bf87e5f06bd3d46ac501324d57e9807"
"""sha256 over the ``instances`` records of seed 0: the main set (50 per family) then the 150 matched ones."""

SMALL_BUILD_FINGERPRINTS = (
    "4dbe5e852190e325ba0cf005238a0567fe4d9e8a8adb7d9d422bb7cb1dd683b7",
    "cebf02618b193ce4256cc195a1819dd931b0e00e649b962326363897f3f6e06b",
)
"""``dataset_fingerprint`` of ``build --seeds 0 --per-family 1 --rerenders 1 --matched-cycle 6``: renderings, matched."""


def _records_sha256(instances) -> str:
    digest = hashlib.sha256()
    for instance in instances:
        digest.update(json.dumps(instance_record(instance), sort_keys=True).encode())
        digest.update(b"\n")
    return digest.hexdigest()


def test_the_paper_families_are_the_six_in_their_order():
    assert [f.value for f in PAPER_FAMILIES] == ["bar", "grouped_bar", "stacked_bar", "line", "scatter", "pie"]
    assert set(PAPER_FAMILIES) <= set(FAMILIES)


@pytest.mark.parametrize("function", [generate.template_of, generate.generate_instance, generate.generate_instances,
                                      generate.generate_matched_instance, generate.generate_matched_cycle])
def test_generation_defaults_to_the_paper_families(function):
    assert inspect.signature(function).parameters["families"].default is PAPER_FAMILIES


def test_seed_0_instances_are_the_published_ones():
    assert _records_sha256(generate_instances(0) + generate_matched_cycle(0)) == SEED0_RECORDS_SHA256


def test_the_registered_families_do_not_decide_the_content(monkeypatch):
    """Were every registered family used, a new one would shift every index; the paper set keeps them put."""
    before = generate.generate_instance(0, 11)
    monkeypatch.setattr(generate, "FAMILIES", (*FAMILIES[::-1],))
    assert generate.generate_instance(0, 11) == before


def test_a_build_may_ask_for_other_families():
    pies = generate_instances(0, per_family=2, families=(Family.PIE,))
    assert [i.family for i in pies] == [Family.PIE, Family.PIE]
    assert pies[0] == generate.generate_instance(0, 0, (Family.PIE,))
    with pytest.raises(ValueError, match="distinct and at least one"):
        generate_instances(0, per_family=1, families=())
    with pytest.raises(ValueError, match="distinct and at least one"):
        generate_instances(0, per_family=1, families=(Family.BAR, Family.BAR))


def test_a_small_seed_0_build_has_the_published_fingerprint(tmp_path):
    from rend_equiv_dataset.cli import main
    from rend_equiv_dataset.figures.release.read import dataset_fingerprint, load_matched_renderings

    out = tmp_path / "release"
    argv = ["build", "--seeds", "0", "--per-family", "1", "--rerenders", "1", "--matched-cycle", "6"]
    assert main([*argv, "--workers", "1", "--out", str(out), "--no-progress"]) == 0
    assert (dataset_fingerprint(out), dataset_fingerprint(load_matched_renderings(out))) == SMALL_BUILD_FINGERPRINTS
