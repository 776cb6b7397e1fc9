"""Helpers shared by the tests of dpviz's figure builders (tests/test_viz_*.py)."""

import json

import plotly.graph_objects as go
import plotly.io as pio

from dpviz.style import TEMPLATE_NAME


def serialises(fig):
    """``fig`` is a Plotly figure whose JSON parses, drawn on the dashboard's template with
    the defaults of each of its trace types (the slim template keeps only the types drawn:
    a new type must be added to it to look as plotly_white draws it)."""
    assert isinstance(fig, go.Figure)
    json.loads(fig.to_json())
    assert fig.layout.template.to_plotly_json() == pio.templates[TEMPLATE_NAME].to_plotly_json()
    kept = set(pio.templates[TEMPLATE_NAME].data.to_plotly_json())
    assert {trace.type for trace in fig.data} <= kept


def bar_traces(fig):
    """The figure's bar traces, in order."""
    return [t for t in fig.data if t.type == "bar"]


def vline_x0(fig):
    """The x of every vertical line shape, sorted."""
    return sorted(float(s.x0) for s in fig.layout.shapes if s.type == "line" and s.x0 == s.x1)
