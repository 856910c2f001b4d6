"""Imported tables → REND-EQUIV instances: the same matched sets as the synthetic release.

Paper §6 "Transfer to real figures" re-plots a real chart's table and edits
it; this module turns each imported table (:mod:`rend_equiv_dataset.figures.tables.read`)
into :class:`~rend_equiv_dataset.figures.generate.Instance` objects that the
release writer renders exactly like synthetic ones. Nothing here re-implements
a rule: the questions, exact answers a*(D, q) and φ_g come from
:mod:`rend_equiv_dataset.figures.questions`, the edits from
:mod:`rend_equiv_dataset.figures.edits.operators`, the difficulty controls from
:mod:`rend_equiv_dataset.figures.edits.controls`, and every edit passes
:func:`~rend_equiv_dataset.figures.generate.verify_law` (paper Eq. 1).

Questions (docs/design.md §3.1): a table keeps the user questions that
:mod:`rend_equiv_dataset.figures.tables.questions` recognises and confirms;
a table without a kept question gets one question per question type its
family asks in the synthetic set
(:data:`~rend_equiv_dataset.figures.generate.FAMILY_QUESTIONS`), posed by
the package's templates.

Edits (docs/design.md §3.3): suite ``main`` is the synthetic set's (scale, offset,
delete_max, swap, zoom where they apply), ``full`` adds the m-cycle, and
``pilot`` is the paper's real-figure pilot: a ×2 scale edit plus the zoom
control. A real table may already hold near-ties or non-positive values;
the controls then forbid only what an edit adds (a problem the base data has
itself is not held against the edit), and an edit that would turn a label
question into a tie is skipped. A table with negative values gets a zoom
range that runs below its smallest value (:func:`covering_zoom`), so every
bar stays visible. On an ordered axis (years, numbers) swap and cycle are not
used: relabelling 2019 as 2021 would draw time out of order. Charts the
renderer cannot draw legibly are skipped and counted, never drawn clipped;
the legibility check keeps its base-style drawings
(:func:`~rend_equiv_dataset.figures.release.images.remember_base`), so the
release does not draw them again. Every table that gives no instance is named
in :attr:`TableBuild.unbuilt` with the reason.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from rend_equiv_dataset.figures.charts.canonical import format_answer
from rend_equiv_dataset.figures.charts.data import ChartData
from rend_equiv_dataset.figures.charts.families import family_of
from rend_equiv_dataset.figures.questions import QUESTION_TYPES, Question, answer, pose, question_text
from rend_equiv_dataset.figures.edits import OPERATORS, applicable_edits, edit_type, transform_for, violations
from rend_equiv_dataset.figures.edits.operators import ZOOM_HEADROOM, Proposal
from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.figures.generate import (
    EDIT_TRIES,
    EDIT_TYPES,
    FAMILY_QUESTIONS,
    MAIN_SUITE,
    MATCHED_QUESTION_TYPES,
    MATCHED_SUITE,
    Edit,
    Instance,
    StringLawError,
    verify_law,
)
from rend_equiv_dataset.figures.tables.questions import (
    QuestionReport,
    QuestionStatus,
    check_question,
    ill_posed,
    with_question_words,
)
from rend_equiv_dataset.figures.tables.grid import is_ordered_axis
from rend_equiv_dataset.figures.tables.read import GivenQuestion, SourceTable, TableSet
from rend_equiv_dataset.transforms import IDENTITY

TABLE_STREAM = 0x7462
"""First spawn-key word of table instances, so their streams never meet the synthetic sets'."""

PILOT_FACTOR = 2.0
"""The pilot's scale factor (paper §6: a ×2 scale edit)."""

SUITES: dict[str, tuple[str, ...]] = {
    "main": MAIN_SUITE,
    "full": EDIT_TYPES,
    "pilot": ("scale", "zoom"),
}
"""Edit suites offered for tables; an edit is used only where it applies to the question."""

POSE_TRIES = 8

MATCHED_MIN_CATEGORIES = 5
"""Tables with at least this many categories join the matched swap-versus-cycle set:
Corollary 6 (2(m−2)! > m) holds from m = 5; the synthetic set uses m = 6."""

_SUITES_INTERNAL = {**SUITES, "matched": MATCHED_SUITE}

@dataclass(frozen=True)
class TableBuild:
    """Instances built from tables, the source file of each, and what was dropped and why."""

    instances: tuple[Instance, ...]
    sources: Mapping[str, str]
    questions: tuple[QuestionReport, ...] = ()
    skipped: Mapping[str, int] = field(default_factory=dict)
    unbuilt: Mapping[str, str] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        statuses = Counter(q.status.value for q in self.questions)
        return {
            "n_instances": len(self.instances),
            "n_tables": len(set(self.sources.values())),
            "questions": {s.value: statuses.get(s.value, 0) for s in QuestionStatus},
            "skipped": dict(sorted(self.skipped.items())),
            "question_reports": [q.to_dict() for q in self.questions if q.status is not QuestionStatus.KEPT],
            "tables_without_instances": dict(sorted(self.unbuilt.items())),
        }


# --------------------------------------------------------------------------- edits


def _table_key(table_id: str) -> int:
    """A stable 32-bit number for a table id (not its position, so tables never disturb each other)."""
    return int.from_bytes(hashlib.sha256(table_id.encode("utf-8")).digest()[:4], "big")


def _rng(seed: int, table_id: str, k: int) -> np.random.Generator:
    """Per-(table, question) stream: independent of the other tables in the folder."""
    spawn_key = (TABLE_STREAM, _table_key(table_id), k)
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=spawn_key)))


def instance_index(table_id: str, k: int, matched: bool = False) -> int:
    """The ``index`` of a table instance: table key and question slot, so re-rendering styles
    (drawn from the seed and the index) differ between tables and never depend on the others.

    >>> instance_index("revenue", 0) == instance_index("revenue", 0) != instance_index("revenue", 1)
    True
    """
    return (_table_key(table_id) << 12) + (1 << 11 if matched else 0) + k


def _new_problems(base: ChartData, edited: ChartData, kind: str) -> tuple[str, ...]:
    """Control violations the edit adds: the base data's own problems are not held against it."""
    own = set(violations(base, base, "zoom"))
    return tuple(p for p in violations(base, edited, kind) if p not in own)


def hides_values(chart: ChartData) -> bool:
    """Whether the chart's value-axis range leaves some value (or stack total) outside it.

    Synthetic data is positive, so the zoom operator always starts bars at 0;
    a real table with negative values would lose bars under that range, so
    such a zoom is refused here rather than drawn clipped.

    >>> from rend_equiv_dataset.figures.charts.data import Family, Series
    >>> chart = ChartData(Family.BAR, "t", ("A", "B"), (Series("s", (-3.0, 5.0)),))
    >>> hides_values(chart.replace(value_range=(0.0, 9.0))), hides_values(chart.replace(value_range=(-4.0, 9.0)))
    (True, False)
    """
    kind = family_of(chart)
    if chart.value_range is None or not kind.has_value_axis:
        return False
    low, high = chart.value_range
    values = kind.shown_values(chart)
    return min(values) < low or max(values) > high


def covering_zoom(data: ChartData, rng: np.random.Generator) -> Proposal:
    """A zoom range for data with negative values: from below the smallest value (or 0) to above
    the largest (or 0), padded by the zoom headroom, in whole numbers; data and answer unchanged.

    >>> from rend_equiv_dataset.figures.charts.data import Family, Series
    >>> chart = ChartData(Family.BAR, "t", ("A", "B", "C"), (Series("s", (-3.5, 2.0, 5.0)),))
    >>> low, high = covering_zoom(chart, np.random.default_rng(0)).params["value_range"]
    >>> low <= -3.5 and high >= 5.0 and float(low).is_integer() and float(high).is_integer()
    True
    """
    values = family_of(data).shown_values(data)
    low, high = min(0.0, min(values)), max(0.0, max(values))
    pad = (high - low) * (float(rng.uniform(*ZOOM_HEADROOM)) - 1.0)
    value_range = [float(np.floor(low - pad)), float(np.ceil(high + pad))]
    return Proposal(data.replace(value_range=tuple(value_range)), {"value_range": value_range})


def _relabels_time(base: ChartData, edited: ChartData) -> bool:
    """Whether an edit permutes the labels of an ordered (year or number) axis, drawing time out of order."""
    return (edited.categories != base.categories and sorted(edited.categories) == sorted(base.categories)
            and is_ordered_axis(base.categories))


def _propose(kind: str, data: ChartData, question: Question, rng: np.random.Generator, suite: str) -> Any:
    if edit_type(kind).invariance and family_of(data).has_value_axis and min(v for s in data.series for v in s.values) < 0:
        return covering_zoom(data, rng)
    proposal = OPERATORS[kind](data, question, rng)
    if suite == "pilot" and kind == "scale":
        for _ in range(64):
            if proposal is None or proposal.params["factor"] == PILOT_FACTOR:
                break
            proposal = OPERATORS[kind](data, question, rng)
        else:
            return None
    return proposal


def make_edit(kind: str, data: ChartData, question: Question, rng: np.random.Generator,
              suite: str = "main") -> tuple[Edit | None, str]:
    """One law-checked edit of a table's data, or ``None`` and why not."""
    why = "the operator does not apply"
    for _ in range(EDIT_TRIES):
        proposal = _propose(kind, data, question, rng, suite)
        if proposal is None:
            return None, why
        if _relabels_time(data, proposal.data):
            return None, "relabelling an ordered (time) axis would draw it out of order"
        if problems := _new_problems(data, proposal.data, kind):
            why = problems[0]
            continue
        if hides_values(proposal.data):
            return None, "the axis range would hide values (negative data)"
        if (tie := ill_posed(proposal.data, question)) is not None:
            return None, f"the edited data has no single answer: {tie}"
        transform = transform_for(kind, data, question, proposal.params)
        if not edit_type(kind).invariance and transform == IDENTITY:
            return None, "φ is the identity for this question"
        try:
            target = verify_law(data, proposal.data, question, transform)
        except StringLawError:
            why = "the answer is not exact to 6 decimals after the edit"
            continue
        return Edit(kind, proposal.params, transform, proposal.data, target), ""
    return None, why


class Legibility:
    """Whether the renderer can draw a chart legibly in the base style, remembered per chart.

    Synthetic data is drawn from ranges the renderer is built for; a real table
    may not be (overlapping value labels on a crowded line chart), so table
    charts are drawn once here and the illegible ones are reported, not built.
    Each legible drawing is kept for the release (it draws the same chart in the
    same style), so checking costs no extra render.
    """

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled
        self._known: dict[ChartData, bool] = {}

    def __call__(self, chart: ChartData) -> bool:
        if not self.enabled:
            return True
        if chart not in self._known:
            from rend_equiv_dataset.figures.charts.render import IllegibleChartError, render
            from rend_equiv_dataset.figures.charts.styles import base_style
            from rend_equiv_dataset.figures.release.images import remember_base

            try:
                remember_base(chart, render(chart, base_style()))
                self._known[chart] = True
            except IllegibleChartError:
                self._known[chart] = False
        return self._known[chart]


def build_edits(data: ChartData, question: Question, rng: np.random.Generator, suite: str,
                skipped: Counter[str], legible: Legibility | None = None) -> tuple[Edit, ...] | None:
    """The suite G of one instance (zoom included), or ``None`` when even the zoom control fails."""
    applicable = applicable_edits(question.question_type)
    edits = []
    for kind in (k for k in EDIT_TYPES if k in _SUITES_INTERNAL[suite] and k in applicable):
        edit, why = make_edit(kind, data, question, rng, suite)
        if edit is not None and legible is not None and not legible(edit.data):
            edit, why = None, "the edited chart is not legible"
        if edit is None:
            skipped[f"{kind}: {why}"] += 1
            if kind == "zoom":
                return None
            continue
        edits.append(edit)
    return tuple(edits)


# --------------------------------------------------------------------------- instances


def _instance(table: SourceTable, chart: ChartData, question: Question, text: str, seed: int, k: int,
              edits: tuple[Edit, ...], prefix: str = "t") -> Instance:
    qtype = QUESTION_TYPES[question.question_type]
    template_id = f"{prefix}-{table.table_id}-{k:02d}"
    return Instance(
        instance_id=f"s{seed}-{template_id}", data_seed=seed, index=instance_index(table.table_id, k, prefix == "mc"),
        template_id=template_id,
        family=chart.family, question_type=question.question_type, question=text,
        target=format_answer(answer(chart, question), qtype.answer_type), answer_type=qtype.answer_type,
        labels=chart.categories, data=chart, edits=edits, question_params=question.params(),
        source=table.source,
    )


def template_questions(chart: ChartData, rng: np.random.Generator) -> list[Question]:
    """One well-posed question per question type the family asks in the synthetic set."""
    questions = []
    for name in dict.fromkeys(FAMILY_QUESTIONS[chart.family]):
        if QUESTION_TYPES[name].n_categories > len(chart.categories) - (name == "share"):
            continue
        for _ in range(POSE_TRIES):
            question = pose(name, chart, rng)
            if ill_posed(chart, question) is None:
                questions.append(question)
                break
    return questions


def _check_suite(suite: str) -> None:
    if suite not in SUITES:
        raise InputError(f"expected one of {', '.join(SUITES)}, got {suite!r}", field="--table-suite")


def _not_built(report: QuestionReport, why: str) -> QuestionReport:
    return QuestionReport(report.table_id, report.file, report.line, report.question, report.given,
                          QuestionStatus.NOT_BUILT, why, report.recomputed)


def instances_from_tables(tables: TableSet, *, seed: int = 0, suite: str = "main",
                          legible: Legibility | None = None) -> TableBuild:
    """Every table's instances: its kept user questions, else template questions (module docstring).

    ``legible`` (the renderer's check, on by default in the command) drops charts
    and edits that cannot be drawn legibly; they are counted in ``skipped``.
    """
    _check_suite(suite)
    legible = legible or Legibility(enabled=False)
    by_table: dict[str, list[GivenQuestion]] = {}
    for given in tables.questions:
        by_table.setdefault(given.table_id, []).append(given)
    instances: list[Instance] = []
    reports: list[QuestionReport] = []
    skipped: Counter[str] = Counter()
    unbuilt: dict[str, str] = {}
    for refusal in tables.refused:
        unbuilt[refusal.table_id] = f"refused: {refusal}"
        for given in by_table.get(refusal.table_id, []):
            reports.append(QuestionReport(given.table_id, given.file, given.line, given.question, given.answer,
                                          QuestionStatus.NOT_BUILT, "the table was refused"))
    for table in tables.tables:
        before = len(instances)
        table_skips: Counter[str] = Counter()
        chart = with_question_words(table.chart)
        posed: list[tuple[Question, str, int | None]] = []
        for given in by_table.get(table.table_id, []):
            question, report = check_question(chart, given)
            reports.append(report)
            if question is not None:
                posed.append((question, given.question, len(reports) - 1))
        if not posed:
            posed = [(q, question_text(chart, q), None) for q in template_questions(chart, _rng(seed, table.table_id, 0))]
        if not legible(chart):
            skipped["table: the chart is not legible"] += 1
            unbuilt[table.table_id] = "the renderer cannot draw this table legibly"
            for _, _, r in posed:
                if r is not None:
                    reports[r] = _not_built(reports[r], "the renderer cannot draw this table legibly")
            continue
        for k, (question, text, r) in enumerate(posed):
            edits = build_edits(chart, question, _rng(seed, table.table_id, k + 1), suite, table_skips, legible)
            if edits is None:
                table_skips["instance: no zoom control"] += 1
                if r is not None:
                    reports[r] = _not_built(reports[r], "no zoom control passes the difficulty controls")
                continue
            instances.append(_instance(table, chart, question, text, seed, k, edits))
        skipped.update(table_skips)
        if len(instances) == before:
            why = "; ".join(k for k in table_skips if not k.startswith("instance:")) or "no question could be posed"
            unbuilt[table.table_id] = f"no instance: {why}"
    return TableBuild(tuple(instances), {i.instance_id: i.source for i in instances}, tuple(reports), dict(skipped),
                      unbuilt)


def matched_from_tables(tables: TableSet, *, seed: int = 0, legible: Legibility | None = None) -> TableBuild:
    """The matched swap-versus-cycle set from tables (paper §4.3): argmax/argmin questions on
    tables of at least :data:`MATCHED_MIN_CATEGORIES` categories, each with swap, cycle and zoom."""
    legible = legible or Legibility(enabled=False)
    instances: list[Instance] = []
    skipped: Counter[str] = Counter()
    for table in tables.tables:
        chart = with_question_words(table.chart)
        if len(chart.categories) < MATCHED_MIN_CATEGORIES or chart.family not in QUESTION_TYPES["argmax"].families:
            continue
        if not legible(chart):
            continue
        rng = _rng(seed, table.table_id, 1_000)
        questions = [q for q in template_questions(chart, rng) if q.question_type in MATCHED_QUESTION_TYPES]
        for k, question in enumerate(questions):
            edits = build_edits(chart, question, _rng(seed, table.table_id, 1_001 + k), "matched", skipped, legible)
            if edits is not None and [e.edit_type for e in edits] == list(MATCHED_SUITE):
                instances.append(_instance(table, chart, question, question_text(chart, question), seed, k, edits,
                                           prefix="mc"))
    return TableBuild(tuple(instances), {i.instance_id: i.source for i in instances}, (), dict(skipped))


def table_release(path: Any, *, family: str | None, seeds: Sequence[int], suite: str, rerenders: int,
                  matched_limit: int, command: str, strict: bool = False
                  ) -> tuple[dict[str, list[Instance]], Any, dict[str, Any]]:
    """Instance sets, release settings and a report for ``rend-equiv build --from-tables``.

    ``matched_limit`` caps the matched swap-versus-cycle set per seed (``--matched-cycle``; 0: none).
    ``strict`` stops at the first unusable table instead of refusing it and going on.
    """
    from rend_equiv_dataset.figures.tables.grid import parse_family
    from rend_equiv_dataset.figures.tables.read import load_tables
    from rend_equiv_dataset.figures.release import ReleaseSettings

    _check_suite(suite)
    chosen = None if family is None else parse_family(family, field="--family")
    tables = load_tables(path, family=chosen, strict=strict)
    legible = Legibility()
    builds = [instances_from_tables(tables, seed=seed, suite=suite, legible=legible) for seed in seeds]
    matched = [i for seed in seeds if matched_limit
               for i in matched_from_tables(tables, seed=seed, legible=legible).instances[:matched_limit]]
    sets = {"instances": [i for b in builds for i in b.instances]}
    if not sets["instances"]:
        reasons = "; ".join(f"{t}: {why}" for t, why in sorted(builds[0].unbuilt.items()))
        raise InputError(f"no table gave an instance ({reasons})", field="--from-tables")
    if matched:
        sets["matched_cycle"] = matched
    settings = ReleaseSettings(seeds=tuple(seeds), per_family=0, rerenders=rerenders, matched_cycle=len(matched),
                               source=f"tables ({len(tables.tables)}), edit suite {suite}",
                               extra={"command": command})
    skipped: Counter[str] = Counter()
    for build in builds:
        skipped.update(build.skipped)
    unbuilt = {t: why for b in builds for t, why in b.unbuilt.items()
               if all(t in other.unbuilt for other in builds)}
    report = {**builds[0].summary(), "n_instances": len(sets["instances"]), "n_matched_cycle": len(matched),
              "skipped": dict(sorted(skipped.items())), "suite": suite, "seeds": list(seeds),
              "refused_tables": [r.to_dict() for r in tables.refused],
              "tables_without_instances": dict(sorted(unbuilt.items())),
              "table_notes": {t.table_id: list(t.notes) for t in tables.tables if t.notes}}
    return sets, settings, report


def table_problems(report: Mapping[str, Any]) -> list[str]:
    """One line per table that gave no instance (refused ones first, with file, line, field and reason).

    >>> table_problems({"refused_tables": [{"table_id": "a", "file": "t/a.csv", "line": 3, "field": "column 2",
    ...     "reason": "non_numeric_cell: expected a number, got 'x'"}], "tables_without_instances":
    ...     {"a": "refused: …", "b": "the renderer cannot draw this table legibly"}})
    ["t/a.csv:3: field 'column 2': non_numeric_cell: expected a number, got 'x'", 'b: the renderer cannot draw this table legibly']
    """
    refused = report.get("refused_tables", [])
    lines = [str(InputError(r["reason"], file=r["file"], line=r["line"], field=r["field"])) for r in refused]
    ids = {r["table_id"] for r in refused}
    lines += [f"{t}: {why}" for t, why in report.get("tables_without_instances", {}).items() if t not in ids]
    return lines


TABLE_REPORT = "tables_report.json"


def write_table_report(folder: Any, report: Mapping[str, Any]) -> str:
    """Write the question/edit report beside a release's configs (atomically); return a one-line summary."""
    from pathlib import Path

    from rend_equiv_dataset.io import write_json

    target = Path(folder) / TABLE_REPORT
    write_json(target, report, indent=1)
    questions = report["questions"]
    dropped = {k: v for k, v in questions.items() if k != "kept" and v}
    problems = ", ".join(f"{v} {k}" for k, v in dropped.items()) or "none dropped"
    return f"user questions: {questions['kept']} kept, {problems}; details in {target}"


# --------------------------------------------------------------------------- export


def export_instances(instances: Sequence[Instance], out: Any, *, overwrite: bool = False) -> Any:
    """Write instances as a table folder (one table per instance, ``questions.csv`` with targets).

    The export direction of bring-your-own-data: building from the folder asks
    the same questions of the same data and recomputes the same targets.
    """
    from rend_equiv_dataset.figures.tables.export import write_table_dir

    charts = [(i.instance_id, i.data) for i in instances]
    questions = [(i.instance_id, i.question, i.target) for i in instances]
    return write_table_dir(charts, questions, out, overwrite=overwrite)


def release_rows(folder: Any, config: str, columns: Sequence[str]) -> list[dict[str, Any]]:
    """Rows of one config of a release folder, read straight from its parquet shards.

    Read with pyarrow rather than ``datasets.load_dataset``, whose cache can
    answer for another folder of the same name.
    """
    from pathlib import Path

    from rend_equiv_dataset.io import read_parquet

    shards = sorted((Path(folder) / "data" / config).glob("*.parquet"))
    if not shards:
        raise InputError(f"no {config!r} config (no data/{config}/*.parquet)", file=str(folder), field="config")
    rows: list[dict[str, Any]] = []
    for shard in shards:
        rows += read_parquet(shard, columns).to_pylist()
    return rows


def export_release(folder: Any, out: Any, *, config: str = "instances", overwrite: bool = False) -> Any:
    """Export the ``instances`` config of a release folder as a table folder (see :func:`export_instances`)."""
    from rend_equiv_dataset.figures.tables.export import write_table_dir

    rows = release_rows(folder, config, ["instance_id", "data", "question", "target"])
    charts = [(r["instance_id"], ChartData.from_json(r["data"])) for r in rows]
    questions = [(r["instance_id"], r["question"], r["target"]) for r in rows]
    return write_table_dir(charts, questions, out, overwrite=overwrite)
