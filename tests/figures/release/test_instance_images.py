"""Rendering one instance: illegible styles are replaced, images are cached completely or not at all."""

import pytest

from rend_equiv_dataset.figures.charts import render as render_module
from rend_equiv_dataset.figures.charts.families import family_of
from rend_equiv_dataset.figures.charts.render import IllegibleChartError
from rend_equiv_dataset.figures.charts.styles import rerender_styles
from rend_equiv_dataset.figures.generate import generate_instance
from rend_equiv_dataset.figures.release import images


@pytest.fixture(scope="module")
def instance():
    return generate_instance(0, 0)


def test_an_illegible_style_is_replaced_by_the_next_candidate(instance, monkeypatch):
    first_three = rerender_styles(instance.data_seed, instance.index, 3, family_of(instance.family).lies_horizontal)
    refused = first_three[1].key()
    real_render = render_module.render

    def picky_render(data, style):
        if style.key() == refused:
            raise IllegibleChartError("refused for the test")
        return real_render(data, style)

    monkeypatch.setattr(images, "render", picky_render)
    result = images.render_instance(instance, 2)
    assert [s.style_id for s, _ in result.rerenders] == ["r1", "r2"]
    keys = [s.with_layout(tick_rotation=0.0, font_scale=1.0, canvas_scale=1.0).key() for s, _ in result.rerenders]
    assert refused not in keys
    assert keys[0] == first_three[0].key() and keys[1] == first_three[2].key()


def test_too_many_illegible_styles_fail_loudly(instance, monkeypatch):
    real_render = render_module.render

    def base_only(data, style):
        if style.style_id != "base":
            raise IllegibleChartError("refused for the test")
        return real_render(data, style)

    monkeypatch.setattr(images, "render", base_only)
    with pytest.raises(IllegibleChartError):
        images.render_instance(instance, 1)


def test_cache_round_trip_and_fingerprint(instance, tmp_path):
    rendered = images.render_instance(instance, 2)
    folder = images.cache_path(tmp_path, instance, 2)
    images.save(rendered, folder)
    assert images.load(folder, len(instance.edits)) == rendered
    assert [p.name for p in tmp_path.iterdir()] == [folder.name]  # no temporary folder left behind
    assert images.fingerprint(instance, 2) != images.fingerprint(instance, 3)
    assert images.fingerprint(instance, 2) != images.fingerprint(generate_instance(0, 1), 2)


def test_render_all_reuses_cached_instances(instance, tmp_path, monkeypatch):
    first = list(images.render_all([instance], 1, tmp_path, progress=False))

    def no_render(*args, **kwargs):
        raise AssertionError("a cached instance was rendered again")

    monkeypatch.setattr(images, "render_instance", no_render)
    assert list(images.render_all([instance], 1, tmp_path, progress=False)) == first


def test_a_pool_joins_the_halves_of_each_instance_in_order(tmp_path):
    """Two workers (jobs are half instances, finishing in any order) write what one process writes."""
    instances = [generate_instance(0, k) for k in range(3)]
    one = list(images.render_all(instances, 2, tmp_path / "one", workers=1, progress=False))
    # the middle instance is already cached: the pool renders around it and still yields in order
    two_cache = tmp_path / "two"
    list(images.render_all(instances[1:2], 2, two_cache, workers=1, progress=False))
    two = list(images.render_all(instances, 2, two_cache, workers=2, progress=False))
    assert [f.name for f in two] == [f.name for f in one]
    for a, b in zip(one, two):
        n_edits = len(instances[one.index(a)].edits)
        assert images.load(a, n_edits) == images.load(b, n_edits)
