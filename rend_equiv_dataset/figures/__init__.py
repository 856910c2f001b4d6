"""REND-EQUIV, end to end: chart data → render → edit → run a model → score → report.

- :mod:`.charts` — chart data model, families, styles, renderer;
- :mod:`.questions` — question types, exact answers and the edits that apply;
- :mod:`.edits` — edit operators g and their difficulty controls;
- :mod:`.generate` — instances from seeds (the law a*(g(D), q) = φ_g(a*(D, q)) checked);
- :mod:`.tables` — instances from real tables: import, questions, export, digitize;
- :mod:`.release` — images, parquet configs and the dataset card;
- :mod:`.answers` — reading an answer out of a model's output, relaxed correctness;
- :mod:`.scoring` — REA, ECS, IBEM per instance, the paper's tables, report, plots.
"""
