"""What a page shows a reader, as text (for the notation and number checks of issue 18):
every label, help, value, caption, message and Markdown of its elements, and the titles,
axis titles, legend names and annotations of its Plotly charts."""

from __future__ import annotations

import json
import re

from google.protobuf.json_format import MessageToDict

# Text fields of an element's proto that a reader sees (not ids, keys or form ids).
SHOWN_FIELDS = {"label", "help", "body", "value", "placeholder", "options", "caption",
                "default", "formattedValue", "delta"}
E_NOTATION = re.compile(r"(?<![\w.])\d+(\.\d+)?[eE][-+]?\d+\b")


def _strings(value, fields=SHOWN_FIELDS, inside=False):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(v, fields, inside or k in fields)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v, fields, inside)
    elif isinstance(value, str) and inside:
        yield value


def _chart_strings(spec: str):
    fig = json.loads(spec)
    layout = fig.get("layout", {})

    def title(obj):
        t = (obj or {}).get("title")
        return t.get("text") if isinstance(t, dict) else t

    yield title(layout)
    for k, v in layout.items():
        if k.startswith(("xaxis", "yaxis")):
            yield title(v)
    for a in layout.get("annotations", []):
        yield a.get("text")
    for trace in fig.get("data", []):
        yield trace.get("name")


def shown_texts(at) -> list[str]:
    """Every text the page shows (see the module's docstring), one string each."""
    texts = []

    def walk(node):
        proto = getattr(node, "proto", None)
        if proto is not None and not isinstance(proto, (str, bytes)):
            try:
                d = MessageToDict(proto)
            except (TypeError, AttributeError):
                d = {}
            if getattr(node, "type", None) == "plotly_chart":
                texts.extend(s for s in _chart_strings(proto.spec) if s)
            else:
                texts.extend(_strings(d))
        label = getattr(node, "label", None)
        if isinstance(label, str):
            texts.append(label)
        children = getattr(node, "children", None)
        if isinstance(children, dict):
            for child in children.values():
                walk(child)

    walk(at._tree)
    return [s for s in texts if s]


def with_e_notation(texts) -> list[str]:
    return [s for s in texts if E_NOTATION.search(s)]


# CommonMark's backslash escapes (any ASCII punctuation) and ui.text.esc's invisible marks:
# the word joiner and the isolate around right-to-left text.
_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")
_INVISIBLE = str.maketrans("", "", "\u2060\u2068\u2069")


def as_read(markdown: str) -> str:
    """A Markdown message as a reader reads it: its escapes resolved, no invisible marks."""
    return _ESCAPED.sub(r"\1", markdown).translate(_INVISIBLE)
