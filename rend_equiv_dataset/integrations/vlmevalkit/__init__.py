"""REND-EQUIV as a VLMEvalKit image dataset (docs/design.md §8.2).

``rend-equiv export --format vlmevalkit --data DIR --out $LMUData/REND_EQUIV.tsv``
writes the TSV (:mod:`.tsv`); :func:`register` adds
:func:`~.dataset.dataset_class` to VLMEvalKit's dataset classes at run
time, without editing VLMEvalKit, so ``build_dataset("REND_EQUIV")`` finds it.
"""

from __future__ import annotations

from typing import Any

from rend_equiv_dataset.errors import InputError


def register() -> type[Any]:
    """Add the dataset class to ``vlmeval.dataset.DATASET_CLASSES`` (once); returns the class."""
    try:
        import vlmeval.dataset as registry
    except ImportError as err:
        raise InputError(f"VLMEvalKit is not importable ({str(err)[:120]}); install it from its repository") from None
    from rend_equiv_dataset.integrations.vlmevalkit.dataset import dataset_class

    cls = dataset_class()
    if cls not in registry.DATASET_CLASSES:
        registry.DATASET_CLASSES.append(cls)
    names = getattr(registry, "SUPPORTED_DATASETS", None)  # the list `vlmeval.run` prints
    if isinstance(names, list):
        names.extend(n for n in cls.supported_datasets() if n not in names)
    return cls
