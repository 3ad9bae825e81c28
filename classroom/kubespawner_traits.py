"""List the configurable traits KubeSpawner itself declares (for tests/classroom/test_z2jh_config.py).

    python classroom/kubespawner_traits.py SPAWNER_PY REF > classroom/kubespawner-traits.txt

SPAWNER_PY is kubespawner/spawner.py of a checkout of jupyterhub/kubespawner at REF.

KubeSpawner (the spawner Zero to JupyterHub runs) needs the Kubernetes client to import, so the
test cannot load it; this reads its source instead: every class attribute of `KubeSpawner` set
to a trait with `config=True` (or `.tag(config=True)`). Traits it inherits from JupyterHub's
`Spawner` are not listed: the test reads those from the installed JupyterHub. The first line of
the list names the kubespawner commit it was read from (REF).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path


def _config_true(call: ast.Call) -> bool:
    return any(
        k.arg == "config" and isinstance(k.value, ast.Constant) and k.value.value is True
        for k in call.keywords
    )


def _configurable(value: ast.expr) -> bool:
    """Whether `value` is `Trait(..., config=True)` or `Trait(...).tag(config=True)`."""
    return isinstance(value, ast.Call) and _config_true(value)


def trait_names(source: str, class_name: str = "KubeSpawner") -> list[str]:
    """The names of the configurable traits `class_name` declares in `source`, in order."""
    (cls,) = [n for n in ast.parse(source).body if isinstance(n, ast.ClassDef) and n.name == class_name]
    names = []
    for node in cls.body:
        if isinstance(node, ast.Assign) and _configurable(node.value):
            names.extend(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def main(spawner_py: str, ref: str) -> int:
    print(f"# jupyterhub/kubespawner@{ref} kubespawner/spawner.py: KubeSpawner's own configurable traits")
    for name in trait_names(Path(spawner_py).read_text()):
        print(name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
