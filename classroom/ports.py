"""A port of its own for each learner's server, even when the whole room starts at once.

JupyterHub's `LocalProcessSpawner` picks a server's port with `jupyterhub.utils.random_port`, which
binds port 0, reads the port and closes the socket: until the server binds it, the port is free
again, and a second server starting at that moment can be given the same one
(jupyterhub/jupyterhub#3005). The second server cannot bind it, yet the hub finds the first one
answering there and routes the second learner to the first learner's server. The hub's hooks run
one at a time in its event loop, so remembering the ports handed out until each server stops is
enough to keep them apart.
"""

from __future__ import annotations

from jupyterhub.utils import random_port


class Ports:
    """The ports handed to learners' servers that are starting or running, by server."""

    def __init__(self) -> None:
        self.given: dict[str, int] = {}

    def give(self, spawner) -> None:
        """A pre-spawn hook: set the spawner's port to a free one no other server was given."""
        self.given.pop(_server(spawner), None)
        port = random_port()
        while port in self.given.values():
            port = random_port()
        self.given[_server(spawner)] = spawner.port = port

    def take_back(self, spawner) -> None:
        """A post-stop hook: the server's port may be handed out again."""
        self.given.pop(_server(spawner), None)


def _server(spawner) -> str:
    return f"{spawner.user.name}/{spawner.name}"
