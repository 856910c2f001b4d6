"""Where outputs come from: model revision and the run key (STYLE 10); a release's fingerprint is the figures' own.

The run key decides which records may be reused on resume (docs/design.md §5): it
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


def model_revision(model: str, revision: str | None) -> str:
    """What the resume key and ``meta`` record as the model's revision.

    A local folder: :func:`local_model_revision`. A Hub id: the commit that
    ``revision`` (default: the main branch) resolves to in the local cache, so
    an updated upload starts a new run; ``revision`` as given (or ``"default"``)
    when the model is not cached yet.
    """
    folder = Path(model).expanduser()
    if folder.is_dir():
        return local_model_revision(folder)
    try:
        from huggingface_hub import snapshot_download

        return Path(snapshot_download(model, revision=revision, local_files_only=True)).name
    except Exception:  # noqa: BLE001 - not cached (or not a Hub id): the loader reports real problems
        return revision or "default"

