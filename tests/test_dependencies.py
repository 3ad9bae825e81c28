"""Every third-party import inside wirelab/ is declared in pyproject.toml and pinned in requirements.

A module's import must be a core dependency, or belong to the extra that module is part of
(`EXTRA_OF`). Adding `import jieba` to a module without declaring and pinning it fails here,
naming the module, the distribution and where it is missing.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import wirelab

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = Path(wirelab.__file__).resolve().parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]

# Modules (or packages) that belong to an extra; everything else may use core dependencies only.
EXTRA_OF = {
    "wirelab.widgets": "notebooks",
    "wirelab.check": "notebooks",  # lab checks run in a kernel; labs 12 and 16 use the MCP SDK
}
# Pinned in requirements-nodeps.txt and installed without its dependencies (every provider's
# SDK): declaring it as an extra would make `pip install wirelab[...]` pull all of them.
NODEPS = {"bfcl-eval": "wirelab.bfcl"}


def normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(line: str) -> str:
    return normalise(re.split(r"[\s<>=!~\[;]", line.strip(), maxsplit=1)[0])


def declared() -> dict[str, set[str]]:
    """Distribution names by group: "core" and each extra (an extra naming wirelab[x] includes x)."""
    groups = {"core": {requirement_name(r) for r in PROJECT["dependencies"]}}
    extras = PROJECT["optional-dependencies"]
    for extra, requirements in extras.items():
        names = set()
        for requirement in requirements:
            if match := re.fullmatch(r"wirelab\[(\w+)\]", requirement):
                names |= {requirement_name(r) for r in extras[match[1]]}
            else:
                names.add(requirement_name(requirement))
        groups[extra] = names
    return groups


def pinned() -> set[str]:
    names = set()
    for path in ROOT.glob("requirements*.txt"):
        for line in path.read_text(encoding="utf-8").splitlines():
            line = line.split("#")[0].strip()
            if line and not line.startswith("-"):
                names.add(requirement_name(line))
    return names


def module_name(path: Path) -> str:
    parts = ("wirelab", *path.relative_to(PACKAGE).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def third_party_imports() -> dict[str, set[str]]:
    """Top-level names imported by each wirelab module, standard library left out."""
    found: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        names = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
        names -= set(sys.stdlib_module_names) | {"wirelab", "__future__"}
        found[module_name(path)] = names
    return found


def extra_of(module: str) -> str | None:
    for prefix, extra in EXTRA_OF.items():
        if module == prefix or module.startswith(prefix + "."):
            return extra
    return None


def test_the_reader_finds_imports():
    imports = third_party_imports()
    assert "starlette" in imports["wirelab.offline_model.wire.server"]
    assert "json" not in imports["wirelab.jsonrpc"]


def test_every_third_party_import_is_declared_and_pinned():
    distributions = packages_distributions()
    groups, pins = declared(), pinned()
    problems = []
    for module, names in third_party_imports().items():
        extra = extra_of(module)
        allowed = groups["core"] | (groups[extra] if extra else set())
        for name in sorted(names):
            dists = {normalise(d) for d in distributions.get(name, [])}
            if not dists:
                problems.append(f"{module} imports {name}, which no installed distribution provides")
                continue
            if any(NODEPS.get(dist) == module for dist in dists):
                continue
            where = f"[project.dependencies] or the {extra!r} extra" if extra else "[project.dependencies]"
            if not dists & allowed:
                problems.append(
                    f"{module} imports {name} ({', '.join(sorted(dists))}): declare it in {where}"
                )
            if not dists & pins:
                problems.append(
                    f"{module} imports {name} ({', '.join(sorted(dists))}): pin it in requirements*.txt"
                )
    assert not problems, "\n".join(problems)


def test_every_declared_dependency_is_pinned():
    missing = sorted(set().union(*declared().values()) - pinned() - {"wirelab"})
    assert not missing, f"declared in pyproject.toml but not pinned in requirements*.txt: {missing}"


def test_nodeps_packages_are_pinned_where_installed_without_dependencies():
    nodeps = (ROOT / "requirements-nodeps.txt").read_text(encoding="utf-8")
    for dist in NODEPS:
        assert re.search(rf"^{dist}==", nodeps, re.M), f"{dist} is not pinned in requirements-nodeps.txt"
