"""Where outputs come from: model revision, dataset fingerprint, the run key (STYLE 10).

The run key decides which records may be reused on resume (DESIGN §5): it
hashes the model, its revision, the backend, the prompt templates and the
generation settings, so changing any of them starts a different run instead of
mixing outputs in one file.

>>> a = run_key({"model": "m", "samples": 0})
>>> a == run_key({"samples": 0, "model": "m"}), a == run_key({"model": "m", "samples": 8})
(True, False)
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

# Files larger than this are fingerprinted by name and size only (a 7B model
# would take minutes to hash); small models, the tiny test model included, by content.
_CONTENT_HASH_LIMIT = 64 * 2**20


def run_key(fields: dict[str, Any]) -> str:
    """A 16-hex-digit hash of the fields that decide a record's content."""
    payload = json.dumps(fields, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(payload.encode()).hexdigest()[:16]


def local_model_revision(folder: Path) -> str:
    """A revision for a model folder: its config and small files by content, big ones by size.

    Two randomly initialised models with the same config get different
    revisions (their weights differ), so their outputs are never mixed.
    """
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        size = path.stat().st_size
        digest.update(f"{path.relative_to(folder).as_posix()}\0{size}\0".encode())
        if size <= _CONTENT_HASH_LIMIT:
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return "local-" + digest.hexdigest()[:16]


def dataset_fingerprint(data_dir: Path) -> str:
    """sha256 over the release's data files (parquet shards and card), by relative path.

    Prefers the scoring part's :func:`rend_equiv_dataset.loaders.release.dataset_fingerprint`
    when it is present, so the harness and the scorer agree on one definition.
    """
    try:
        from rend_equiv_dataset.loaders.release import dataset_fingerprint as shared
    except ImportError:
        shared = None
    if shared is not None:
        return str(shared(data_dir))
    digest = hashlib.sha256()
    root = Path(data_dir)
    for path in sorted(p for p in root.rglob("*") if p.is_file() and _is_data_file(p.relative_to(root))):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def _is_data_file(relative: Path) -> bool:
    path = relative
    return path.suffix in {".parquet", ".md", ".json", ".arrow"} and not any(
        part.startswith(".") for part in path.parts
    )
