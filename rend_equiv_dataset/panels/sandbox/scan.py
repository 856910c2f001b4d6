"""Danger-pattern scan of candidate code (paper §8), recorded per candidate.

The scan does not decide anything: isolation does the protecting. It records
which risky capabilities a candidate's source mentions, so a release can say
how many candidates tried what.
"""

from __future__ import annotations

import re

DANGER_PATTERNS: dict[str, re.Pattern[str]] = {
    name: re.compile(pattern)
    for name, pattern in {
        "process": r"\b(subprocess|os\.(system|popen|fork|spawn\w*|exec\w*|kill\w*|setsid)|multiprocessing|pty)\b",
        "network": r"\b(socket|urllib|http\.client|requests|ftplib|smtplib)\b",
        "ctypes": r"\b(ctypes|cffi)\b",
        "filesystem": r"\b(shutil\.rmtree|os\.(remove|unlink|rmdir|chmod|chown)|open\s*\()",
        "exit": r"\b(sys\.exit|os\._exit|exit\s*\(|quit\s*\(|SystemExit)\b",
        "introspection": r"(_getframe|f_back|f_globals|__subclasses__|__globals__|\bgc\.|\binspect\b|__builtins__|\bbuiltins\b)",
        "dynamic_code": r"\b(eval|exec|compile|__import__|importlib)\s*\(",
        "environment": r"\b(os\.environ|getenv|putenv)\b",
        "signals": r"\b(signal\.|resource\.)",
    }.items()
}


# For each pattern, substrings of which every match contains at least one: a pattern
# whose substrings are all absent cannot match, so its (much slower) regex is skipped.
# tests/sandbox/test_scan.py checks the scan against the plain regexes.
NEEDS: dict[str, tuple[str, ...]] = {
    "process": ("subprocess", "os.", "multiprocessing", "pty"),
    "network": ("socket", "urllib", "http.client", "requests", "ftplib", "smtplib"),
    "ctypes": ("ctypes", "cffi"),
    "filesystem": ("shutil.rmtree", "os.", "open"),
    "exit": ("exit", "quit", "SystemExit"),
    "introspection": ("_getframe", "f_back", "f_globals", "__subclasses__", "__globals__", "gc.", "inspect",
                      "builtins"),
    "dynamic_code": ("eval", "exec", "compile", "__import__", "importlib"),
    "environment": ("os.environ", "getenv", "putenv"),
    "signals": ("signal.", "resource."),
}


def danger_scan(code: str) -> list[str]:
    """Names of the danger patterns the code matches, sorted.

    >>> danger_scan("import os\\nos.system('rm -rf /')")
    ['process']
    >>> danger_scan("def f(x):\\n    return x + 1\\n")
    []
    """
    return sorted(name for name, pattern in DANGER_PATTERNS.items()
                  if any(needed in code for needed in NEEDS[name]) and pattern.search(code))
