"""VENDORED, MINIMAL: the part of lmms-eval's task contract the REND-EQUIV task relies on, for machines without lmms-eval.

Follows lmms-eval 0.7.3 (``lmms_eval/utils.py``: ``load_yaml_config`` and
``import_function``; ``lmms_eval/api/task.py``: ``ConfigurableTask``;
``lmms_eval/evaluator_utils.py``: ``calculate_aggregate_metric``;
``lmms_eval/loggers/evaluation_tracker.py``: the saved samples log): ``include`` merged under the
file's keys, ``!function module.name`` loaded from ``module.py`` beside the
YAML that names it, the split loaded with ``datasets.load_dataset(dataset_path,
dataset_name)``, ``process_results(doc, [stripped text])`` per document, each
metric's ``aggregation`` over the list of its per-document values, and a
samples log line as ``save_results_samples`` writes it: ``doc`` and
``arguments`` dropped, ``input`` (the prompt), ``filtered_resps`` flattened to
the text (``resps`` kept only when it differs), the metrics' values. The tests run the real lmms-eval too where it is installed.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable
from typing import Any

import yaml


def load_yaml_config(path: str) -> dict[str, Any]:
    def function(loader: yaml.Loader, node: yaml.Node) -> Callable[..., Any]:
        module_name, name = loader.construct_scalar(node).rsplit(".", 1)
        module_path = os.path.join(os.path.dirname(loader.name), f"{module_name}.py")
        spec = importlib.util.spec_from_file_location(module_name, module_path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return getattr(module, name)

    class Loader(yaml.FullLoader):
        pass

    Loader.add_constructor("!function", function)
    with open(path, "rb") as handle:
        config = yaml.load(handle, Loader=Loader)
    includes = config.pop("include", None)
    if includes is None:
        return config
    merged: dict[str, Any] = {}
    for include in reversed([includes] if isinstance(includes, str) else includes):
        merged.update(load_yaml_config(include if os.path.isfile(include) else os.path.join(os.path.dirname(path), include)))
    merged.update(config)
    return merged


def run_task(path: str, generate: Callable[[list[Any], str, dict[str, Any]], str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Run one task with ``generate(visuals, prompt, generation_kwargs)``; returns (results, samples)."""
    import datasets

    config = load_yaml_config(path)
    docs = datasets.load_dataset(config["dataset_path"], config["dataset_name"], split=config["test_split"])
    values: dict[str, list[Any]] = {m["metric"]: [] for m in config["metric_list"]}
    samples = []
    for doc_id, doc in enumerate(docs):
        text = generate(config["doc_to_visual"](doc), config["doc_to_text"](doc, None), dict(config["generation_kwargs"]))
        metrics = config["process_results"](doc, [text.strip()])
        for name, value in metrics.items():
            values[name].append(value)
        prompt = config["doc_to_text"](doc, None)
        sample = {"doc_id": doc_id, "target": str(doc[config["doc_to_target"]]), "resps": [text],
                  "filtered_resps": text.strip(), **metrics, "input": prompt}
        if sample["resps"] == [sample["filtered_resps"]]:
            sample.pop("resps")
        samples.append(sample)
    results = {m["metric"]: m["aggregation"](values[m["metric"]]) for m in config["metric_list"]}
    return results, samples
