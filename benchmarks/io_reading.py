"""What the io home's limits cost, against the naive way, in one run.

1. Duplicate keys: one line of 20,000 keys. The naive check (``keys.count``
   per key, as the predictions reader did) is quadratic; the io home's
   ``object_pairs_hook`` compares a dict's size with the pairs' count.
2. Depth: a line nested 100,000 deep. Plain ``json.loads`` recurses until
   Python's limit; the io home's linear pre-scan refuses it first.
3. Throughput: a predictions-like file of 200,000 lines read by
   :func:`rend_equiv_dataset.io.jsonl_rows` (every limit checked) against a
   bare ``json.loads`` loop over the lines.

Run: ``python benchmarks/io_reading.py``; prints times and ratios.
"""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path
from typing import Any

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.io import jsonl_rows, parse_json


def _naive_no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [k for k, _ in pairs]
    if dupes := sorted({k for k in keys if keys.count(k) > 1}):
        raise ValueError(f"duplicate key {dupes[0]!r}")
    return dict(pairs)


def _timed(function: Any, *args: Any) -> float:
    started = time.perf_counter()
    try:
        function(*args)
    except (InputError, ValueError, RecursionError):
        pass
    return time.perf_counter() - started


def main() -> None:
    line = "{" + ", ".join(f'"k{i}": {i}' for i in range(20_000)) + ', "k0": 0}'
    naive = _timed(lambda text: json.loads(text, object_pairs_hook=_naive_no_duplicates), line)
    home = _timed(parse_json, line)
    print(f"duplicate keys, 20,000 in one line: naive {naive:.3f} s, io home {home * 1e3:.1f} ms, "
          f"ratio {naive / home:.0f}x")

    deep = "[" * 100_000 + "]" * 100_000
    naive = _timed(json.loads, deep)
    home = _timed(parse_json, deep)
    print(f"100,000-deep line: json.loads {naive * 1e3:.1f} ms (RecursionError), io home {home * 1e3:.1f} ms "
          f"(InputError), ratio {naive / home:.2f}x")

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "predictions.jsonl"
        rows = (json.dumps({"render_id": f"s0-bar-{i:06d}/style{i % 8}", "output": f"The value is {i * 0.37:.2f}.",
                            "logprob": -0.25 * (i % 7)}) for i in range(200_000))
        path.write_text("\n".join(rows) + "\n", encoding="utf-8")
        started = time.perf_counter()
        with open(path, encoding="utf-8") as handle:
            bare = sum(1 for text in handle if json.loads(text))
        bare_s = time.perf_counter() - started
        started = time.perf_counter()
        checked = sum(1 for _ in jsonl_rows(path))
        home_s = time.perf_counter() - started
    assert bare == checked
    print(f"200,000-line predictions file: bare json.loads {bare_s:.2f} s, jsonl_rows {home_s:.2f} s, "
          f"ratio {home_s / bare_s:.2f}x the bare loop")


if __name__ == "__main__":
    main()
