"""REND-EQUIV inside the evaluation harnesses researchers already use (docs/design.md §8).

- :mod:`.lmms_eval` — an lmms-eval task package (YAML template and the
  ``doc_to_*``/``process_results``/aggregation functions it names);
- :mod:`.vlmevalkit` — a VLMEvalKit image dataset class, registered without
  editing VLMEvalKit, and the TSV it reads;
- :mod:`.scores` — what both report: the rows a harness logs per sample, and
  the harness metrics taken from the same scoring run ``rend-equiv score`` makes;
- :mod:`.logs` — a harness's per-sample log (lmms-eval samples JSONL,
  VLMEvalKit prediction table) as our predictions file (docs/design.md §7.3).

They ship inside the package so that ``pip install rend-equiv`` is all a user
needs: lmms-eval finds the task through ``--include_path`` and VLMEvalKit the
dataset through :func:`.vlmevalkit.register`. Neither harness is imported here.
"""
