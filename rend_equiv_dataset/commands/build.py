"""``rend-equiv build``: generate, render and write the REND-EQUIV release (docs/design.md §3.4, §7.1).

Options are read as text and validated here, so a bad value ends in one
line naming the option, the expectation and what was found (exit 2).
"""

from __future__ import annotations

import argparse
import contextlib
import re
import signal
import sys
from collections.abc import Iterator, Mapping, Sequence

from rend_equiv_dataset.commands import default_workers
from rend_equiv_dataset.errors import InputError

HELP = "generate the REND-EQUIV benchmark from seeds into a Hub-ready dataset folder"

_REPO_ID = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seeds", default="0", help="comma-separated data seeds, e.g. 0,1,2 (default 0)")
    parser.add_argument("--per-family", default="50", help="instances per chart family and seed (default 50)")
    parser.add_argument("--rerenders", default="8", help="cosmetic re-renderings K per instance (default 8)")
    parser.add_argument("--matched-cycle", default="150",
                        help="instances of the m=6 swap-versus-cycle set per seed, 0 for none (default 150; "
                             "with --from-tables: at most this many, from tables of 5 or more categories)")
    parser.add_argument("--workers", default=None, help="rendering processes (default: one per core)")
    parser.add_argument("--out", default="release", help="output folder (default release)")
    parser.add_argument("--overwrite", action="store_true", help="replace a non-empty output folder")
    parser.add_argument("--push-to-hub", default=None, metavar="REPO_ID", help="also upload the folder to this dataset repo")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    parser.add_argument("--from-tables", default=None, metavar="PATH",
                        help="build from your own chart tables (a CSV/JSON file or a folder) instead of seeds")
    parser.add_argument("--family", default=None,
                        help="with --from-tables: draw every table as this chart family (bar, grouped_bar, "
                             "stacked_bar, line, scatter, pie; default: inferred per table)")
    parser.add_argument("--table-suite", default="main", choices=["main", "full", "pilot"],
                        help="with --from-tables: edits to apply (main: as the synthetic set; full: also the "
                             "m-cycle; pilot: the paper's x2 scale plus zoom)")
    parser.add_argument("--shard", default=None, metavar="I/N",
                        help="build only shard I of N of this release into --out (a self-describing shard folder); "
                             "rend-equiv merge joins the N shards into the release, byte for byte the single build")
    parser.add_argument("--engine", default="local", choices=["local", "ray"],
                        help="local: this machine's cores (default); ray: run the shards as Ray tasks and merge them "
                             "(needs the ray extra: pip install -e \".[ray]\")")
    parser.add_argument("--address", default=None,
                        help="with --engine ray: the Ray cluster to use ('auto' for the one this machine belongs to; "
                             "default: start Ray on this machine)")
    parser.add_argument("--shards", default=None,
                        help="with --engine ray: how many shards (tasks) to split the build into "
                             "(default: one per CPU of the cluster); the bytes do not depend on it")
    parser.add_argument("--strict", action="store_true",
                        help="with --from-tables: stop at the first unusable table (default: refuse it, build the "
                             "others, and list every refused table on stderr and in tables_report.json)")


def parse_count(text: str, option: str, *, minimum: int) -> int:
    """An integer option ≥ ``minimum``.

    >>> parse_count("3", "--per-family", minimum=1)
    3
    >>> parse_count("0", "--per-family", minimum=1)
    Traceback (most recent call last):
    ...
    rend_equiv_dataset.errors.InputError: field '--per-family': expected an integer >= 1, got '0'
    """
    if not re.fullmatch(r"[+-]?\d+", text.strip()) or int(text) < minimum:
        raise InputError(f"expected an integer >= {minimum}, got {text!r}", field=option)
    return int(text)


def parse_seeds(text: str) -> tuple[int, ...]:
    """Comma-separated distinct non-negative integer seeds.

    >>> parse_seeds("0,1,2")
    (0, 1, 2)
    >>> parse_seeds("1,-2")
    Traceback (most recent call last):
    ...
    rend_equiv_dataset.errors.InputError: field '--seeds': expected comma-separated non-negative integers such as 0,1,2, got '1,-2'
    """
    parts = [p.strip() for p in text.split(",")]
    if not text.strip() or not all(re.fullmatch(r"\d+", p) for p in parts):
        raise InputError(f"expected comma-separated non-negative integers such as 0,1,2, got {text!r}", field="--seeds")
    seeds = tuple(int(p) for p in parts)
    if len(set(seeds)) != len(seeds):
        raise InputError(f"expected distinct seeds, got {text!r}", field="--seeds")
    return seeds


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """Treat SIGTERM (``kill``) like Ctrl-C, so the worker pool and the temporary folder are cleaned up."""

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _parse_engine_options(args: argparse.Namespace) -> tuple[int, int] | None:
    """Check --shard / --engine / --address / --shards together; returns the shard, if one."""
    from rend_equiv_dataset.harness.sharding import parse_shard

    shard = None if args.shard is None else parse_shard(args.shard)
    if args.engine == "ray":
        if shard is not None:
            raise InputError("builds one shard here; --engine ray builds them all (drop one of the two)", field="--shard")
        if args.push_to_hub is not None:
            raise InputError("push the merged folder afterwards; not with --engine ray", field="--push-to-hub")
    else:
        for option, value in (("--address", args.address), ("--shards", args.shards)):
            if value is not None:
                raise InputError("only applies with --engine ray", field=option)
        if shard is not None and args.push_to_hub is not None:
            raise InputError("a shard is not a release: merge the shards, then push", field="--push-to-hub")
    return shard


def run(args: argparse.Namespace) -> int:
    from rend_equiv_dataset import hub, io

    seeds = parse_seeds(args.seeds)
    per_family = parse_count(args.per_family, "--per-family", minimum=1)
    rerenders = parse_count(args.rerenders, "--rerenders", minimum=0)
    matched = parse_count(args.matched_cycle, "--matched-cycle", minimum=0)
    workers = default_workers() if args.workers is None else parse_count(args.workers, "--workers", minimum=1)
    if args.push_to_hub is not None and not _REPO_ID.fullmatch(args.push_to_hub):
        raise InputError(f"expected a repository id like 'owner/name', got {args.push_to_hub!r}", field="--push-to-hub")
    shard = _parse_engine_options(args)
    io.check_output_dir(args.out, overwrite=args.overwrite)

    from rend_equiv_dataset.figures.generate import Instance, SeedPlan
    from rend_equiv_dataset.figures.release import ReleaseSettings, build_release

    table_report = None
    instance_sets: Mapping[str, Sequence[Instance]]
    if args.from_tables is not None:
        from rend_equiv_dataset.figures.tables.build import table_release

        instance_sets, settings, table_report = table_release(
            args.from_tables, family=args.family, seeds=seeds, suite=args.table_suite, rerenders=rerenders,
            matched_limit=matched, command=f"rend-equiv build --from-tables {args.from_tables}"
            + (f" --family {args.family}" if args.family else "")
            + f" --table-suite {args.table_suite} --seeds {args.seeds} --rerenders {rerenders}"
            f" --matched-cycle {matched} --out DIR", strict=args.strict)
        from rend_equiv_dataset.figures.tables.build import table_problems

        for line in table_problems(table_report):
            print(f"rend-equiv: table skipped: {line}", file=sys.stderr)
    elif args.family is not None:
        raise InputError("only applies with --from-tables", field="--family")
    elif args.strict:
        raise InputError("only applies with --from-tables", field="--strict")
    else:
        plans = {"instances": SeedPlan.main(seeds, per_family)}
        if matched:
            plans["matched_cycle"] = SeedPlan.matched(seeds, matched)
        instance_sets = plans
        settings = ReleaseSettings(seeds=seeds, per_family=per_family, rerenders=rerenders, matched_cycle=matched)
    with _terminate_as_interrupt():
        if args.engine == "ray":
            from rend_equiv_dataset.figures.release.ray_engine import build_on_ray

            shards = None if args.shards is None else parse_count(args.shards, "--shards", minimum=1)
            summary = build_on_ray(instance_sets, args.out, settings, address=args.address, shards=shards,
                                   overwrite=args.overwrite, progress=not args.no_progress)
        else:
            summary = build_release(instance_sets, args.out, settings, workers=workers, overwrite=args.overwrite,
                                    progress=not args.no_progress, shard=shard)
    counts = ", ".join(f"{name} {n}" for name, n in summary.rows.items())
    what = "" if shard is None else f"shard {shard[0]}/{shard[1]} "
    print(f"wrote {what}{summary.folder} ({counts} rows)")
    if table_report is not None:
        from rend_equiv_dataset.figures.tables.build import write_table_report

        print(write_table_report(summary.folder, table_report))
    if args.push_to_hub:
        print(f"pushed: {hub.push_folder(summary.folder, args.push_to_hub)}")
    return 0
