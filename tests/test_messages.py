"""Every actor message has its handler, says what it implies, and has its typed method on the handle."""

import inspect

import attrs
import pytest

from kg_actors import actor, graph_actor, session_actor
from kg_actors import graph_messages as gm
from kg_actors import session_messages as sm
from kg_actors.graph_handle import GraphHandle
from kg_actors.session_handle import SessionHandle


def concrete(module, base):
    return [c for c in vars(module).values()
            if isinstance(c, type) and issubclass(c, base) and c is not base and "op" in c.__dict__]


GRAPH = concrete(gm, gm.GraphMessage)
SESSION = concrete(sm, sm.SessionMessage)
GRAPH_LOOP = {gm.Fold, gm.Refresh, gm.Discard}  # handled by the actor loop itself
SESSION_LOOP = {sm.Save}


def test_every_message_is_a_frozen_attrs_class_with_a_reply():
    for cls in GRAPH + SESSION:
        assert attrs.has(cls) and cls.__setattr__ is not object.__setattr__, cls
        assert "reply" in attrs.fields_dict(cls), cls


def test_every_graph_message_has_its_dispatch_entry_and_class_attributes():
    assert set(graph_actor.HANDLERS) | GRAPH_LOOP == set(GRAPH)
    assert not set(graph_actor.HANDLERS) & GRAPH_LOOP
    assert set(graph_actor.PREPARE) <= set(graph_actor.HANDLERS)
    for cls in GRAPH:
        assert isinstance(cls.changes_render, bool) and isinstance(cls.compacts_after, bool), cls
    # what can move the render: hooks go first, and compaction follows all but a read's stamp (spec 000:
    # after node writes and on the tick), and a read only when it promoted (grew the level)
    assert {c.op for c in GRAPH if c.changes_render} == {
        "put_node", "put_edge", "delete_node", "delete_edge", "record_reads", "endorse",
        "rename_local", "rewire", "clean_dangling", "repeat_credit", "absorb"}
    assert {c.op for c in GRAPH if c.changes_render and not c.compacts_after} == {"record_reads"}
    assert {c.op for c in GRAPH if c.compacts_after_growth} == {"record_reads"}


def test_every_session_message_has_its_dispatch_entry_and_class_attributes():
    assert set(session_actor.HANDLERS) | SESSION_LOOP == set(SESSION)
    assert not set(session_actor.HANDLERS) & SESSION_LOOP
    for cls in SESSION:
        assert isinstance(cls.sessions, sm.Touches) and isinstance(cls.saves_now, bool), cls
        if cls.sessions is sm.Touches.OWN:  # the changed session is named by the message or its answer
            assert "sid" in attrs.fields_dict(cls) or cls in (sm.Register, sm.OpenHook), cls
    assert {c.op for c in SESSION if c.saves_now} == {
        "register", "attach", "set_maintenance", "join_run", "like", "bind", "fork", "reset_context"}


@pytest.mark.parametrize("messages, table", [(GRAPH, gm.BY_NAME), (SESSION, sm.BY_NAME)])
def test_the_name_map_is_complete(messages, table):
    assert sorted(table.values(), key=lambda c: c.__name__) == sorted(messages, key=lambda c: c.__name__)
    for op, cls in table.items():
        assert cls.op == op


@pytest.mark.parametrize("handle, table", [(GraphHandle, gm.BY_NAME), (SessionHandle, sm.BY_NAME)])
def test_every_message_has_a_typed_method_with_the_same_arguments(handle, table):
    for op, cls in table.items():
        method = getattr(handle, op)
        params = [p for p in inspect.signature(method).parameters if p != "self"]
        fields = [f.name for f in attrs.fields(cls) if f.name != "reply" and not f.metadata.get(gm.PREPARED)]
        assert params == fields, op
