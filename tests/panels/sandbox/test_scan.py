"""The danger scan's substring shortcut never changes what the regexes find."""

from __future__ import annotations

import textwrap

from hypothesis import given
from hypothesis import strategies as st

from rend_equiv_dataset.panels.problems import load_humaneval
from rend_equiv_dataset.panels.sandbox.scan import DANGER_PATTERNS, NEEDS, danger_scan

from test_hostile import HOSTILE


def _slow(code: str) -> list[str]:
    return sorted(name for name, pattern in DANGER_PATTERNS.items() if pattern.search(code))


def test_every_pattern_has_its_substrings():
    assert set(NEEDS) == set(DANGER_PATTERNS)


def test_same_result_on_real_and_hostile_code():
    codes = [textwrap.dedent(code) for code in HOSTILE.values()]
    codes += [p.prompt + p.canonical_solution + "\n" + p.context for p in load_humaneval().problems]
    for code in codes:
        assert danger_scan(code) == _slow(code), code


def test_every_match_contains_one_of_its_substrings():
    # each alternative of each pattern, spelled out, is found by the scan
    samples = {
        "process": ["subprocess", "os.system", "os.popen", "os.fork", "os.spawnv", "os.execv", "os.kill", "os.killpg",
                    "os.setsid", "multiprocessing", "pty"],
        "network": ["socket", "urllib", "http.client", "requests", "ftplib", "smtplib"],
        "ctypes": ["ctypes", "cffi"],
        "filesystem": ["shutil.rmtree", "os.remove", "os.unlink", "os.rmdir", "os.chmod", "os.chown", "open (", "open("],
        "exit": ["sys.exit", "os._exit", "exit (0)", "quit(0)", "SystemExit"],
        "introspection": ["_getframe", "f_back", "f_globals", "__subclasses__", "__globals__", "gc.", "inspect",
                          "__builtins__", "builtins"],
        "dynamic_code": ["eval(", "exec (", "compile(", "__import__(", "importlib("],
        "environment": ["os.environ", "getenv", "putenv"],
        "signals": ["signal.", "resource."],
    }
    assert set(samples) == set(DANGER_PATTERNS)
    for name, texts in samples.items():
        for text in texts:
            code = f"x = 1\n{text}\n"
            assert DANGER_PATTERNS[name].search(code), (name, text)
            assert name in danger_scan(code), (name, text)


words = st.sampled_from(sorted({w for texts in NEEDS.values() for w in texts}
                               | {"os", ".", "(", " ", "_", "\n", "sys", "exit", "x", "ab"}))


@given(st.lists(words | st.text(max_size=3), max_size=12).map("".join))
def test_same_result_on_generated_text(code):
    assert danger_scan(code) == _slow(code)


def test_patterns_are_what_the_substrings_were_written_for():
    # a changed pattern must come with updated substrings: compare with the patterns' text
    assert {name: pattern.pattern for name, pattern in DANGER_PATTERNS.items()} == {
        "process": r"\b(subprocess|os\.(system|popen|fork|spawn\w*|exec\w*|kill\w*|setsid)|multiprocessing|pty)\b",
        "network": r"\b(socket|urllib|http\.client|requests|ftplib|smtplib)\b",
        "ctypes": r"\b(ctypes|cffi)\b",
        "filesystem": r"\b(shutil\.rmtree|os\.(remove|unlink|rmdir|chmod|chown)|open\s*\()",
        "exit": r"\b(sys\.exit|os\._exit|exit\s*\(|quit\s*\(|SystemExit)\b",
        "introspection": r"(_getframe|f_back|f_globals|__subclasses__|__globals__|\bgc\.|\binspect\b|__builtins__|\bbuiltins\b)",
        "dynamic_code": r"\b(eval|exec|compile|__import__|importlib)\s*\(",
        "environment": r"\b(os\.environ|getenv|putenv)\b",
        "signals": r"\b(signal\.|resource\.)",
    }
