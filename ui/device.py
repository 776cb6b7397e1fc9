"""What runs on the reader's device: an answer randomized in the browser, and cookies.

:func:`krr_answer` draws one button per answer. When the student taps one, the browser
itself draws the answer it reports with k-ary randomized response ([KBR16]: the true answer
with probability p, each other answer with probability q; ``dpcore.ldp.krr_probabilities``)
from ``crypto.getRandomValues``, and sends only that index. The true answer is never sent,
held in a widget, logged, or written anywhere Streamlit reads: the server learns what a
randomized-response survey's collector learns, and nothing more.

:func:`set_cookie` and :func:`forget_cookie` write and delete a cookie of this site in the
browser (a teacher's secret key, a student's token). Streamlit reads cookies only when a
session starts (``st.context.cookies``, from the WebSocket's handshake): a cookie written now
is seen by the server from the next page load (the next session) on, never in this session.
A caller keeps the value in ``st.session_state`` too, for the rest of this session.

Both are Streamlit custom components (``st.components.v2``): the JavaScript of
``ui/static/device.js`` and the style sheet ``ui/static/device.css``, passed inline (no build
step). Streamlit 1.67 mounts such a component in the app's own document, in a shadow root
(``isolate_styles=True``, the default), not in an iframe: ``document.cookie`` is the page's.

:func:`reported_for` is the browser's draw written in Python, operation for operation, so
that tests can choose the random value that gives a report (tests/test_browser_device.py).
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Sequence
from numbers import Real
from pathlib import Path

import streamlit as st

MIN_ANSWERS, MAX_ANSWERS = 2, 10
_STATIC = Path(__file__).resolve().parent / "static"
_JS = (_STATIC / "device.js").read_text(encoding="utf-8")
_CSS = (_STATIC / "device.css").read_text(encoding="utf-8")

# One module (device.js) serves both components; it tells them apart by their names.
_krr = st.components.v2.component(
    "device_krr", html='<div class="device-krr"></div>', css=_CSS, js=_JS)
_cookie = st.components.v2.component("device_cookie", js=_JS)

# How far p + (k − 1)q may be from 1 (krr_probabilities' sums are within a few ulps).
_SUM_TOLERANCE = 1e-9
# Cookies: a name that starts with a letter (so neither Streamlit's own "_streamlit_xsrf"
# nor the "__Host-"/"__Secure-" prefixes, which the browser treats apart); a value of
# URL-safe characters only (secrets.token_urlsafe's), so that nothing needs quoting.
_COOKIE_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,63}")
_COOKIE_VALUE = re.compile(r"[A-Za-z0-9_.~-]{0,1024}")
MAX_COOKIE_AGE_S = 400 * 24 * 3600  # browsers keep a cookie 400 days at most (Chromium)


def reported_for(t: int, u: float, p: float, q: float, k: int) -> int:
    """The answer the device reports for the true answer ``t`` and a uniform ``u`` in
    [0, 1): the inverse CDF of k-RR, where answer j has probability p if j = t and q
    otherwise, the answers taken in their order 0, …, k − 1.

    The same function as ``reportedFor`` in ui/static/device.js, the same additions of
    doubles in the same order, so it gives the browser's report for the browser's ``u``
    (a 32-bit value of ``crypto.getRandomValues`` over 2³²)."""
    acc = 0.0
    for j in range(k):
        acc += p if j == t else q
        if u < acc:
            return j
    return k - 1  # only if rounding left p + (k − 1)q a hair below u


def _check_labels(labels) -> list[str]:
    if isinstance(labels, (str, bytes)) or not isinstance(labels, Sequence):
        raise ValueError("labels: a list of answers, not "
                         f"{type(labels).__name__}")
    if not MIN_ANSWERS <= len(labels) <= MAX_ANSWERS:
        raise ValueError(f"labels: {MIN_ANSWERS} to {MAX_ANSWERS} answers, not {len(labels)}")
    if not all(isinstance(label, str) and label.strip() for label in labels):
        raise ValueError("labels: each answer is a non-empty text")
    if len(set(labels)) != len(labels):
        raise ValueError("labels: the answers are distinct")
    return list(labels)


def _check_probabilities(p, q, k: int) -> tuple[float, float]:
    for name, value in (("p", p), ("q", q)):
        if isinstance(value, bool) or not isinstance(value, Real) or not math.isfinite(value):
            raise ValueError(f"{name}: a finite number, not {value!r}")
        if not 0 < value <= 1:
            raise ValueError(f"{name}: a probability in (0, 1], not {value!r}")
    p, q = float(p), float(q)
    if p < q:
        raise ValueError(f"p: the true answer at least as likely as each other one (q = {q}), "
                         f"not {p}")
    if abs(p + (k - 1) * q - 1) > _SUM_TOLERANCE:
        raise ValueError(f"p and q: p + (k − 1)q = 1 for k = {k} answers, not "
                         f"{p + (k - 1) * q!r}")
    return p, q


def _index(value, k: int) -> int | None:
    """``value`` if it is an answer's index (0 to k − 1), else None."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < k:
        return value
    return None


def _sent_key(key: str) -> str:
    return f"device_krr_sent:{key}"  # the session's report for key


def _new_key(key: str) -> str:
    return f"device_krr_new:{key}"  # the report, until the run it came with returns it


def _keep_report(key: str, k: int, sent: int | None) -> None:
    """Callback, before the run a report starts: keep this session's first report, so the
    run mounts the buttons locked already (none when the buttons were drawn locked, with
    ``sent`` or a report kept: they send nothing)."""
    if sent is not None or _sent_key(key) in st.session_state:
        return
    state = st.session_state.get(key)  # None: the buttons were not drawn by this page
    j = _index(state.get("reported"), k) if state is not None else None
    if j is not None:
        st.session_state[_sent_key(key)] = j
        st.session_state[_new_key(key)] = j


def krr_answer(labels: Sequence[str], p: float, q: float, *, key: str,
               sent: int | None = None, question: str | None = None) -> int | None:
    """Answer buttons whose answer is randomized on the device; the index reported, in the
    run it was sent, else None.

    ``labels`` are the answers (2 to 10 distinct texts), ``p`` and ``q`` the k-RR
    probabilities (``dpcore.ldp.krr_probabilities(eps, len(labels))``). A tap on answer t
    makes the browser draw j (P(j = t) = p, P(j = i) = q for each i ≠ t; see
    :func:`reported_for`) and send j alone; t stays in the browser and is not kept there
    either. The buttons then lock: once a session has sent a report for ``key`` (one key
    per question), they are drawn locked with that report marked, and so they are when the
    caller passes ``sent``, a report sent earlier (by an earlier session of this device).
    ``question`` names the group of buttons for screen readers.

    Raises ValueError, naming the parameter, for labels that are not 2 to 10 distinct
    non-empty texts, p and q that are not k-RR's (each in (0, 1], p ≥ q > 0,
    p + (k − 1)q = 1), a ``sent`` that is no answer's index, or an empty ``key``.
    """
    labels = _check_labels(labels)
    k = len(labels)
    p, q = _check_probabilities(p, q, k)
    if sent is not None and _index(sent, k) is None:
        raise ValueError(f"sent: an answer's index from 0 to {k - 1}, or None; not {sent!r}")
    if not isinstance(key, str) or not key:
        raise ValueError("key: a non-empty text")
    if question is not None and not isinstance(question, str):
        raise ValueError("question: a text or None")
    kept = st.session_state.get(_sent_key(key))
    shown = sent if sent is not None else kept
    result = _krr(key=key, data={"labels": labels, "p": p, "q": q, "sent": shown,
                                 "question": question},
                  on_reported_change=functools.partial(_keep_report, key, k, shown))
    new = st.session_state.pop(_new_key(key), None)
    return new if new is not None and new == _index(result.get("reported"), k) else None


def _check_cookie(name: str, key: str) -> None:
    if not isinstance(name, str) or not _COOKIE_NAME.fullmatch(name):
        raise ValueError(f"name: a letter then up to 63 letters, digits, '_' or '-'; not {name!r}")
    if not isinstance(key, str) or not key:
        raise ValueError("key: a non-empty text")


def set_cookie(name: str, value: str, *, max_age_s: int, key: str) -> None:
    """Write the cookie ``name`` = ``value`` in this browser for ``max_age_s`` seconds
    (Path=/, SameSite=Strict, Secure when the page is on https).

    Written when the browser draws this run; the server sees it from the next page load on
    (``st.context.cookies`` is read when a session starts), so the caller keeps the value in
    ``st.session_state`` for this session. ``value``: up to 1,024 URL-safe characters
    (letters, digits, ``_ . ~ -``); ``max_age_s``: 1 s to 400 days."""
    _check_cookie(name, key)
    if not isinstance(value, str) or not _COOKIE_VALUE.fullmatch(value):
        raise ValueError("value: up to 1,024 letters, digits, '_', '.', '~' or '-'")
    if (isinstance(max_age_s, bool) or not isinstance(max_age_s, int)
            or not 1 <= max_age_s <= MAX_COOKIE_AGE_S):
        raise ValueError(f"max_age_s: whole seconds from 1 to {MAX_COOKIE_AGE_S}, "
                         f"not {max_age_s!r}")
    _cookie(key=key, data={"name": name, "value": value, "maxAge": max_age_s})


def forget_cookie(name: str, *, key: str) -> None:
    """Delete the cookie ``name`` from this browser (Max-Age=0). As with
    :func:`set_cookie`, ``st.context.cookies`` still has it until the next page load."""
    _check_cookie(name, key)
    _cookie(key=key, data={"name": name, "value": "", "maxAge": 0})
