"""The Zero to JupyterHub config.yaml in docs/jupyterhub.md parses and uses only the chart's keys.

The chart's keys are read from its values schema (classroom/z2jh-values-paths.txt, made by
classroom/z2jh_schema_paths.py). Kubernetes itself is not run.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "jupyterhub.md").read_text()
KNOWN = [
    line.split(".")
    for line in (ROOT / "classroom" / "z2jh-values-paths.txt").read_text().splitlines()
    if line and not line.startswith("#")
]


def config_yaml() -> dict:
    (block,) = [b for b in re.findall(r"```yaml\n(.*?)```", DOC, re.S) if "config.yaml" in b.split("\n")[0]]
    return yaml.safe_load(block)


def key_paths(node: dict, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    paths = []
    for key, value in node.items():
        paths.append((*prefix, key))
        if isinstance(value, dict):
            paths.extend(key_paths(value, (*prefix, key)))
    return paths


def known(path: tuple[str, ...]) -> bool:
    """In the schema: a listed path, or below a free-form mapping (`name.*`)."""
    for pattern in KNOWN:
        free = pattern[-1] == "*"
        fits = len(path) == len(pattern) or (free and len(path) >= len(pattern))
        if fits and all(p in ("*", k) for p, k in zip(pattern, path, strict=False)):
            return True
    return False


def test_the_schema_list_names_its_source_and_the_main_sections():
    assert "zero-to-jupyterhub-k8s@" in (ROOT / "classroom" / "z2jh-values-paths.txt").read_text()
    for section in ("hub", "singleuser", "cull", "prePuller", "singleuser.networkPolicy.egressAllowRules"):
        assert section.split(".") in KNOWN


def test_every_key_of_the_config_is_in_the_charts_values_schema():
    paths = key_paths(config_yaml())
    assert len(paths) > 30
    assert [".".join(p) for p in paths if not known(p)] == []


def test_a_key_the_chart_does_not_have_is_caught():
    assert not known(("singleuser", "memory", "limits"))
    assert not known(("cull", "timeoutSeconds"))
    assert known(("singleuser", "extraEnv", "ANY_NAME"))


def test_the_config_closes_egress_culls_and_sizes_from_the_measured_figures():
    config = config_yaml()
    single = config["singleuser"]
    assert not any(single["networkPolicy"]["egressAllowRules"].values())
    assert single["extraEnv"]["WIRELAB_OFFLINE"] == "1"
    assert config["cull"]["enabled"] and config["cull"]["timeout"] > 0
    mounts = {m["mountPath"] for m in single["storage"]["extraVolumeMounts"]}
    assert "/srv/nbgrader/exchange" in mounts
    assert 'Exchange.root = "/srv/nbgrader/exchange"' in single["extraFiles"]["nbgrader-config"]["stringData"]
    results = (ROOT / "benchmarks" / "results.md").read_text().split("## Classroom")[1]
    measured_mb = int(re.search(r"max (\d+) MB", results)[1])  # a learner's server and one kernel
    assert (
        measured_mb
        < int(single["memory"]["guarantee"].removesuffix("M"))
        < int(single["memory"]["limit"].removesuffix("G")) * 1024
    )
