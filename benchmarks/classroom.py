"""A room of learners on one JupyterHub: start-up time and memory per learner.

N learners (default 8) log in at once on the hub of classroom/jupyterhub_config.py (as
tests/classroom/test_hub.py runs it), each starts their server, pulls the course with
nbgitpuller and runs lesson 02 and lab 02 on their own kernel. Per learner it reports the
server's start-up time (POST /users/<name>/server until ready), the course pull, and the RSS
of the single-user server and of the kernel after lesson 02. It writes the "Classroom"
section of benchmarks/results.md (other sections kept) and prints it.

    .venv/bin/python benchmarks/classroom.py [--learners 8] [--no-write]

`--no-write` only prints the section's body (benchmarks/run_all.py writes it then).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.run_all import CLASSROOM_TITLE as TITLE  # noqa: E402
from benchmarks.run_all import update_section  # noqa: E402
from classroom.hub import Learner, course_repository, learner_session, running_hub  # noqa: E402


def measure(learners: int) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        repo = course_repository(Path(tmp) / "course.git")
        (Path(tmp) / "hub").mkdir()
        with running_hub(Path(tmp) / "hub") as hub:

            async def room():
                names = [f"learner{i}" for i in range(learners)]
                await hub.api("POST", "/users", body={"usernames": names})
                began = time.monotonic()
                sessions = await asyncio.gather(
                    *(learner_session(Learner(hub, n), repo, "Paris", solve=True) for n in names)
                )
                return sessions, time.monotonic() - began

            sessions, wall_s = asyncio.run(room())
    rows = [
        f"| {s.learner.name} | {s.learner.start_s:.1f} | {s.learner.pull_s:.1f} "
        f"| {s.server_mb:.0f} | {s.kernel_mb:.0f} | {s.server_mb + s.kernel_mb:.0f} |"
        for s in sessions
    ]
    per_learner = [s.server_mb + s.kernel_mb for s in sessions]
    starts = [s.learner.start_s for s in sessions]
    return "\n".join(
        [
            f"`python benchmarks/classroom.py --learners {learners}` on {os.cpu_count()} cores: "
            f"{learners} learners at once, each logging in, starting a server, pulling the course "
            "with nbgitpuller, running lesson 02 and lab 02 on their own kernel.\n",
            "| learner | server start (s) | course pull (s) | server RSS (MB) | kernel RSS (MB) "
            "| total (MB) |",
            "|---|---|---|---|---|---|",
            *rows,
            "",
            f"- Memory per learner (server + one kernel): median {statistics.median(per_learner):.0f} MB, "
            f"max {max(per_learner):.0f} MB.",
            f"- Server start-up with {learners} starting at once: median {statistics.median(starts):.1f} s, "
            f"max {max(starts):.1f} s; the whole room done (start, pull, lesson, lab) in {wall_s:.0f} s.",
            "",
        ]
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=8)
    parser.add_argument("--no-write", action="store_true", help="print only, leave results.md")
    args = parser.parse_args()
    body = measure(args.learners)
    if not args.no_write:
        update_section(TITLE, f"## {TITLE}\n\n{body}")
    print(body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
