"""What a person does on a page, as AppTest steps, and what must hold after every step: the
journey tester's kit (tests/test_journeys.py).

A step is one of the things people do: open a link (the view's share link, a "Try this"
experiment from the page itself, a link recorded before a redesign), move any control to any
value its widget allows, switch a tab, switch the language, toggle presenting mode, upload a
good or a bad file, press a button (Simulate, Run, New draw), open Share, Report and Code.
After every step the invariants hold (:meth:`Journey.check`):

- no exception and no traceback (AppTest's ``exception``, error boxes);
- every control shows the value in use: the values the run handed to dpcore, the settings
  its report prints and the metrics that repeat a control, all equal to what the controls
  show (the specs of tests/test_values_in_use.py);
- the view's share link, opened in a new session, shows the same numbers;
- a Korean view shows no English sentence (tests/test_ui_i18n.py's rule; views that show a
  user's file are left out, its text is the user's);
- at sampled steps (the "Code" step), the view's Python script prints the page's numbers.

Values are drawn from each widget's whole range: a slider's [min, max] on its step, every
option of a select box, radio, select slider, segmented control or multiselect, a number box's
[min, max] (log-uniform where the range spans decades).
"""

from __future__ import annotations

import importlib
import math
from collections import Counter
from urllib.parse import parse_qs, urlsplit

import numpy as np
from hypothesis import strategies as hs
from streamlit.testing.v1 import AppTest

from conftest import APP_PATH, LAST_KIT, assert_clean, thread_speaking
from pagekit import link_view, metrics, tab_containers  # noqa: F401 (for test_journeys)

# The controls a step may move, by AppTest's element type.
MOVABLE = ("slider", "select_slider", "selectbox", "radio", "number_input", "checkbox",
           "toggle", "multiselect", "segmented_control", "button_group")
APP_WIDGETS = ("lang",)  # drawn by app.py on every page; switched by their own step
HEADER_BUTTONS = ("page_present",)  # the page header's; toggled by their own step

# Files people upload: usable ones of each kind, and ones a page must refuse in words.
GOOD_FILES = {
    "counts": b"label,count\n" + b"".join(b"g%d,%d\n" % (i, 40 + 7 * i) for i in range(12)),
    "two columns": b"bin,mine,theirs\n" + b"".join(
        b"%d,%d,%d\n" % (i, 30 + 5 * i, 90 - 4 * i) for i in range(18)),
    "ages": b"age\n" + b"\n".join(b"%d" % (a % 90) for a in range(0, 900, 7)),
    "answers": b"answer\n" + b"\n".join([b"yes", b"no", b"no", b"maybe", b"yes"] * 8),
}
BAD_FILES = {
    "empty": b"",
    "text count": b"label,count\na,1\nb,x\nc,3\n",
    "negative": b"label,count\na,1\nb,-2\nc,3\n",
    "nan": b"label,count\na,1\nb,NaN\nc,3\n",
    "binary": bytes(range(256)) * 4,
}
FILES = {**GOOD_FILES, **BAD_FILES}


# --- Streamlit's option values --------------------------------------------------------------
# AppTest gives a select box's options as the labels shown; a step sets an option by its value.
# The one private name used: the widget's deserializer in the session's metadata, which maps
# a label the browser sends to the option (tests/test_ui_internals.py pins Streamlit 1.67).

def widget_metadata(at: AppTest, w):
    """The session's metadata of the widget ``w`` (its serializer, deserializer, binding)."""
    return at._session_state._state.get_widget_metadata(w.id)


def option_values(at: AppTest, w) -> list:
    """The values of the options of the choice widget ``w``, in the order shown."""
    meta = widget_metadata(at, w)
    if w.type == "select_slider" or w.type == "multiselect":
        return [meta.deserializer([label]) if w.type == "multiselect"
                else meta.deserializer([label]) for label in w.options]
    return [meta.deserializer(label) for label in w.options]


def browser_sets(at: AppTest, w, value) -> None:
    """Set ``w`` to ``value`` as a person does in the browser: the widget's value, and for a
    control bound to the address (``bind="query-params"``) the address too, which the
    browser writes itself (its parameter left out at the widget's default)."""
    w.set_value(value)
    meta = widget_metadata(at, w)
    if meta is None or meta.bind != "query-params" or not w.key or getattr(w, "form_id", ""):
        return  # (a control in a form writes the address when the form is submitted)
    if value == meta.deserializer(None):
        if w.key in at.query_params:
            del at.query_params[w.key]
        return
    form = meta.serializer(value)
    if isinstance(form, (list, tuple)):
        form = [str(f) for f in form]
        at.query_params[w.key] = form[0] if len(form) == 1 else form
    else:
        at.query_params[w.key] = str(form)


def movable(at: AppTest) -> list:
    """The enabled keyed controls of the page a person can move."""
    found = []
    for kind in MOVABLE:
        for w in at.get(kind):
            if w.key and w.key not in APP_WIDGETS and not getattr(w, "disabled", False):
                found.append(w)
    return found


def pick(seq, u: float):
    """The element of ``seq`` at the point ``u`` (0 to 1) of it: 0 the first, 1 the last."""
    return seq[min(int(u * len(seq)), len(seq) - 1)]


def value_at(at: AppTest, w, u: float, v: float):
    """A value ``w`` allows, at the point ``u`` (0 to 1) of its whole range: the ends at 0
    and 1 (``v``, also 0 to 1, chooses the subset of a multiselect)."""
    kind = w.type
    if kind == "slider":
        lo, hi, step = w.min, w.max, w.step
        if isinstance(lo, int) and isinstance(hi, int):
            step = step or 1
            return lo + round(u * ((hi - lo) // step)) * step
        n = int(round((hi - lo) / step)) if step else 100
        return float(round(lo + round(u * n) * ((hi - lo) / n), 12))
    if kind in ("select_slider", "selectbox", "radio", "segmented_control", "button_group"):
        values = option_values(at, w)
        if not values:
            return None
        chosen = pick(values, u)
        return chosen[0] if isinstance(chosen, (list, tuple)) else chosen
    if kind == "multiselect":
        values = [x[0] if isinstance(x, (list, tuple)) else x for x in option_values(at, w)]
        bits = int(v * 2 ** min(len(values), 30))
        return [x for i, x in enumerate(values) if bits >> i & 1] or values[:1]
    if kind in ("checkbox", "toggle"):
        return u >= 0.5
    if kind == "number_input":
        lo = w.min if w.min is not None else -1e6
        hi = w.max if w.max is not None else 1e6
        if isinstance(w.value, int) and not isinstance(w.value, bool):
            return int(lo + round(u * (hi - lo)))
        if lo > 0 and hi / lo > 100:  # decades: log-uniform, as a person types them
            x = 10.0 ** (math.log10(lo) + u * (math.log10(hi) - math.log10(lo)))
        else:
            x = lo + u * (hi - lo)
        return min(max(float(f"{x:.6g}"), lo), hi)
    raise AssertionError(kind)


def link_query(link: str) -> dict[str, str | list[str]]:
    """A link's query parameters: a key's value, or its values in order when it repeats (a
    range slider writes both ends, ``gauss_ages=20&gauss_ages=40``)."""
    return {k: v[0] if len(v) == 1 else v
            for k, v in parse_qs(urlsplit(link).query, keep_blank_values=True).items()}


def experiments_of(spec) -> list:
    """The page's "Try this" experiments (ui.pages.<page>.EXPERIMENTS), or []."""
    try:
        module = importlib.import_module(f"ui.pages.{spec.name}")
    except ModuleNotFoundError:
        return []
    return list(getattr(module, "EXPERIMENTS", ()))


def fresh(spec, query: dict[str, str], *, lang: str = "en") -> AppTest:
    """A new session opened at ``spec``'s page by a link with ``query``."""
    at = AppTest.from_file(str(APP_PATH), default_timeout=90)
    with thread_speaking(lang):
        at.run()
        for key, value in query.items():
            at.query_params[key] = value
        at.switch_page(spec.script)
        at.run()
    return at


def numbers(at: AppTest) -> dict[str, str]:
    """The numbers a view shows: its metrics, and the tables' values."""
    shown = dict(metrics(at))
    for i, d in enumerate(at.dataframe):
        shown[f"table {i}"] = d.value.to_csv()
    return shown


def last_kit():
    return LAST_KIT[-1] if LAST_KIT else None


class RuleCounts(Counter):
    """How often each rule of the journeys ran (and how often an invariant was checked)."""

    def line(self, title: str) -> str:
        return f"{title}: " + ", ".join(f"{k} {v}" for k, v in sorted(self.items()))


def same_numbers(a: dict, b: dict) -> list[str]:
    """The labels whose shown values differ between two views."""
    return sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))


def assert_view_clean(at: AppTest) -> None:
    assert_clean(at)


def plain(value):
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.floating,)):
        return float(value)
    return value
