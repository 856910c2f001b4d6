"""rend-equiv: the REND-EQUIV figure-reading benchmark and pivotal-vote code-judge panels.

The import is light on purpose: torch, transformers and vLLM are imported
only inside :mod:`rend_equiv_dataset.harness`, when a backend is chosen.
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
