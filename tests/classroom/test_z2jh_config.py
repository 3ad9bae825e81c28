"""The Zero to JupyterHub config.yaml in docs/jupyterhub.md parses, uses only the chart's keys, and
its `hub.config` loads into JupyterHub's own classes.

The chart's keys are read from its values schema (classroom/z2jh-values-paths.txt, made by
classroom/z2jh_schema_paths.py). `hub.config` is JupyterHub's configuration, which the schema
leaves free-form: it is loaded here into the installed JupyterHub's classes (the app and the
authenticator it names, whose validators run as they do when the hub starts), and KubeSpawner's
section is checked against the traits its source declares (classroom/kubespawner-traits.txt, made
by classroom/kubespawner_traits.py), since KubeSpawner needs the Kubernetes client to import.
Kubernetes itself is not run.
"""

from __future__ import annotations

import copy
import re
import secrets
import shlex
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
import yaml
from jupyterhub.app import JupyterHub
from jupyterhub.auth import Authenticator
from jupyterhub.spawner import Spawner
from traitlets.config import Config

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "jupyterhub.md").read_text()
KNOWN = [
    line.split(".")
    for line in (ROOT / "classroom" / "z2jh-values-paths.txt").read_text().splitlines()
    if line and not line.startswith("#")
]
KUBESPAWNER_TRAITS_TXT = (ROOT / "classroom" / "kubespawner-traits.txt").read_text()
KUBESPAWNER_OWN = {line for line in KUBESPAWNER_TRAITS_TXT.splitlines() if line and not line.startswith("#")}
HOME = "/home/jovyan"  # the chart's singleuser.storage.homeMountPath, by default


def config_yaml() -> dict:
    """The copy-paste config.yaml of docs/jupyterhub.md, parsed."""
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


def load_hub_config(hub_config: dict[str, Any]) -> tuple[JupyterHub, Authenticator, list[str]]:
    """Load `hub.config` as the chart's hub does: the JupyterHub app, then the authenticator class
    it names, each from a traitlets Config (a value a trait or its validator refuses raises here as
    it would stop the hub). KubeSpawner, the chart's spawner, is not imported: its section is
    checked by name only. Returns the app, the authenticator and every `Section.key` that no class
    of the hub reads (traitlets would only log those, and the setting would do nothing)."""
    config = Config(copy.deepcopy(hub_config))
    app = JupyterHub(config=config)
    authenticator = app.authenticator_class(parent=app)
    authenticator.check_allow_config()
    readers: dict[str, set[str]] = {}
    for cls in (JupyterHub, app.authenticator_class):
        for base in cls.mro():
            if hasattr(base, "class_trait_names"):
                readers.setdefault(base.__name__, set()).update(base.class_trait_names(config=True))
    spawner_traits = set(Spawner.class_trait_names(config=True))
    readers["Spawner"] = spawner_traits
    readers["KubeSpawner"] = spawner_traits | KUBESPAWNER_OWN
    unread = [
        f"{section}.{key}"
        for section, values in hub_config.items()
        for key in values
        if key not in readers.get(section, ())
    ]
    return app, authenticator, unread


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


def generated_secrets() -> dict[tuple[str, ...], str]:
    """What the guide's helm command sets: each `--set-string hub.config.X.Y="$(cat FILE)"` with
    FILE made by `openssl rand -hex N > FILE` (here the same: N random bytes, in hex)."""
    made = {file: int(n) for n, file in re.findall(r"openssl rand -hex (\d+) > (\S+)", DOC)}
    sets = re.findall(r'--set-string hub\.config\.(\S+?)="\$\(cat (\S+?)\)"', DOC)
    assert sets and all(file in made for _, file in sets), (sets, made)
    return {tuple(path.split(".")): secrets.token_hex(made[file]) for path, file in sets}


def with_secrets(hub_config: dict, values: dict[tuple[str, ...], str]) -> dict:
    for (section, key), value in values.items():
        hub_config[section][key] = value
    return hub_config


SECRET_KEY = re.compile(r"password|secret|token", re.I)


def test_the_hub_config_loads_into_jupyterhubs_own_classes_with_the_generated_secrets():
    hub_config = with_secrets(config_yaml()["hub"]["config"], generated_secrets())
    app, authenticator, unread = load_hub_config(hub_config)
    assert unread == []
    assert type(authenticator).__name__ == "SharedPasswordAuthenticator"
    assert len(authenticator.admin_password) >= authenticator._ADMIN_PASSWORD_MIN_LENGTH
    assert authenticator.admin_users == {"instructor"} and authenticator.allow_all


def test_the_copied_config_does_not_start_with_any_of_its_placeholder_secrets():
    hub_config = config_yaml()["hub"]["config"]
    written = {
        (section, key) for section, values in hub_config.items() for key in values if SECRET_KEY.search(key)
    }
    generated = generated_secrets()
    assert written == set(generated)  # every secret the config holds is replaced by a generated one
    with pytest.raises(ValueError, match="at least"):
        load_hub_config(hub_config)  # as copied
    for placeholder in written:  # and with every other secret generated, each placeholder alone
        kept = {path: value for path, value in generated.items() if path != placeholder}
        with pytest.raises(ValueError, match="at least"):
            load_hub_config(with_secrets(config_yaml()["hub"]["config"], kept))


def test_the_old_placeholder_would_have_logged_in_as_admin():
    # the guide's earlier placeholder passed JupyterHub's validators: a copied config started with it
    hub_config = with_secrets(config_yaml()["hub"]["config"], generated_secrets())
    hub_config["SharedPasswordAuthenticator"]["admin_password"] = (
        "change-this-instructor-password-to-32-or-more"
    )
    _, authenticator, _ = load_hub_config(hub_config)
    assert authenticator.admin_password.startswith("change-this")


def test_an_admin_password_under_32_characters_stops_the_hub_as_jupyterhub_says():
    hub_config = with_secrets(config_yaml()["hub"]["config"], generated_secrets())
    hub_config["SharedPasswordAuthenticator"]["admin_password"] = "change-this-instructor-password"  # 31
    with pytest.raises(ValueError, match="at least 32 characters"):
        load_hub_config(hub_config)


class FakeUser:
    def __init__(self, admin: bool) -> None:
        self.admin = admin


class FakeSpawner:
    def __init__(self, admin: bool) -> None:
        self.user = FakeUser(admin)


def exchange_ids() -> dict[str, Any]:
    """Run the config's hub.extraConfig as the chart does (exec, with `c`): the UIDs and groups
    KubeSpawner gives a grader's (an admin's) pod and a learner's."""
    (snippet,) = config_yaml()["hub"]["extraConfig"].values()
    c = Config()
    exec(snippet, {"c": c})
    spawner = c.KubeSpawner
    assert {"uid", "supplemental_gids"} <= KUBESPAWNER_OWN
    return {
        role: (spawner.uid(FakeSpawner(admin)), spawner.supplemental_gids(FakeSpawner(admin)))
        for role, admin in (("grader", True), ("learner", False))
    }


def test_graders_pods_run_as_a_uid_and_group_of_their_own_and_no_pod_as_root():
    ids = exchange_ids()
    (grader_uid, grader_gids), (learner_uid, learner_gids) = ids["grader"], ids["learner"]
    assert learner_uid == 1000  # the image's user (repo2docker's jovyan), whom nbgrader knows by name
    assert grader_uid not in (0, learner_uid) and grader_gids and not learner_gids
    nbgrader_config = config_yaml()["singleuser"]["extraFiles"]["nbgrader-config"]["stringData"]
    assert f"os.getuid() == {grader_uid}" in nbgrader_config  # groupshared for the graders only


def test_a_setting_no_class_of_the_hub_reads_is_caught():
    hub_config = with_secrets(config_yaml()["hub"]["config"], generated_secrets())
    hub_config["KubeSpawner"]["workingDir"] = HOME  # the trait is working_dir
    hub_config["SharedPasswordAuthenticator"]["password"] = "a-password-for-everyone"
    hub_config["KubeSpawnr"] = {"working_dir": HOME}
    *_, unread = load_hub_config(hub_config)
    assert unread == [
        "SharedPasswordAuthenticator.password",
        "KubeSpawner.workingDir",
        "KubeSpawnr.working_dir",
    ]


def test_the_kubespawner_trait_list_names_its_source_and_holds_the_traits_the_chart_sets():
    assert KUBESPAWNER_TRAITS_TXT.startswith("# jupyterhub/kubespawner@")
    # traits the chart's own jupyterhub_config.py sets from its values: they must be in the list
    assert {
        "working_dir",
        "cmd",
        "image",
        "storage_capacity",
        "volume_mounts",
        "lifecycle_hooks",
    } <= KUBESPAWNER_OWN
    assert not KUBESPAWNER_OWN & {"notebook_dir", "default_url"}  # Spawner's, inherited: not listed


def post_start_script() -> str:
    """The shell script of the pods' postStart hook."""
    command = config_yaml()["singleuser"]["lifecycleHooks"]["postStart"]["exec"]["command"]
    assert command[:2] == ["sh", "-c"] and len(command) == 3
    return command[2]


def post_start_gitpuller() -> list[str]:
    """The gitpuller command the hook ends with, as words."""
    return shlex.split(post_start_script().rsplit("exec ", 1)[1])


def test_learners_work_in_their_persistent_home_and_get_their_copy_there():
    config = config_yaml()
    single = config["singleuser"]
    home = single["storage"].get("homeMountPath", HOME)
    # repo2docker's WORKDIR is the image's copy (--target-repo-dir), outside the persistent volume
    assert config["hub"]["config"]["KubeSpawner"]["working_dir"] == home
    gitpuller = post_start_gitpuller()
    assert gitpuller[:2] == ["gitpuller", "file:///srv/tools-on-the-wire"]
    target = PurePosixPath(gitpuller[-1])
    assert target.is_absolute() and target.parent == PurePosixPath(home)
    assert "--target-repo-dir /srv/tools-on-the-wire" in DOC  # the image's copy, where repo2docker puts it


def test_the_config_closes_egress_culls_and_shares_the_nbgrader_exchange():
    config = config_yaml()
    single = config["singleuser"]
    assert not any(single["networkPolicy"]["egressAllowRules"].values())
    assert single["extraEnv"]["WIRELAB_OFFLINE"] == "1"
    assert config["cull"]["enabled"] and config["cull"]["timeout"] > 0
    mounts = {m["mountPath"] for m in single["storage"]["extraVolumeMounts"]}
    assert "/srv/nbgrader/exchange" in mounts
    assert 'Exchange.root = "/srv/nbgrader/exchange"' in single["extraFiles"]["nbgrader-config"]["stringData"]
