"""REND-EQUIV as an lmms-eval task (docs/design.md §8.1).

``_default_template_yaml`` holds the task: our prompt
(:func:`~rend_equiv_dataset.harness.prompts.figure_prompt`), greedy decoding,
answers read by our reader, and one aggregation per reported metric, all
from :mod:`.utils`. :func:`~.task.write_task_folder` (``rend-equiv export
--format lmms-eval``) writes the task YAMLs for one release folder —
``rend_equiv`` over ``renderings`` and ``rend_equiv_matched_cycle`` over the
matched swap/cycle set — for lmms-eval's ``--include_path``.
"""
