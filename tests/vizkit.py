"""Helpers shared by the tests of dpviz's figure builders (tests/test_viz_*.py)."""

import json

import plotly.graph_objects as go


def serialises(fig):
    """``fig`` is a Plotly figure whose JSON parses."""
    assert isinstance(fig, go.Figure)
    json.loads(fig.to_json())


def bar_traces(fig):
    """The figure's bar traces, in order."""
    return [t for t in fig.data if t.type == "bar"]


def vline_x0(fig):
    """The x of every vertical line shape, sorted."""
    return sorted(float(s.x0) for s in fig.layout.shapes if s.type == "line" and s.x0 == s.x1)
