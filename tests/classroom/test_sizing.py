"""The sizing advice in docs/jupyterhub.md follows the Classroom figures in benchmarks/results.md.

benchmarks/classroom.py measures a room of learners on one hub: memory per learner with one
kernel and with two open (the lesson and the lab side by side), and the start-up of servers
starting at once. The docs round those figures up and size rooms from them: learners per GB and
per core on one machine, TLJH's memory per learner, and the Zero to JupyterHub memory guarantee,
limit and node example. Re-running the benchmark rewrites results.md; when its figures move past
the docs' rounding, a test here names the sentence to update, so the two cannot drift apart
silently.

The chart hands `singleuser.memory` and `singleuser.cpu` to KubeSpawner's `mem_guarantee`,
`mem_limit`, `cpu_guarantee` and `cpu_limit`, traits KubeSpawner inherits from JupyterHub's
Spawner; they are read here with those traits (`512M` is 512 MiB to JupyterHub).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

from jupyterhub.spawner import Spawner
from traitlets.config import Config

from tests.classroom.test_z2jh_config import config_yaml

ROOT = Path(__file__).resolve().parents[2]
DOC = " ".join((ROOT / "docs" / "jupyterhub.md").read_text().split())  # sentences on one line
MIB = 1024 * 1024


@dataclass
class Measured:
    """The Classroom section's figures (memory in MB, as the benchmark prints RSS: MiB)."""

    learners: int
    cores: int
    one_kernel_max_mb: int
    two_kernels_max_mb: int
    start_max_s: float


def measured() -> Measured:
    """Read the figures from the Classroom section of benchmarks/results.md."""
    text = (ROOT / "benchmarks" / "results.md").read_text()
    section = text.split("\n## Classroom", 1)[1].split("\n## ", 1)[0]
    room = re.search(r"--learners (\d+)` on (\d+) cores", section)
    one = re.search(r"\(server \+ one kernel\): median \d+ MB, max (\d+) MB", section)
    two = re.search(r"\(server \+ two kernels\): median \d+ MB, max (\d+) MB", section)
    start = re.search(r"starting at once: median [\d.]+ s, max ([\d.]+) s", section)
    assert room and one and two and start, (
        "the Classroom section lacks a figure: re-run benchmarks/classroom.py"
    )
    return Measured(int(room[1]), int(room[2]), int(one[1]), int(two[1]), float(start[1]))


def doc_number(pattern: str) -> float:
    """The number the one group of `pattern` finds in the docs (exactly one match)."""
    (found,) = re.findall(pattern, DOC)
    return float(found)


def resources() -> Spawner:
    """The config's singleuser memory and CPU, read by JupyterHub's traits as the chart hands them over."""
    single = config_yaml()["singleuser"]
    return Spawner(
        config=Config(
            {
                "Spawner": {
                    "mem_guarantee": single["memory"]["guarantee"],
                    "mem_limit": single["memory"]["limit"],
                    "cpu_guarantee": single["cpu"]["guarantee"],
                    "cpu_limit": single["cpu"]["limit"],
                }
            }
        )
    )


def rounded_up(measured_mb: int, documented_mb: float) -> bool:
    """`documented_mb` is `measured_mb` rounded up to a multiple of 10 (at most 10 MB more)."""
    return measured_mb <= documented_mb <= measured_mb + 10 and documented_mb % 10 == 0


def test_the_docs_memory_per_learner_is_the_measured_maximum_rounded_up():
    figures = measured()
    one = doc_number(r"\*\*up to (\d+) MB with one kernel\*\*")
    two = doc_number(r"\*\*up to (\d+) MB with two kernels\*\*")
    assert rounded_up(figures.one_kernel_max_mb, one), (figures.one_kernel_max_mb, one)
    assert rounded_up(figures.two_kernels_max_mb, two), (figures.two_kernels_max_mb, two)


def test_learners_per_gb_and_per_core_on_one_machine_follow_from_the_figures():
    figures = measured()
    two = doc_number(r"\*\*up to (\d+) MB with two kernels\*\*")
    assert doc_number(r"\*\*about (\d+) learners? per GB\*\*") == 1024 // two
    assert doc_number(r"\*\*about (\d+) learners per core\*\*") == figures.learners // figures.cores
    assert doc_number(r"were ready within (\d+) s") == math.ceil(figures.start_max_s)


def test_tljhs_memory_per_learner_holds_two_kernels():
    two = doc_number(r"\*\*up to (\d+) MB with two kernels\*\*")
    assert doc_number(r"plus about ([\d.]+) GB per active learner") * 1024 >= two


def test_the_z2jh_guarantee_holds_two_kernels_and_the_node_example_is_computed_from_it():
    spawner = resources()
    guarantee_mb = spawner.mem_guarantee / MIB
    assert guarantee_mb >= doc_number(r"\*\*up to (\d+) MB with two kernels\*\*")
    assert spawner.mem_limit > spawner.mem_guarantee and spawner.cpu_limit > spawner.cpu_guarantee
    node = re.search(
        r"A node of (\d+) cores and (\d+) GB, by the figures above: about (\d+) learners by memory at the "
        r"guarantee \((\d+) MB each, (\d+) GB left for the system\), and by CPU (\d+) learners",
        DOC,
    )
    assert node, "the node example of docs/jupyterhub.md changed its wording"
    cores, gb, by_memory, each_mb, system_gb, by_cpu = map(int, node.groups())
    assert each_mb == guarantee_mb
    assert by_memory == (gb - system_gb) * 1024 // guarantee_mb
    assert by_cpu == cores * doc_number(r"\*\*about (\d+) learners per core\*\*")


def test_a_figure_off_by_more_than_the_rounding_is_caught():
    assert rounded_up(436, 440) and rounded_up(440, 440)
    assert not rounded_up(436, 450)  # the docs left behind when the figure dropped
    assert not rounded_up(445, 440)  # or grew
    assert not rounded_up(436, 437)
