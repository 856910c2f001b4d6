"""How one execution of a candidate ended, and the operational label it gives (panels paper §3).

The one home of both: the sandbox reports a :class:`Status`, the records
carry it, and :func:`operational_label` is the rule both the sandbox's
executions and the records' consistency check apply.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum


class Status(str, Enum):
    """How one execution ended (the records' ``status``)."""

    OK = "ok"  # every assertion was evaluated (each may pass or fail)
    TIMEOUT = "timeout"  # the wall-clock deadline or the CPU limit was hit (every assertion counts as failed)
    CRASH = "crash"  # the candidate did not load, died, or killed the sandbox
    INFRA_ERROR = "infra_error"  # the sandbox could not run the job


def operational_label(status: Status, passed: Sequence[bool]) -> int:
    """1 iff the run completed and every assertion passed (an empty suite proves nothing: 0).

    >>> operational_label(Status.OK, [True, True]), operational_label(Status.OK, []), operational_label(Status.TIMEOUT, [True])
    (1, 0, 0)
    """
    return int(status is Status.OK and len(passed) > 0 and all(passed))
