"""The README.md dataset card of a release (docs/design.md §3.4): provenance, counts, how to use it.

The card holds no timestamps or paths, so the same build settings give the
same card on any machine with the same library versions.
"""

from __future__ import annotations

import platform
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rend_equiv_dataset import __version__
from rend_equiv_dataset.reports import markdown_table


@dataclass(frozen=True)
class ReleaseSettings:
    """How a release was made; written into its card."""

    seeds: tuple[int, ...]
    per_family: int
    rerenders: int
    matched_cycle: int
    source: str = "seeds"
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """As JSON values (a shard records the settings it was built with)."""
        return {"seeds": list(self.seeds), "per_family": self.per_family, "rerenders": self.rerenders,
                "matched_cycle": self.matched_cycle, "source": self.source, "extra": dict(self.extra)}

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> ReleaseSettings:
        """Read back :meth:`to_json` (keys already checked by the caller)."""
        return cls(seeds=tuple(value["seeds"]), per_family=value["per_family"], rerenders=value["rerenders"],
                   matched_cycle=value["matched_cycle"], source=value["source"], extra=dict(value["extra"]))


CITATION_REND_EQUIV = """@misc{rendequiv2026,
  title         = {Consistency Has a Computable Blind Spot: A Commutation Theory of Label-Free
                   Reliability for Vision-Language Figure Reading},
  year          = {2026},
  eprint        = {2608.05675},
  archivePrefix = {arXiv},
  url           = {https://arxiv.org/abs/2608.05675}
}"""
CITATION_PANELS = """@misc{pivotalvote2026,
  title         = {Blind to the Pivotal Vote: Aggregate Independence Metrics Miss Where
                   Verification Actually Helps},
  year          = {2026},
  eprint        = {2608.06940},
  archivePrefix = {arXiv},
  url           = {https://arxiv.org/abs/2608.06940}
}"""
CITATION = f"{CITATION_REND_EQUIV}\n\n{CITATION_PANELS}"
"""Both papers the package implements, as BibTeX (the figure benchmark's first)."""
HUB_REPO = "YOUR-ORG/rend-equiv"
"""The Hub dataset repository the release is meant for: a placeholder to replace before ``push_to_hub``."""


def size_category(n: int) -> str:
    """The Hub's ``size_categories`` bucket of ``n`` rows.

    >>> size_category(999), size_category(1000), size_category(43_200)
    ('n<1K', '1K<n<10K', '10K<n<100K')
    """
    buckets = ((10**3, "n<1K"), (10**4, "1K<n<10K"), (10**5, "10K<n<100K"), (10**6, "100K<n<1M"),
               (10**7, "1M<n<10M"), (10**8, "10M<n<100M"))
    return next((name for bound, name in buckets if n < bound), "n>1T" if n >= 10**12 else "100M<n<1B")


def library_versions() -> dict[str, str]:
    """Versions of everything the bytes of a release depend on."""
    import datasets
    import matplotlib
    import numpy
    import PIL
    import pyarrow

    return {
        "rend-equiv": __version__,
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "matplotlib": matplotlib.__version__,
        "pillow": PIL.__version__,
        "pyarrow": pyarrow.__version__,
        "datasets": datasets.__version__,
    }


def card_license(settings: ReleaseSettings) -> str:
    """The card's ``license``: Apache-2.0 for generated data, ``other`` when user tables bring their own."""
    return "apache-2.0" if settings.source == "seeds" else "other"


def card_extra(rows: Mapping[str, int]) -> dict[str, Any]:
    """YAML fields beyond ``configs``/``dataset_info``/``license``: what the Hub indexes and filters on."""
    return {
        "pretty_name": "REND-EQUIV",
        "language": ["en"],
        "multilinguality": ["monolingual"],
        "task_categories": ["visual-question-answering"],
        "task_ids": ["visual-question-answering"],
        "size_categories": [size_category(rows.get("renderings", max(rows.values(), default=0)))],
        "source_datasets": ["original"],
        "annotations_creators": ["machine-generated"],
        "language_creators": ["machine-generated"],
        "tags": ["charts", "figure-qa", "chart-question-answering", "equivariance", "reliability",
                 "label-free", "synthetic", "benchmark"],
    }


def rebuild_command(settings: ReleaseSettings) -> str:
    """The command line that rebuilds this release (the worker count does not change the bytes)."""
    if settings.source != "seeds":
        return str(settings.extra.get("command", "rend-equiv build"))
    seeds = ",".join(str(s) for s in settings.seeds)
    return (f"rend-equiv build --seeds {seeds} --per-family {settings.per_family} "
            f"--rerenders {settings.rerenders} --matched-cycle {settings.matched_cycle} --out DIR")


def _table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    lines = markdown_table(header, rows)
    return "\n".join(lines)


@dataclass
class ReleaseCounts:
    """What the card counts over the ``instances`` config, added up one row at a time.

    A build adds each instance row as it writes it and a merge adds the rows
    it copies, so both count the same rows the same way without holding them.

    >>> counts = ReleaseCounts()
    >>> counts.add({"family": "bar", "question_type": "argmax", "edits": [{"type": "zoom"}, {"type": "swap"}]})
    >>> counts.instances, counts.mean_g
    (1, 2.0)
    """

    families: Counter[str] = field(default_factory=Counter)
    questions: Counter[str] = field(default_factory=Counter)
    edits: Counter[str] = field(default_factory=Counter)
    instances: int = 0

    def add(self, row: Mapping[str, Any]) -> None:
        """Count one row of the ``instances`` config (``family``, ``question_type``, ``edits[].type``)."""
        self.families[row["family"]] += 1
        self.questions[row["question_type"]] += 1
        self.edits.update(edit["type"] for edit in row["edits"])
        self.instances += 1

    @property
    def mean_g(self) -> float:
        """Mean suite size |G|, zoom included."""
        return sum(self.edits.values()) / self.instances if self.instances else 0.0


def _counts(counts: ReleaseCounts, rows: Mapping[str, int]) -> str:
    config_rows = _table(("config", "rows"), sorted(rows.items()))
    return "\n\n".join([
        config_rows,
        "Instances per family (`instances`):\n\n" + _table(("family", "instances"), sorted(counts.families.items())),
        "Instances per question type:\n\n" + _table(("question type", "instances"), sorted(counts.questions.items())),
        "Edits per type:\n\n" + _table(("edit", "count"), sorted(counts.edits.items())),
        f"Mean suite size |G| (zoom included): {counts.mean_g:.2f}.",
    ])


def _license(settings: ReleaseSettings) -> str:
    if settings.source == "seeds":
        return "Apache-2.0 (synthetic data generated by the `rend-equiv` package)."
    return ("The chart data comes from user tables (the `source` column names each one) and keeps their "
            "license (ChartQA's tables, for example, are GPL-3.0); the questions, edits and renderings "
            "generated by the `rend-equiv` package are Apache-2.0.")


def card_body(counts: ReleaseCounts, settings: ReleaseSettings, rows: Mapping[str, int]) -> str:
    """The Markdown body of the card: ``counts`` of the ``instances`` config, ``rows`` per config."""
    versions = _table(("library", "version"), sorted(library_versions().items()))
    seeds = ", ".join(str(s) for s in settings.seeds) or "none (instances from user tables)"
    return f"""
# REND-EQUIV

Synthetic chart-reading questions with exact answers, each drawn in a base style, in
K={settings.rerenders} cosmetic re-renderings (the invariance set) and under data edits whose
effect on the answer is known exactly (the equivariance set). It measures the
Equivariance-Consistency Score (ECS): whether a model's answers move the way the data moved.

## Configs

- `instances` — one row per instance: `data` (chart data JSON), `question`, `target` (exact
  answer), `answer_type` (`number` or `label`), `labels`, the base image's `render_id` and `style`,
  `rerenders` (list of `style_id`, `style` JSON, `render_id`) and `edits` (list of `type`, `params`
  JSON, `transform` JSON, `target` — the expected answer of the edited chart —, edited `data`
  JSON and `render_id`), and `source` (`synthetic`, or the table file the instance was built from).
  It holds no images: each `render_id` names a row of `renderings` (of `matched_cycle_renderings`
  for `matched_cycle`), so every image is stored once.
- `renderings` — one row per image a model answers: `render_id` (unique), `instance_id`,
  `data_seed`, `template_id`, `family`, `question_type`, `role` (`base`, `rerender`, `edit`),
  `variant` (`base`, the style id, or the edit type), `image`, `question`, `target`,
  `answer_type`, `labels`, `transform`. Prediction files are keyed by `render_id`
  (`<instance_id>/base`, `<instance_id>/rerender/<style_id>`, `<instance_id>/edit/<edit_type>`).
- `matched_cycle` and `matched_cycle_renderings` — the matched set of paper §4.3: charts with
  m=6 categories carrying both a swap and a 6-cycle relabelling of the same base chart and data,
  in the same two layouts.

```python
from datasets import load_dataset
renderings = load_dataset("{HUB_REPO}", "renderings", split="test")   # or a local release folder
rows = renderings.remove_columns("image")   # the references of the `evaluate` modules
```

Every config has one split, `test`: REND-EQUIV is an evaluation benchmark with no training
data. `renderings` is the default config. `{HUB_REPO}` is a placeholder for the repository
this folder is pushed to.

## Counts

{_counts(counts, rows)}

## Answer-transforms

Each edit row stores φ_g as JSON; applying it to the base `target` gives the edit's `target`
(`a*(g(D), q) = φ_g(a*(D, q))`, paper Eq. 1):

- `{{"kind": "identity"}}` — zoom (axis range only) and every re-rendering;
- `{{"kind": "affine", "scale": c, "shift": d}}` — a ↦ c·a + d (scale, offset);
- `{{"kind": "label_map", "map": {{"A": "B"}}}}` — labels not in the map are fixed (delete_max,
  swap, cycle).

Numbers in `target` are canonical: at most 6 decimals, trailing zeros stripped, no thousands
separators.

## How ECS is computed

For an instance with base answer ŷ and edit answers ŷ_g, the residual of edit g is
ρ_g = d(ŷ_g, φ_g(ŷ)): relative difference for numbers (τ_g = 0.05), 0/1 for labels (τ_g = 0).
ECS = mean over g ∈ G (zoom included) of 1[ρ_g ≤ τ_g]; no labels are needed. An instance is
flagged when ECS < 0.5. REA is the fraction of the K re-renderings agreeing with the base answer;
IBEM are instances with REA ≥ 0.75 whose base answer is wrong. `rend-equiv score` and the
`evaluate` modules `metrics/ecs`, `metrics/rea` and `metrics/ibem` call the same functions:

```python
import evaluate
ecs = evaluate.load("metrics/ecs")          # from a checkout of rend-equiv, or its Space on the Hub
ecs.compute(predictions=outputs, references=rows)   # outputs[i] answers rows[i]
```

## Intended use

Evaluating vision-language models that read charts: accuracy (relaxed, 5% for numbers),
and label-free reliability signals (REA, ECS and their combination) judged against it.
Answer every row of `renderings` and score the answers with `rend-equiv score` or the
`evaluate` modules. It is a test set: do not train on it, and report the data seeds used.

## Limitations and biases

- The charts are synthetic: clean matplotlib drawings of generated data with English
  labels. Accuracy here says little about scanned, hand-drawn or dense real-world charts.
- The question templates are few (read a value, difference, sum, argmax, argmin, which of
  two is larger, pie share); free-form reasoning over charts is out of scope.
- ECS detects only errors that do not commute with the suite's edits (paper Theorem 2): a
  pure scale bias escapes the scale edit, a swap-consistent confusion escapes the swap edit.
  A high ECS is not proof of a correct answer.
- Relaxed correctness (5%) can accept a misread value close to the truth and reject a
  correct answer given in another unit than the question's.
- Every label and value is machine-generated; the vocabulary of labels (regions, products,
  years) is English and Western-leaning.

## How it was generated

Seeds: {seeds}. Per family: {settings.per_family}. Re-renderings: {settings.rerenders}.
Matched-cycle instances per seed: {settings.matched_cycle}. Source: {settings.source}.

Rebuild, byte for byte, with the same library versions:

```bash
{rebuild_command(settings)}
```

Charts are drawn with matplotlib's object-oriented API on an Agg canvas (matplotlib's own
pixels), DejaVu Sans with Noto Sans CJK for the glyphs it lacks, fixed margins per template, and
stored as 8-bit RGB PNG (rows filtered "Up", deflated at level 1, no metadata). Every image passed
a legibility check (no text clipped by the canvas or overlapping another text, no character
without a glyph, no mark squashed out of sight by an outlier). Data and styles
come from `numpy.random.PCG64(SeedSequence(seed, spawn_key=(index, ...)))`, so each instance is
the same whether built alone or in parallel. The sha256 of every image, keyed by `render_id`,
is in `images.sha256`.

Library versions:

{versions}

## License and citation

{_license(settings)}

Please cite both papers: the benchmark and ECS, and the pivotal-vote panels whose metrics
share the package.

```bibtex
{CITATION}
```
"""
