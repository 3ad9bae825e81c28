"""Learners' servers started at once each get a port of their own (classroom/ports.py)."""

from types import SimpleNamespace

import classroom.ports
from classroom.ports import Ports


def spawner(user: str) -> SimpleNamespace:
    return SimpleNamespace(user=SimpleNamespace(name=user), name="", port=0)


def test_two_servers_starting_at_once_are_not_given_the_same_port(monkeypatch):
    # random_port lets its port go at once, so two calls in a row can return the same one
    offered = iter([41001, 41001, 41001, 41002])
    monkeypatch.setattr(classroom.ports, "random_port", lambda: next(offered))
    ports, ada, bo = Ports(), spawner("ada"), spawner("bo")
    ports.give(ada)
    ports.give(bo)
    assert (ada.port, bo.port) == (41001, 41002)


def test_a_stopped_servers_port_can_be_given_again(monkeypatch):
    monkeypatch.setattr(classroom.ports, "random_port", lambda: 41001)
    ports, ada, bo = Ports(), spawner("ada"), spawner("bo")
    ports.give(ada)
    ports.take_back(ada)
    ports.give(bo)
    assert bo.port == 41001
    ports.give(bo)  # a restart of the same server may keep its port
    assert bo.port == 41001
