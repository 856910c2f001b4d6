"""VENDORED, MINIMAL: VLMEvalKit's dataset registry (``vlmeval/dataset/__init__.py``): the list of classes and
``build_dataset``'s lookup by ``supported_datasets()``."""

import inspect

DATASET_CLASSES = []


def build_dataset(dataset_name, **kwargs):
    for cls in DATASET_CLASSES:
        if dataset_name in cls.supported_datasets():
            params = inspect.signature(cls.__init__).parameters
            return cls(dataset=dataset_name, **{k: v for k, v in kwargs.items() if k in params})
    return None
