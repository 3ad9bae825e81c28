"""List the key paths of the Zero to JupyterHub chart's values schema (for test_z2jh_config.py).

    python classroom/z2jh_schema_paths.py CHART/values.schema.yaml > classroom/z2jh-values-paths.txt

One path a line (`singleuser.memory.limit`); `name.*` means any key below `name` is accepted
(a free-form mapping such as `singleuser.extraEnv` or `hub.config`). The committed list names
the chart commit it was read from on its first line.
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml


def key_paths(node: dict, prefix: str = "") -> list[str]:
    paths = []
    for key, child in (node.get("properties") or {}).items():
        path = f"{prefix}.{key}" if prefix else key
        paths.append(path)
        paths.extend(_below(child, path))
    return paths


def _below(node: dict, path: str) -> list[str]:
    paths = key_paths(node, path)
    for child in (node.get("patternProperties") or {}).values():
        paths.append(f"{path}.*")
        paths.extend(key_paths(child, f"{path}.*"))
    free = node.get("additionalProperties") not in (None, False)
    described = node.get("properties") or node.get("patternProperties")
    if free or (node.get("type") == "object" and not described):
        paths.append(f"{path}.*")
    return paths


def main(schema: str) -> int:
    for path in key_paths(yaml.safe_load(Path(schema).read_text())):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
