"""The ``rend-equiv theory`` command: output, --json shape, exit statuses on bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from rend_equiv_dataset.cli import COMMANDS, main
from rend_equiv_dataset.commands import theory as command
from rend_equiv_dataset.theory.detection import EDIT_TYPES


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["theory", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_registered():
    assert COMMANDS["theory"] == "theory"
    assert set(command._EDITS) == set(EDIT_TYPES)


def test_human_output_explains_in_sentences(capsys):
    code, out, _ = run(capsys, "--error-class", "permutation", "--labels", "6", "--suite", "swap,zoom")
    assert code == 0
    assert out.startswith("The suite swap, zoom on 6 labels leaves 48 of 6! = 720 label permutations")
    assert "Adding cycle" in out


def test_human_output_mentions_composition(capsys):
    code, out, _ = run(capsys, "--error-class", "permutation", "--labels", "5", "--suite", "swap,cycle")
    assert code == 0
    assert "complete for the permutation class" in out
    assert "Composed into one edit they would leave more undetectable (4)" in out


def test_json_permutation(capsys):
    code, out, _ = run(capsys, "--error-class", "permutation", "--labels", "6", "--suite", "swap,cycle", "--json")
    payload = json.loads(out)
    assert code == 0
    assert payload["undetectable_count"] == 1 and payload["complete"] is True
    assert payload["undetectable"] == ["()"]
    assert payload["composed"]["undetectable_count"] == 5


def test_json_affine_infinite_is_null(capsys):
    code, out, _ = run(capsys, "--error-class", "affine", "--suite", "scale", "--json")
    payload = json.loads(out)
    assert code == 0
    assert payload["undetectable_count"] is None and payload["complete"] is False
    assert payload["undetectable"] == "{a ↦ α·a : α ∈ ℝ} (pure scale errors)"
    assert payload["best_addition"]["edit"] == "offset"


def test_json_affine_complete(capsys):
    _, out, _ = run(capsys, "--error-class", "affine", "--suite", "scale,offset", "--json")
    assert json.loads(out)["undetectable_count"] == 1


def test_enumerate_matches(capsys):
    _, by_orbits, _ = run(capsys, "--error-class", "permutation", "--labels", "7", "--suite", "delete_max,swap", "--json")
    _, by_enum, _ = run(
        capsys, "--error-class", "permutation", "--labels", "7", "--suite", "delete_max,swap", "--json", "--enumerate"
    )
    a, b = json.loads(by_orbits), json.loads(by_enum)
    assert a["undetectable_count"] == b["undetectable_count"] == 120
    assert (a["method"], b["method"]) == ("orbits", "enumeration")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--error-class", "affine", "--suite", "swap"], "'--suite': edit 'swap' does not apply to the affine error class"),
        (["--error-class", "permutation", "--labels", "6", "--suite", "spin"], "unknown edit 'spin'; expected one of"),
        (["--error-class", "permutation", "--labels", "6", "--suite", "swap,,cycle"], "comma-separated"),
        (["--error-class", "permutation", "--labels", "6", "--suite", ""], "comma-separated"),
        (["--error-class", "permutation", "--labels", "1", "--suite", "swap"], "2 <= M <= 1000"),
        (["--error-class", "permutation", "--labels", "1001", "--suite", "swap"], "2 <= M <= 1000"),
        (["--error-class", "permutation", "--labels", "six", "--suite", "swap"], "expected an integer"),
        (["--error-class", "permutation", "--suite", "swap"], "needs the number of labels"),
        (["--error-class", "affine", "--labels", "4", "--suite", "scale"], "applies only to --error-class permutation"),
        (["--error-class", "permutation", "--labels", "9", "--suite", "swap", "--enumerate"], "'--labels': enumeration"),
        (["--error-class", "affine", "--suite", "scale", "--enumerate"], "'--enumerate'"),
    ],
)
def test_bad_input_exits_2_with_one_line(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert message in err
    assert err.count("\n") == 1


def test_unknown_error_class_is_an_argparse_error(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["theory", "--error-class", "linear", "--suite", "scale"])
    assert exit_.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_module_entry_point_runs_in_a_fresh_process():
    done = subprocess.run(
        [sys.executable, "-m", "rend_equiv_dataset", "theory", "--error-class", "permutation", "--labels", "100",
         "--suite", "swap,cycle", "--json"],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["undetectable_count"] == 1


def test_command_module_imports_only_the_standard_library():
    code = "import sys, rend_equiv_dataset.commands.theory; print('numpy' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.strip() == "False"
