"""Controls every page uses the same way: log-scale sliders for privacy levels and sample
sizes, an integer slider whose range follows other settings, an exact number box beside a
log slider, and the seed with its "New draw" button. Every control is bound to the URL, so
a link reproduces the view, and returns the value the page computes with.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from ui.format import fmt_number, fmt_people
from ui.text import t

# Log-scale grids for select sliders, rounded to two significant figures.
# Ten steps a decade: they contain the paper's levels 0.01, 0.05, 0.1, 0.5, 1.
ALPHA_GRID = tuple(float(f"{v:.2g}") for v in np.logspace(-3, 1, 41))
# Sample sizes 1, 2, 5 x 10^k from 10^3 to 5 x 10^7 (the paper's range).
N_GRID = tuple(int(m * 10**k) for k in range(3, 8) for m in (1, 2, 5))
BOOT_GRID = (100, 200, 500, 1000, 2000, 5000, 10_000)
DEFAULT_SEED = 2022


def log_slider(label: str, grid, *, default, key: str, help: str | None = None):
    """A select slider over a log-spaced grid, bound to the page URL."""
    return st.select_slider(
        label, options=grid, value=default, format_func=fmt_number, key=key, help=help,
        bind="query-params",
    )


def alpha_slider(label: str, *, key: str, default: float = 0.1):
    return log_slider(
        label, ALPHA_GRID, default=default, key=key,
        help=t("Privacy level α of the Laplace mechanism: noise Lap(2/α) is added to every "
               "count. Smaller α = stronger privacy = more noise. Log scale, 0.001 to 10."),
    )


def sample_size_slider(label: str, *, key: str, default: int = 10_000,
                       always_in_link: bool = False):
    return people_slider(
        label, N_GRID, default=default, key=key, always_in_link=always_in_link,
        help=t("Number of people N in the histogram, drawn as Multinomial(N, p). "
               "Log scale, 1,000 to 50 million."),
    )


def people_from_link(text, grid) -> int | None:
    """The step of ``grid`` a link's value names, or None: the link form ("50M", "5,000",
    as :func:`ui.format.fmt_number` writes it) or a plain number ("50000000")."""
    if text is None:
        return None
    text = str(text).strip()
    named = {fmt_number(n): n for n in grid}
    if text in named:
        return named[text]
    number = _whole_number(text)
    return number if number in grid else None


def people_slider(label: str, grid, *, default: int, key: str, help: str,
                  always_in_link: bool = False) -> int:
    """A select slider over numbers of people N (``grid``), bound to the URL parameter ``key``.

    It shows N as a reader says it (:func:`ui.format.fmt_people`: "50 million", "5천만"),
    never "50M" beside M, the number of bins; its link value keeps the form links have
    always had ("50M", "5,000": :func:`ui.format.fmt_number`), so old and new links open
    the same view. A bound select slider writes the label it shows into the address; this
    one is bound by hand, as :func:`ranged_slider` is: the address is read when it changed
    (a link opened, a step back in the browser's history) and written when the slider is
    moved, its parameter left out at the default (``always_in_link``: kept, for a default
    that follows another control). A value it cannot use is dropped from the address and
    the default used; the page kit's note names it (:func:`ui.links.unusable`).
    """
    read_key = f"{key}_link"  # the address's value this control last read or wrote
    raw = st.query_params.get(key)
    if key not in st.session_state or raw != st.session_state.get(read_key):
        value = people_from_link(raw, grid)
        if value is None:
            if raw is not None:  # unusable: dropped, and named by the page kit
                st.query_params.pop(key, None)
            value = default
        st.session_state[key] = value
        st.session_state[read_key] = st.query_params.get(key)

    def _moved() -> None:
        moved = st.session_state.get(key)
        if moved == default and not always_in_link:
            st.query_params.pop(key, None)
        elif moved is not None:
            st.query_params[key] = fmt_number(moved)
        st.session_state[read_key] = st.query_params.get(key)

    value = st.select_slider(label, options=grid, format_func=fmt_people, key=key, help=help,
                             on_change=_moved)
    if always_in_link and st.query_params.get(key) is None:
        st.query_params[key] = fmt_number(value)
        st.session_state[read_key] = st.query_params.get(key)
    return value


def people_multiselect(label: str, grid, *, default, key: str, help: str, where=None,
                       in_form: bool = False) -> list[int]:
    """A multiselect over numbers of people N (``grid``) that shows them as
    :func:`people_slider` does ("1 million", "100만") and keeps their link form ("1M"),
    bound to the URL parameter ``key`` by hand in the same way. In a form (``in_form``) the
    address is written when the form is submitted: give :func:`write_people_link` to its
    submit button's ``on_click``."""
    read_key = f"{key}_link"
    raw = st.query_params.get_all(key) or None
    if key not in st.session_state or raw != st.session_state.get(read_key):
        if raw is None:
            chosen = list(default)
        elif raw == [""]:  # an empty choice
            chosen = []
        else:
            chosen = []
            for text in raw:
                value = people_from_link(text, grid)
                if value is not None and value not in chosen:
                    chosen.append(value)
            if len(chosen) != len(raw):  # values it cannot use: dropped, and named
                if chosen:
                    st.query_params[key] = [fmt_number(v) for v in chosen]
                else:
                    st.query_params.pop(key, None)
                    chosen = list(default)
        st.session_state[key] = chosen
        st.session_state[read_key] = st.query_params.get_all(key) or None
    if key in st.session_state:  # labels a browser sent back after a language switch
        held = st.session_state[key] or []
        if any(isinstance(v, str) for v in held):
            st.session_state[key] = _people_values(held, grid)
    kwargs = {} if in_form else {"on_change": write_people_link,
                                 "args": (key, tuple(default), tuple(grid))}
    return (where or st).multiselect(label, list(grid), format_func=fmt_people, key=key,
                                     help=help, **kwargs)


def _people_values(chosen, grid) -> list[int]:
    """A multiselect's values as numbers of people: a browser that held the options' labels
    across a language switch sends some back as labels ("1만" for 10,000), which are mapped
    to their numbers; a text that names none is dropped."""
    names = {}
    for n in grid:
        names.update({fmt_number(n): n, str(n): n,
                      **{fmt_people(n, code): n for code in ("en", "ko")}})
    out = []
    for value in chosen:
        number = names.get(value) if isinstance(value, str) else value
        if number is not None and number not in out:
            out.append(int(number))
    return out


def write_people_link(key: str, default, grid=()) -> None:
    """Write the choice of :func:`people_multiselect` ``key`` into the address in its link
    form; left out when it is the default."""
    chosen = _people_values(st.session_state.get(key) or [], grid)
    if sorted(chosen) == sorted(default):
        st.query_params.pop(key, None)
    elif not chosen:
        st.query_params[key] = ""
    else:
        st.query_params[key] = [fmt_number(v) for v in chosen]
    st.session_state[f"{key}_link"] = st.query_params.get_all(key) or None


def _whole_number(text) -> int | None:
    """A query parameter's value as an int ("1,000" and "12.0" too), or None."""
    try:
        value = float(str(text).replace(",", ""))
    except ValueError:
        return None
    return int(value) if np.isfinite(value) and value == int(value) else None


def ranged_slider(label: str, min_value: int, max_value: int, *, default: int, key: str,
                  help: str | None = None) -> int:
    """An integer slider whose range follows other settings, kept in the URL parameter ``key``.

    The URL holds the value chosen (absent: ``default``); the slider shows it
    clamped to its current range, and a caption says when it is clamped. So a
    value is kept when the range changes and comes back when the range allows
    it again, and a reload of the URL shows the same. The slider itself (key
    ``f"{key}_slider"``) is not bound to the URL: Streamlit gives a bound slider
    with a new range a new identity, which resets it or fails on a URL value
    beyond the range. A move of the slider is written to the URL parameter.
    """
    slider_key, moved_key = f"{key}_slider", f"{key}_moved"
    lo, hi = int(min_value), int(max_value)
    default = int(default)

    def _moved() -> None:
        moved = st.session_state.get(slider_key)
        if moved is not None:
            st.session_state[moved_key] = int(moved)

    moved = st.session_state.pop(moved_key, None)
    if moved is not None:  # the user moved the slider: the URL follows
        if moved == default:
            st.query_params.pop(key, None)
        else:
            st.query_params[key] = str(moved)
    raw = st.query_params.get(key)
    wanted = _whole_number(raw)
    if raw is not None and wanted is None:  # unusable: dropped, and named by page_footer
        st.query_params.pop(key, None)
        st.session_state[key] = default
    else:  # a usable value, or one the user just moved away from: nothing to name
        st.session_state.pop(key, None)
    wanted = default if wanted is None else wanted
    value = min(max(wanted, lo), hi)
    # A slider with a new range is a new widget to Streamlit: its state is written again
    # whenever the range changes, or it would show its minimum while ``value`` is used.
    range_key = f"{key}_range"
    if st.session_state.get(slider_key) != value or st.session_state.get(range_key) != (lo, hi):
        st.session_state[slider_key] = value
    st.session_state[range_key] = (lo, hi)
    st.slider(label, lo, hi, key=slider_key, on_change=_moved, help=help)
    if value != wanted:
        st.caption(t("{label}: {wanted:,} is outside {lo} … {hi}; {value:,} is used.",
                     label=label, wanted=wanted, lo=lo, hi=hi, value=value))
    return value


def _refilled(value, last_key: str, rerun_key: str, default):
    """A number box's value, never None: a box without a value of its own (e.g. a
    browser history entry without its URL parameter) gets one rerun to refill it from
    session state, then its last value (or ``default``). Remembers the value as the last."""
    if value is None:
        if not st.session_state.get(rerun_key):
            st.session_state[rerun_key] = True
            st.rerun()
        value = st.session_state.get(last_key, default)
    st.session_state[rerun_key] = False
    st.session_state[last_key] = value
    return value


def seed_control(key: str = "seed") -> int:
    """Seed input with a "New draw" button; the same seed gives the same view.

    The seed (key ``key``, bound to the URL) is any whole number from 0 to
    2³¹ − 1. Streamlit leaves a bound widget's default value out of the URL, so
    the number input is created with ``value=None`` (no default of its own) and
    gets DEFAULT_SEED from ``st.session_state.setdefault``: every seed, 0 and
    DEFAULT_SEED included, round-trips through the URL, and no "default value
    and Session State" warning arises when "New draw" sets the seed. An empty
    box (the user cleared it, or a browser history entry without this
    parameter) is refilled with the last seed. The box and the button share a
    row that wraps: in a narrow column the button moves below the box.
    """
    last_key, rerun_key = f"{key}_last", f"{key}_rerun"
    st.session_state.setdefault(key, DEFAULT_SEED)
    if st.session_state.get(key) is None:
        st.session_state[key] = st.session_state.get(last_key, DEFAULT_SEED)

    def _new_draw():
        st.session_state[key] = int(np.random.default_rng().integers(0, 1_000_000))

    def _typed():
        if st.session_state.get(key) is None:  # the box was cleared: put the last seed back
            st.session_state[key] = st.session_state.get(last_key, DEFAULT_SEED)

    with st.container(horizontal=True, vertical_alignment="bottom", gap="small"):
        seed = st.number_input(
            t("Seed"), min_value=0, max_value=2**31 - 1, value=None, step=1, key=key,
            on_change=_typed, bind="query-params",
            help=t("Random seed. The same seed and settings reproduce exactly the same view."),
        )
        st.button(t("New draw"), key=f"{key}_new", on_click=_new_draw, wrap=True,
                  help=t("Draw new data and noise (picks a new seed)."), icon=":material/casino:")
    return int(_refilled(seed, last_key, rerun_key, DEFAULT_SEED))


def synced_log_input(label: str, grid, *, key: str, default: float, min_value: float,
                     max_value: float, help: str, disabled: bool = False, value=None,
                     number_label: str | None = None, format: str = "%.6g",
                     step: float | None = None, format_func=fmt_number) -> float:
    """A log-scale select slider and an exact number input, side by side, kept in sync.

    The number input (key ``key``) is the source of truth: it holds the exact
    value, which this returns. The select slider (key ``f"{key}_slider"``, not
    bound to the URL) shows the grid value nearest to it in log scale and is a
    quick way to set it: moving it copies its grid value into the number input.
    Code may set ``st.session_state[key]`` alone (before this is called, e.g. in
    a callback): the slider follows on the next call.

    ``value``: a value computed elsewhere to show (e.g. solved for, with
    ``disabled``). It is written into the number input's state before the
    widget is created and is returned as it is; the number input's bounds
    widen to take it when it lies outside [min_value, max_value].

    The value shown is the value used: the slider's options are its grid with
    the value in use added in its place (a value typed or solved between two
    steps, or beyond the grid's ends, is a step of its own while it is in use),
    so its thumb never shows another number. The value returned is the number
    as the box shows it (``format``): a float carried through the URL or left
    by an earlier solution (0.9999999999975212) is used as the box writes it (1).

    URL and state: an enabled number input is bound to the URL
    (``bind="query-params"``); a disabled one shows a computed value, not a
    setting, and stays out of the URL (a value in the URL would override the
    computed one on a page's first run). The page's default comes from
    ``st.session_state.setdefault`` and the number input is created with
    ``value=None``: no default value, so no "default value and Session State"
    warning, and every value, 0 included, round-trips through the URL. An
    empty box (the user cleared it, or a browser history entry without this
    parameter) is refilled with the last value.
    """
    slider_key, last_key = f"{key}_slider", f"{key}_last"
    bound_key, rerun_key = f"{key}_bound", f"{key}_rerun"
    default = float(default)
    st.session_state.setdefault(key, default)
    if st.session_state.get(key) is None:
        st.session_state[key] = st.session_state.get(last_key, default)
    forced = None if value is None else float(value)
    clamped = None
    if forced is not None:
        min_value, max_value = min(min_value, forced), max(max_value, forced)
        if st.session_state.get(key) != forced:
            st.session_state[key] = forced
    else:  # a given value: used as the box shows it, within the box's range
        held = st.session_state.get(key)
        if held is not None and not min_value <= held <= max_value:
            # A value computed before (solved while the box was disabled, its bounds widened
            # to hold it) that the box, given again, cannot hold: the box would show nothing
            # and a link would write a value it refuses. The nearest end is used, and said.
            clamped = (held, min(max(held, min_value), max_value))
            st.session_state[key] = held = clamped[1]
        if held is not None and as_shown(held, format) != held:
            st.session_state[key] = as_shown(held, format)
    bind = not disabled
    if bind and st.session_state.get(bound_key) is False:
        # Bound again (it was computed until now): a write puts its value in the URL.
        st.session_state[key] = st.session_state[key]
    st.session_state[bound_key] = bind

    def _from_slider():
        slid = st.session_state.get(slider_key)
        if slid is not None:
            st.session_state[key] = float(slid)

    def _from_number():
        typed = st.session_state.get(key)
        if typed is None:  # the box was cleared: put the last value back
            st.session_state[key] = st.session_state.get(last_key, default)
        elif as_shown(typed, format) != typed:  # rewritten only when it differs: the URL
            st.session_state[key] = as_shown(typed, format)  # keeps "2", not "2.0"

    lo, hi = fmt_number(grid[0]), fmt_number(grid[-1])
    c_slider, c_number = st.columns([3, 1], vertical_alignment="bottom")
    # The number input is created first (it is drawn to the right): the slider then
    # follows the value it resolved, including one read from the URL.
    with c_number:
        number = st.number_input(
            number_label or t("Exact {label}", label=label), min_value=float(min_value),
            max_value=float(max_value), value=None, step=step, format=format, key=key,
            disabled=disabled, on_change=_from_number,
            bind="query-params" if bind else None,
            help=help + " " + t("Type an exact value from {lo:g} to {hi:g}; the slider shows the "
                                "nearest step of its scale.", lo=min_value, hi=max_value),
        )
    number = float(_refilled(number, last_key, rerun_key, default))
    if clamped is not None:
        st.caption(t("{label}: the value found before, {old}, is outside this box's range; "
                     "{new} is used.", label=label, old=format_func(clamped[0]),
                     new=format_func(clamped[1])))
    shown = forced if forced is not None else as_shown(number, format)
    options = with_value(grid, shown)
    if st.session_state.get(slider_key) != shown:
        st.session_state[slider_key] = shown
    with c_slider:
        st.select_slider(
            label, options=options, format_func=format_func, key=slider_key,
            disabled=disabled,
            on_change=_from_slider,
            help=help + " " + t("Log scale, {lo} to {hi}; the box beside it takes any exact value.",
                                lo=lo, hi=hi),
        )
    return shown


def as_shown(value: float, format: str = "%.6g") -> float:
    """``value`` as a number box with ``format`` writes it: the value a reader sees."""
    return float(format % float(value))


def with_value(grid, value: float) -> tuple:
    """``grid`` with ``value`` added in its sorted place (once): a select slider over it
    shows ``value`` itself, not the nearest step."""
    if any(g == value for g in grid):
        return tuple(grid)
    return tuple(sorted((*grid, value)))

