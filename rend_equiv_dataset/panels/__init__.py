"""Pivotal-vote code-judge panels, end to end: problems → candidates → sandbox → records → panel metrics.

- :mod:`.problems` — HumanEval, evalplus and LiveCodeBench problems with their assertions in source order;
- :mod:`.candidates` — candidate files and mutants of the canonical solutions;
- :mod:`.sandbox` — isolated execution, one pass/fail per assertion;
- :mod:`.judges` — simulated correlated judges and judge verdict files;
- :mod:`.execution_signal` — the execution signal at a coverage level;
- :mod:`.build`, :mod:`.records` — writing and reading panel records;
- :mod:`.metrics` — margins, pivotal gains, gating, effective votes, the panel report.
"""
