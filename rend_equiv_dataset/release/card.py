"""The README.md dataset card of a release (DESIGN §3.4): provenance, counts, how to use it.

The card holds no timestamps or paths, so the same build settings give the
same card on any machine with the same library versions.
"""

from __future__ import annotations

import platform
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rend_equiv_dataset import __version__
from rend_equiv_dataset.generators.figures import Instance

if TYPE_CHECKING:
    from rend_equiv_dataset.release.build import ReleaseSettings

CITATION = """@misc{rendequiv2026,
  title         = {Consistency Has a Computable Blind Spot: A Commutation Theory of Label-Free
                   Reliability for Vision-Language Figure Reading},
  year          = {2026},
  eprint        = {2608.05675},
  archivePrefix = {arXiv},
  url           = {https://arxiv.org/abs/2608.05675}
}"""


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


def card_extra() -> dict[str, Any]:
    """YAML fields beyond ``configs``/``dataset_info``/``license``."""
    return {
        "pretty_name": "REND-EQUIV",
        "task_categories": ["visual-question-answering"],
        "language": ["en"],
        "tags": ["charts", "figure-qa", "equivariance", "reliability", "synthetic"],
    }


def rebuild_command(settings: ReleaseSettings) -> str:
    """The command line that rebuilds this release (the worker count does not change the bytes)."""
    if settings.source != "seeds":
        return str(settings.extra.get("command", "rend-equiv build"))
    seeds = ",".join(str(s) for s in settings.seeds)
    return (f"rend-equiv build --seeds {seeds} --per-family {settings.per_family} "
            f"--rerenders {settings.rerenders} --matched-cycle {settings.matched_cycle} --out DIR")


def _table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def _counts(instance_sets: Mapping[str, Sequence[Instance]], rows: Mapping[str, int]) -> str:
    config_rows = _table(("config", "rows"), sorted(rows.items()))
    main = instance_sets.get("instances", ())
    families = Counter(i.family.value for i in main)
    questions = Counter(i.question_type for i in main)
    edits = Counter(e.edit_type for i in main for e in i.edits)
    mean_g = sum(len(i.edits) for i in main) / len(main) if main else 0.0
    return "\n\n".join([
        config_rows,
        "Instances per family (`instances`):\n\n" + _table(("family", "instances"), sorted(families.items())),
        "Instances per question type:\n\n" + _table(("question type", "instances"), sorted(questions.items())),
        "Edits per type:\n\n" + _table(("edit", "count"), sorted(edits.items())),
        f"Mean suite size |G| (zoom included): {mean_g:.2f}.",
    ])


def card_body(instance_sets: Mapping[str, Sequence[Instance]], settings: ReleaseSettings, rows: Mapping[str, int]) -> str:
    """The Markdown body of the card."""
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
  answer), `answer_type` (`number` or `label`), `labels`, the base `image` and its `style`,
  `rerenders` (list of `style_id`, `style` JSON, `image`) and `edits` (list of `type`, `params`
  JSON, `transform` JSON, `target` — the expected answer of the edited chart —, edited `data`
  JSON and `image`), and `source` (`synthetic`, or the table file the instance was built from).
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
renderings = load_dataset("PATH_OR_REPO", "renderings", split="train")
```

## Counts

{_counts(instance_sets, rows)}

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
`metrics/ecs` module compute these from a predictions file keyed by `render_id`.

## How it was generated

Seeds: {seeds}. Per family: {settings.per_family}. Re-renderings: {settings.rerenders}.
Matched-cycle instances per seed: {settings.matched_cycle}. Source: {settings.source}.

Rebuild, byte for byte, with the same library versions:

```bash
{rebuild_command(settings)}
```

Charts are drawn with matplotlib's object-oriented API on an Agg canvas, DejaVu Sans, fixed
margins per template, and encoded by Pillow (RGB, `compress_level=1`). Every image passed a
legibility check (no text clipped by the canvas or overlapping another text). Data and styles
come from `numpy.random.PCG64(SeedSequence(seed, spawn_key=(index, ...)))`, so each instance is
the same whether built alone or in parallel. The sha256 of every image, keyed by `render_id`,
is in `images.sha256`.

Library versions:

{versions}

## License and citation

Apache-2.0 (synthetic data generated by the `rend-equiv` package).

```bibtex
{CITATION}
```
"""
