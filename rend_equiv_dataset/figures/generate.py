"""REND-EQUIV instances: chart data, a question, its exact answer and the edit suite G.

The types here are what rendering, the release writer and scoring read
(docs/design.md §3.1, §3.3). An :class:`Instance` is one base chart with one
question; each :class:`Edit` is one element g of its suite G, carrying the
edited data g(D), the answer-transform φ_g and the exact answer of the
edited chart, so that paper Eq. 1 holds::

    a*(g(D), q) = φ_g(a*(D, q))        and, as strings,
    format_answer(edit.transform.apply(parse(instance.target))) == edit.target

Every instance carries exactly one ``zoom`` edit (φ = identity, the
invariance control of paper §3) plus the equivariance edits of its set that
apply to its question type, so with the paper's edits ``len(instance.edits)``
is in {1, 2, 3}. The edits come from the registry
(:mod:`rend_equiv_dataset.figures.edits.registry`), so a registered edit type
is proposed wherever it applies.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from rend_equiv_dataset.figures.charts.canonical import format_answer, parse_target
from rend_equiv_dataset.figures.charts.data import ChartData, Family
from rend_equiv_dataset.figures.charts.families import FAMILIES, family_of, sample_chart
from rend_equiv_dataset.figures.charts.ties import chart_has_min_gaps
from rend_equiv_dataset.figures.edits import registry
from rend_equiv_dataset.figures.questions import QUESTION_TYPES, Question, answer, pose, question_text
from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset import schema
from rend_equiv_dataset.transforms import IDENTITY, Answer, Transform



@dataclass(frozen=True)
class Edit:
    """One edit g of an instance's data, with its answer-transform φ_g.

    Attributes:
        edit_type: a registered edit type (:data:`EDIT_TYPES` are the paper's).
        params: JSON-able parameters of the edit, e.g. ``{"series": "2024", "factor": 2.0}``
            for scale, ``{"series": "2024", "delta": -5.0}`` for offset,
            ``{"series": ..., "deleted": "Japan"}`` for delete_max,
            ``{"labels": ["France", "Japan"]}`` for swap, ``{"cycle": [...]}`` for cycle,
            ``{"value_range": [0.0, 120.0]}`` for zoom.
        transform: φ_g as a :mod:`rend_equiv_dataset.transforms` object (JSON per docs/design.md §7.2).
            Identity only for zoom.
        data: the edited chart data g(D). Drawn in the base style.
        target: canonical answer string of the edited chart, recomputed from ``data``;
            equals ``format_answer(transform.apply(base answer))``.
    """

    edit_type: str
    params: Mapping[str, Any]
    transform: Transform
    data: ChartData
    target: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form; ``transform`` as its docs/design.md §7.2 object."""
        return {
            "edit_type": self.edit_type,
            "params": dict(self.params),
            "transform": self.transform.to_dict(),
            "data": self.data.to_dict(),
            "target": self.target,
        }


@dataclass(frozen=True)
class Instance:
    """One REND-EQUIV instance (docs/design.md §3.1): base chart, question, exact answer, edits.

    Attributes:
        instance_id: unique across seeds, e.g. ``"s0-bar-007"`` (matched set: ``"s0-mc-042"``).
        data_seed: the data seed that generated it.
        index: position in its seed's list (``generate_instance(seed, index)`` rebuilds it).
        template_id: the template slot, shared across seeds (``"bar-007"``, ``"mc-042"``);
            the bootstrap clusters on it. Same slot, same family and question type.
        family: the chart family.
        question_type: one of the types in :mod:`rend_equiv_dataset.figures.questions`
            (``value``, ``difference``, ``sum``, ``argmax``, ``argmin``, ``compare``, ``share``).
        question: question text; the same text is asked of the base and every edit.
        target: canonical answer string for the base chart (``format_answer``).
        answer_type: ``"number"`` or ``"label"``.
        labels: the instance's label set (its categories), for label matching in scoring.
        data: the base chart data.
        edits: the suite G in the registry's order; exactly one ``zoom``.
        question_params: JSON-able parameters the question was built from (series name,
            categories it names), enough to recompute the answer from any edited data.
        source: where the data came from: ``"synthetic"``, or the table file an imported
            instance was built from (bring-your-own-data, paper §6).
    """

    instance_id: str
    data_seed: int
    index: int
    template_id: str
    family: Family
    question_type: str
    question: str
    target: str
    answer_type: str
    labels: tuple[str, ...]
    data: ChartData
    edits: tuple[Edit, ...]
    question_params: Mapping[str, Any] = field(default_factory=dict)
    source: str = "synthetic"

    def edit(self, edit_type: str) -> Edit:
        """The edit of the given type (raises ``KeyError`` when the instance has none)."""
        for e in self.edits:
            if e.edit_type == edit_type:
                return e
        raise KeyError(edit_type)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form (``json.dumps(..., sort_keys=True)`` gives canonical bytes)."""
        return {
            "instance_id": self.instance_id,
            "data_seed": self.data_seed,
            "index": self.index,
            "template_id": self.template_id,
            "family": self.family.value,
            "question_type": self.question_type,
            "question": self.question,
            "target": self.target,
            "answer_type": self.answer_type,
            "labels": list(self.labels),
            "data": self.data.to_dict(),
            "edits": [e.to_dict() for e in self.edits],
            "question_params": dict(self.question_params),
        }


# --- generation ---------------------------------------------------------------------------------

EDIT_TYPES: tuple[str, ...] = schema.EDIT_TYPES
"""The paper's edit types, in the order edits are listed on an instance."""

MATCHED_STREAM = 0x6D63
"""First spawn-key word of the matched cycle set, so its stream never meets the main set's."""

MAIN_SUITE: tuple[str, ...] = registry.suite_edits(registry.MAIN)
"""The paper's edits of the main set (its permutation edit is swap); generation
reads the registry itself, so an edit registered later joins too."""

MATCHED_SUITE: tuple[str, ...] = registry.suite_edits(registry.MATCHED)
"""The matched set's suite: swap and cycle on the same chart and data (paper §4.3)."""

MATCHED_CATEGORIES = 6
"""m of the matched set: Corollary 6 needs m ≥ 5; the paper uses m = 6 (48 vs 6 undetectable)."""

MATCHED_QUESTION_TYPES: tuple[str, ...] = ("argmax", "argmin")

FAMILY_QUESTIONS: dict[Family, tuple[str, ...]] = {family: family_of(family).question_cycle for family in FAMILIES}
"""Question type of each template slot: slot k of a family asks ``types[k % len(types)]``."""

MAX_ATTEMPTS = 200
EDIT_TRIES = 8
REL_TOL = 1e-9


class EquivarianceError(RuntimeError):
    """An edit breaks a*(g(D), q) = φ_g(a*(D, q)): a bug in an operator or a φ rule."""


class StringLawError(ValueError):
    """The law holds on numbers but not on canonical strings: the data is not short enough."""


def _rng(seed: int, *spawn_key: int) -> np.random.Generator:
    """Per-instance stream (docs/design.md §6): identical alone, in order, reversed or in parallel."""
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=spawn_key)))


def _check_int(value: object, name: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise InputError(f"must be an integer >= {minimum}, got {value!r}", field=name)
    return int(value)


def _same_answer(expected: Answer, found: Answer) -> bool:
    if isinstance(expected, str) or isinstance(found, str):
        return expected == found
    return abs(float(expected) - float(found)) <= REL_TOL * max(1.0, abs(float(expected)))


def verify_law(base: ChartData, edited: ChartData, question: Question, transform: Transform) -> str:
    """Check paper Eq. 1 for one edit by recomputing the answer; return the edited target.

    Raises :class:`EquivarianceError` when a*(g(D), q) ≠ φ_g(a*(D, q)), and
    :class:`StringLawError` when the law holds numerically but not on canonical strings
    (``format_answer(φ_g(parse(base target)))`` differs from the edited target),
    which means the data is not short enough for the release contract.

    >>> from rend_equiv_dataset.figures.charts.data import Series
    >>> from rend_equiv_dataset.transforms import Affine
    >>> base = ChartData(Family.BAR, "t", ("A", "B"), (Series("s", (1.5, 4.0)),))
    >>> edited = base.replace(series=(Series("s", (3.0, 8.0)),))
    >>> verify_law(base, edited, Question("sum", "s", ()), Affine(2.0))
    '11'
    >>> verify_law(base, edited, Question("sum", "s", ()), Affine(3.0))
    Traceback (most recent call last):
    ...
    rend_equiv_dataset.figures.generate.EquivarianceError: sum: a*(g(D), q) = 11.0 but φ_g(a*(D, q)) = 16.5
    """
    answer_type = QUESTION_TYPES[question.question_type].answer_type
    base_answer, edited_answer = answer(base, question), answer(edited, question)
    expected = transform.apply(base_answer)
    if not _same_answer(expected, edited_answer):
        raise EquivarianceError(
            f"{question.question_type}: a*(g(D), q) = {edited_answer!r} but φ_g(a*(D, q)) = {expected!r}"
        )
    target = format_answer(edited_answer, answer_type)
    base_target = format_answer(base_answer, answer_type)
    via_string = format_answer(transform.apply(parse_target(base_target, answer_type)), answer_type)
    if via_string != target:
        raise StringLawError(f"string law fails: {via_string!r} from the base target, {target!r} from the data")
    return target


def _make_edit(kind: str, data: ChartData, question: Question, rng: np.random.Generator) -> Edit | None:
    """Propose, control and verify one edit; ``None`` when no proposal passes."""
    edit_type = registry.edit_type(kind)
    for _ in range(EDIT_TRIES):
        proposal = edit_type.propose(data, question, rng)
        if proposal is None:
            return None
        if edit_type.violations(data, proposal.data):
            continue
        transform = edit_type.phi(data, question, proposal.params)
        if not edit_type.invariance and transform == IDENTITY:
            raise EquivarianceError(f"{kind} has φ = identity for {question.question_type}; not an equivariance edit")
        try:
            target = verify_law(data, proposal.data, question, transform)
        except StringLawError:
            continue
        return Edit(kind, proposal.params, transform, proposal.data, target)
    return None


def _suite(question_type: str, suite: str) -> tuple[str, ...]:
    """The registered edits of the instance set ``suite`` that apply to the question type."""
    return tuple(k for k in registry.suite_edits(suite) if registry.edit_type(k).applies_to(question_type))


def _build(rng: np.random.Generator, family: Family, question_type: str, suite_name: str,
           categories: int | None) -> tuple[ChartData, Question, tuple[Edit, ...]]:
    """Draw data and question until every edit of the suite passes controls and the law."""
    suite = _suite(question_type, suite_name)
    for _ in range(MAX_ATTEMPTS):
        data = sample_chart(family, rng, categories)
        if not chart_has_min_gaps(data):
            continue
        question = pose(question_type, data, rng)
        edits = []
        for kind in suite:
            edit = _make_edit(kind, data, question, rng)
            if edit is None:
                break
            edits.append(edit)
        else:
            return data, question, tuple(edits)
    raise RuntimeError(f"no {family.value}/{question_type} instance passed the controls in {MAX_ATTEMPTS} draws")


def _instance(seed: int, index: int, template_id: str, family: Family, question_type: str,
              data: ChartData, question: Question, edits: tuple[Edit, ...]) -> Instance:
    answer_type = QUESTION_TYPES[question_type].answer_type
    return Instance(
        instance_id=f"s{seed}-{template_id}", data_seed=seed, index=index, template_id=template_id,
        family=family, question_type=question_type, question=question_text(data, question),
        target=format_answer(answer(data, question), answer_type), answer_type=answer_type,
        labels=data.categories, data=data, edits=edits, question_params=question.params(),
    )


def template_of(index: int) -> tuple[Family, int, str]:
    """Family, slot and question type of main-set index ``index`` (shared by every seed)."""
    family = FAMILIES[index % len(FAMILIES)]
    slot = index // len(FAMILIES)
    types = FAMILY_QUESTIONS[family]
    return family, slot, types[slot % len(types)]


def generate_instance(seed: int, index: int) -> Instance:
    """Instance ``index`` of data seed ``seed`` (docs/design.md §3.1), built from its own random stream.

    >>> inst = generate_instance(0, 7)
    >>> inst.instance_id, inst.template_id, inst.family.value
    ('s0-grouped_bar-001', 'grouped_bar-001', 'grouped_bar')
    >>> [e.edit_type for e in inst.edits].count("zoom")
    1
    """
    seed, index = _check_int(seed, "seed", 0), _check_int(index, "index", 0)
    family, slot, question_type = template_of(index)
    data, question, edits = _build(_rng(seed, index), family, question_type, registry.MAIN, None)
    return _instance(seed, index, f"{family.value}-{slot:03d}", family, question_type, data, question, edits)


def generate_instances(seed: int, per_family: int = 50) -> list[Instance]:
    """The main set of one data seed: indices ``0 .. 6·per_family − 1``, ``per_family`` per family."""
    seed, per_family = _check_int(seed, "seed", 0), _check_int(per_family, "per_family", 1)
    return [generate_instance(seed, i) for i in range(len(FAMILIES) * per_family)]


def generate_matched_instance(seed: int, index: int) -> Instance:
    """Instance ``index`` of the matched cycle set: m = 6, argmax-type, swap and cycle (paper §4.3).

    >>> inst = generate_matched_instance(0, 42)
    >>> inst.instance_id, len(inst.labels), [e.edit_type for e in inst.edits]
    ('s0-mc-042', 6, ['swap', 'cycle', 'zoom'])
    """
    seed, index = _check_int(seed, "seed", 0), _check_int(index, "index", 0)
    family = FAMILIES[index % len(FAMILIES)]
    question_type = MATCHED_QUESTION_TYPES[(index // len(FAMILIES)) % len(MATCHED_QUESTION_TYPES)]
    rng = _rng(seed, MATCHED_STREAM, index)
    data, question, edits = _build(rng, family, question_type, registry.MATCHED, MATCHED_CATEGORIES)
    return _instance(seed, index, f"mc-{index:03d}", family, question_type, data, question, edits)


def generate_matched_cycle(seed: int, n: int = 150) -> list[Instance]:
    """The matched swap-versus-cycle set of one data seed: ``n`` instances (paper: 150)."""
    seed, n = _check_int(seed, "seed", 0), _check_int(n, "n", 1)
    return [generate_matched_instance(seed, i) for i in range(n)]


class SeedPlan(Sequence[Instance]):
    """The instances of several data seeds, in seed order, each generated when it is read.

    The main set (``SeedPlan.main(seeds, per_family)``) or the matched set
    (``SeedPlan.matched(seeds, n)``) of a release, as a sequence that holds
    only its seeds: ``plan[k]`` is instance ``k % per_seed`` of seed
    ``seeds[k // per_seed]``, the same instance the list functions give, and a
    slice is another plan. A build of a million instances reads it once and
    never holds it whole.

    >>> plan = SeedPlan.main((0, 1), per_family=1)
    >>> len(plan), plan[7].instance_id, plan[6:8][1] == generate_instance(1, 1)
    (12, 's1-grouped_bar-000', True)
    """

    def __init__(self, seeds: Sequence[int], per_seed: int, kind: str, positions: range | None = None) -> None:
        if kind not in _PLAN_KINDS:
            raise InputError(f"expected one of {sorted(_PLAN_KINDS)}, got {kind!r}", field="kind")
        self.seeds = tuple(_check_int(seed, "seed", 0) for seed in seeds)
        if len(set(self.seeds)) != len(self.seeds):
            raise InputError(f"expected distinct seeds, got {list(self.seeds)}", field="seeds")
        self.per_seed, self.kind = per_seed, kind
        self.positions = range(len(self.seeds) * per_seed) if positions is None else positions

    @classmethod
    def main(cls, seeds: Sequence[int], per_family: int) -> SeedPlan:
        """The main sets of ``seeds``: what ``generate_instances`` gives for each, one after the other."""
        return cls(seeds, len(FAMILIES) * _check_int(per_family, "per_family", 1), "main")

    @classmethod
    def matched(cls, seeds: Sequence[int], n: int) -> SeedPlan:
        """The matched swap-versus-cycle sets of ``seeds`` (``generate_matched_cycle``, ``n`` per seed)."""
        return cls(seeds, _check_int(n, "n", 0), "matched")

    def __len__(self) -> int:
        return len(self.positions)

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, slice):
            return SeedPlan(self.seeds, self.per_seed, self.kind, self.positions[key])
        position = self.positions[key]
        seed, index = divmod(position, self.per_seed)
        return _PLAN_KINDS[self.kind](self.seeds[seed], index)

    def __iter__(self) -> Iterator[Instance]:
        for position in self.positions:
            seed, index = divmod(position, self.per_seed)
            yield _PLAN_KINDS[self.kind](self.seeds[seed], index)

    def __reduce__(self) -> tuple[Any, ...]:  # sent to other processes as its seeds, not its instances
        return SeedPlan, (self.seeds, self.per_seed, self.kind, self.positions)


_PLAN_KINDS: dict[str, Callable[[int, int], Instance]] = {"main": generate_instance, "matched": generate_matched_instance}


# --- statistics for the dataset card --------------------------------------------------------------

def suite_statistics(instances: Sequence[Instance]) -> dict[str, Any]:
    """Counts the dataset card reports: |G| distribution and mean, edits, families, question types.

    >>> stats = suite_statistics([generate_instance(0, i) for i in range(6)])
    >>> stats["n_instances"], sum(stats["g_size"].values())
    (6, 6)
    """
    sizes = Counter(len(inst.edits) for inst in instances)
    return {
        "n_instances": len(instances),
        "g_size": {int(k): sizes[k] for k in sorted(sizes)},
        "mean_g": sum(k * v for k, v in sizes.items()) / len(instances) if instances else 0.0,
        "edits": _sorted_counts(e.edit_type for inst in instances for e in inst.edits),
        "families": _sorted_counts(inst.family.value for inst in instances),
        "question_types": _sorted_counts(inst.question_type for inst in instances),
        "answer_types": _sorted_counts(inst.answer_type for inst in instances),
        "categories": _sorted_counts(len(inst.labels) for inst in instances),
        "mean_g_by_family": _mean_by(instances, lambda inst: inst.family.value),
        "mean_g_by_question_type": _mean_by(instances, lambda inst: inst.question_type),
    }


def _mean_by(instances: Sequence[Instance], key: Callable[[Instance], str]) -> dict[str, float]:
    sizes: dict[str, list[int]] = {}
    for inst in instances:
        sizes.setdefault(key(inst), []).append(len(inst.edits))
    return {k: sum(v) / len(v) for k, v in sorted(sizes.items())}


def _sorted_counts(items: Iterable[Any]) -> dict[Any, int]:
    counts = Counter(items)
    return {k: counts[k] for k in sorted(counts)}
