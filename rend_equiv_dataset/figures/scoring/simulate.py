"""Simulated readers with planted, documented error classes (paper §4, Theorem 7).

A reader answers every rendering of a release from its correct answer and a
per-instance error map e, the way Lemma 1 models a systematic misreading:
the answer to a rendering with target t is e(t). Because the errors are
planted, the theory's predicted detection per edit type can be computed from
them and compared with what scoring observes.

SPEC grammar (whitespace ignored)::

    SPEC      := PART ("+" PART)*            a mixture, drawn once per instance
    PART      := [WEIGHT "*"] READER          WEIGHT > 0, default 1; weights are normalised
    READER    := "perfect"                    e = identity
               | "affine:" ALPHA "," BETA     numbers read as α·a + β; labels correct
               | "scale:" ALPHA               = affine:ALPHA,0
               | "offset:" BETA               = affine:1,BETA
               | "permute:swap"               labels: the instance's own swap edit (a swap-consistent confusion);
                                              without a swap edit, the answer and the next label; numbers correct
               | "permute:cycle"              labels: each label read as the next one (instance label order)
               | "permute:random"             labels: a seeded uniformly random permutation; numbers correct
               | "noise:" SIGMA               style-dependent noise: every rendering independently, numbers ×(1 + σ·z),
                                              labels replaced by a random other label with probability min(σ, 1)

Examples: ``perfect``, ``scale:1.5``, ``affine:1.2,3``, ``permute:swap``,
``0.5*scale:1.5+0.3*offset:4+0.2*perfect``. Everything is drawn from
``np.random.Generator(PCG64(SeedSequence(seed, spawn_key=(i,))))`` for the
i-th instance in ``instance_id`` order: same seed, same file.

>>> parse_spec("0.25*scale:2 + 0.75*perfect")
[Component(weight=0.25, kind='affine', alpha=2.0, beta=0.0, sigma=0.0), Component(weight=0.75, kind='perfect', alpha=1.0, beta=0.0, sigma=0.0)]
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.figures.release.read import RenderingRow
from rend_equiv_dataset.figures.answers.relaxed import TOLERANCE, target_value, within
from rend_equiv_dataset.figures.scoring.instances import InstanceRenderings, group_instances
from rend_equiv_dataset.theory.detection import detection_probability
from rend_equiv_dataset.schema import LABEL, NUMBER
from rend_equiv_dataset.transforms import IDENTITY, Affine, LabelMap, Transform

FIELD = "--reader"
_PERMUTATIONS = ("swap", "cycle", "random")


@dataclass(frozen=True)
class Component:
    """One reader of a mixture."""

    weight: float
    kind: str  # perfect | affine | permute:swap | permute:cycle | permute:random | noise
    alpha: float = 1.0
    beta: float = 0.0
    sigma: float = 0.0

    @property
    def deterministic(self) -> bool:
        return self.kind != "noise"


def _number(text: str, what: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise InputError(f"{what} must be a number, got {text!r}", field=FIELD) from None
    if not math.isfinite(value):
        raise InputError(f"{what} must be finite, got {text!r}", field=FIELD)
    return value


def _reader(text: str, weight: float) -> Component:
    name, _, arg = text.partition(":")
    if name == "perfect" and not arg:
        return Component(weight, "perfect")
    if name == "affine":
        parts = arg.split(",")
        if len(parts) != 2:
            raise InputError(f"affine needs ALPHA,BETA, got {arg!r}", field=FIELD)
        return Component(weight, "affine", _number(parts[0], "ALPHA"), _number(parts[1], "BETA"))
    if name == "scale":
        return Component(weight, "affine", _number(arg, "ALPHA"), 0.0)
    if name == "offset":
        return Component(weight, "affine", 1.0, _number(arg, "BETA"))
    if name == "permute" and arg in _PERMUTATIONS:
        return Component(weight, f"permute:{arg}")
    if name == "noise":
        sigma = _number(arg, "SIGMA")
        if sigma <= 0:
            raise InputError(f"SIGMA must be > 0, got {arg!r}", field=FIELD)
        return Component(weight, "noise", sigma=sigma)
    raise InputError(
        f"unknown reader {text!r}; expected perfect, affine:A,B, scale:A, offset:B, permute:swap|cycle|random or noise:S",
        field=FIELD,
    )


def parse_spec(spec: str) -> list[Component]:
    """Parse a reader SPEC (see the module docstring) into normalised mixture components."""
    text = "".join(str(spec).split())
    if not text:
        raise InputError("empty reader spec", field=FIELD)
    parts = []
    for part in text.split("+"):
        weight_text, star, reader = part.rpartition("*") if "*" in part else ("1", "", part)
        weight = _number(weight_text, "WEIGHT")
        if weight <= 0 or not reader:
            raise InputError(f"each part needs a weight > 0 and a reader, got {part!r}", field=FIELD)
        parts.append(_reader(reader, weight))
    total = math.fsum(c.weight for c in parts)
    return [Component(c.weight / total, c.kind, c.alpha, c.beta, c.sigma) for c in parts]


def _rng(seed: int, index: int) -> np.random.Generator:
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(index,))))


def planted_error(component: Component, instance: InstanceRenderings, rng: np.random.Generator) -> Transform:
    """The error map this component plants on this instance (identity for the other answer type)."""
    base = instance.base
    if component.kind == "affine":
        return Affine(component.alpha, component.beta) if base.answer_type == NUMBER else IDENTITY
    if not component.kind.startswith("permute:") or base.answer_type != LABEL or len(base.labels) < 2:
        return IDENTITY
    labels = list(base.labels)
    how = component.kind.split(":")[1]
    if how == "swap":
        swap = instance.edits.get("swap")
        if swap is not None and isinstance(swap.transform, LabelMap):
            return swap.transform
        i = labels.index(base.target) if base.target in labels else 0
        return LabelMap.from_pairs({labels[i]: labels[(i + 1) % len(labels)], labels[(i + 1) % len(labels)]: labels[i]})
    if how == "cycle":
        return LabelMap.from_pairs({x: labels[(i + 1) % len(labels)] for i, x in enumerate(labels)})
    order = rng.permutation(len(labels))
    return LabelMap.from_pairs({x: labels[int(j)] for x, j in zip(labels, order)})


def _apply(error: Transform, row: RenderingRow) -> str:
    value = target_value(row.target, row.answer_type)
    answer = error.apply(value) if not isinstance(error, Affine) or row.answer_type == NUMBER else value
    return f"The answer is {answer:.10g}." if isinstance(answer, float) else f"The answer is {answer}."


def _noisy(component: Component, row: RenderingRow, rng: np.random.Generator) -> str:
    if row.answer_type == NUMBER:
        return f"{float(row.target) * (1.0 + component.sigma * rng.standard_normal()):.10g}"
    others = [x for x in row.labels if x != row.target]
    if others and rng.random() < min(component.sigma, 1.0):
        return str(others[int(rng.integers(len(others)))])
    return row.target


@dataclass
class Simulation:
    """A simulated run: one predictions record per rendering and the planted error per instance."""

    records: list[dict[str, str]]
    planted: dict[str, tuple[Component, Transform | None]]


def simulate(renderings: Sequence[RenderingRow], spec: str, seed: int = 0) -> Simulation:
    """Answer every rendering with the planted reader; noise components plant no single map (``None``)."""
    components = parse_spec(spec)
    records: list[dict[str, str]] = []
    planted: dict[str, tuple[Component, Transform | None]] = {}
    for index, instance in enumerate(group_instances(renderings)):
        component, error, answers = answer_instance(components, instance, seed, index)
        records += answers
        planted[instance.base.instance_id] = (component, error)
    records.sort(key=lambda r: r["render_id"])
    return Simulation(records, planted)


def simulated_records(instances: Iterable[InstanceRenderings], spec: str, seed: int = 0) -> Iterator[dict[str, str]]:
    """The records :func:`simulate` gives, instance by instance (``instances`` in ``instance_id`` order), kept nowhere."""
    components = parse_spec(spec)
    for index, instance in enumerate(instances):
        yield from answer_instance(components, instance, seed, index)[2]


def answer_instance(
    components: Sequence[Component], instance: InstanceRenderings, seed: int, index: int
) -> tuple[Component, Transform | None, list[dict[str, str]]]:
    """The i-th instance's reader, its planted map (``None`` for noise) and its records in ``render_id`` order."""
    rng = _rng(seed, index)
    weights = np.array([c.weight for c in components])
    component = components[int(rng.choice(len(components), p=weights))] if len(components) > 1 else components[0]
    rows = [instance.base, *instance.rerenders, *instance.edits.values()]
    error: Transform | None = None
    if component.deterministic:
        error = planted_error(component, instance, rng)
        records = [{"render_id": r.render_id, "output": _apply(error, r)} for r in rows]
    else:
        records = [{"render_id": r.render_id, "output": _noisy(component, r, rng)} for r in rows]
    return component, error, sorted(records, key=lambda r: r["render_id"])


def _wrong(error: Transform, instance: InstanceRenderings) -> bool:
    """Whether the error changes this instance's answer beyond tolerance."""
    base = instance.base
    value = target_value(base.target, base.answer_type)
    if isinstance(error, Affine) and base.answer_type != NUMBER:
        return False
    if isinstance(error, LabelMap) and base.answer_type != LABEL:
        return False
    return not within(error.apply(value), value, base.answer_type)


def predicted_by_edit(renderings: Sequence[RenderingRow], simulation: Simulation) -> dict[str, float | None]:
    """The theory's detection rate per edit type on the reader's IBEM (Theorem 7 (i)).

    Deterministic errors give REA = 1, so an instance is in IBEM exactly when
    its planted error makes it wrong. Each instance contributes the detection
    probability of each edit under its own planted error; averaged over the
    IBEM instances carrying the edit, this is what scoring should observe.
    """
    per_edit: dict[str, list[float]] = {}
    for instance in group_instances(renderings):
        _, error = simulation.planted[instance.base.instance_id]
        if error is None or not _wrong(error, instance):
            continue
        at = target_value(instance.base.target, instance.base.answer_type)
        tau = TOLERANCE[instance.base.answer_type]
        for g, row in instance.edits.items():
            per_edit.setdefault(g, []).append(detection_probability(row.transform, [(1.0, error)], tau=tau, at=at))
    return {g: float(np.mean(v)) for g, v in sorted(per_edit.items())}


def mixture_prediction(renderings: Sequence[RenderingRow], spec: str) -> dict[str, float | None]:
    """Population prediction for a mixture of fixed maps: π(g) over IBEM, from the spec's weights alone.

    P(detect g | IBEM) = Σ_i Σ_c w_c·1[c wrong at i]·π_c(g, i) / Σ_i Σ_c w_c·1[c wrong at i]
    over instances i carrying g; random permutations and noise are not fixed
    maps and are rejected here.
    """
    components = parse_spec(spec)
    if any(c.kind in ("noise", "permute:random") for c in components):
        raise InputError("a population prediction needs fixed maps (no noise or permute:random)", field=FIELD)
    top: dict[str, float] = {}
    bottom: dict[str, float] = {}
    for instance in group_instances(renderings):
        at = target_value(instance.base.target, instance.base.answer_type)
        tau = TOLERANCE[instance.base.answer_type]
        for component in components:
            error = planted_error(component, instance, _rng(0, 0))
            if not _wrong(error, instance):
                continue
            for g, row in instance.edits.items():
                top[g] = top.get(g, 0.0) + component.weight * detection_probability(row.transform, [(1.0, error)], tau=tau, at=at)
                bottom[g] = bottom.get(g, 0.0) + component.weight
    return {g: top[g] / bottom[g] for g in sorted(bottom)}

