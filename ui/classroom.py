"""What the Class pages share: the class database, who is who, joining, the teacher's tools.

A class activity is reached at its page's address with ``?code=<join code>``. Who the reader
is follows from their browser, never from the address:

- the **teacher** holds the activity's teacher key in a cookie (``dpclass_teacher_<code>``)
  written when they created the activity or resumed it with the key file on another device.
  The key is never part of an address: Share, Report and Code embed the view's link, which
  carries the code only, so a projected teacher's screen gives away nothing;
- a **student** is known by a random token in a cookie (``dpclass_student``), written on
  their first visit: one answer per token. A second private window is a new browser with a
  new token, which this cannot stop (the pages say so).

Cookies are read when a session starts (``st.context.cookies``); a value written in this
session is also kept in the session state. The database is :mod:`dpclass.storage`, one
:class:`~dpclass.storage.Store` per server process.
"""

from __future__ import annotations

import functools
import io
import os
from contextlib import contextmanager
from dataclasses import dataclass

import segno
import streamlit as st

from dpclass import activities, storage
from ui import device, language, present, registry, sources
from ui import text
from ui.kit import page_header
from ui.text import N_, t

CODE_PARAM = "code"  # the address's join code
STUDENT_COOKIE = "dpclass_student"
TEACHER_COOKIE = "dpclass_teacher_"  # + the code
_STUDENT_KEY = "class_student_token"
_TEACHER_KEYS = "class_teacher_keys"  # session state: code -> key, this session's
_JOINED = "class_joined"  # session state: codes this session has joined (no re-count)
KEY_FILE_HEAD = "dpclass teacher key"
COOKIE_AGE_S = 14 * 24 * 3600  # longer than any activity lives
# The teacher's results refresh this often (seconds; students' screens half as often):
# DPCLASS_LIVE_EVERY_S, e.g. 1 for the browser tests, which wait for those refreshes.
LIVE_EVERY_S = max(float(os.environ.get("DPCLASS_LIVE_EVERY_S", "") or 3), 0.5)

# The settings' names as refusals say them (dpclass.activities names its parameters).
SYMBOLS = {"eps": "ε", "level": "ε / μ"}

# The reader's words for what the database refuses (dpclass.storage's classes).
PROBLEMS = {
    storage.Unavailable: N_("The class database cannot be reached right now. Nothing was "
                            "saved: try again in a moment."),
    storage.NotFound: N_("There is no activity with this code: check it with your teacher."),
    storage.Expired: N_("This activity has ended: its time is up."),
    storage.Closed: N_("The teacher has closed this activity: it takes no more answers."),
    storage.AlreadyAnswered: N_("This browser has already answered: your first answer is "
                                "kept."),
    storage.NotTeacher: N_("This browser does not hold the teacher key of this activity."),
    storage.OverBudget: N_("This release would spend more than the activity's total privacy "
                           "budget: it was not made."),
    storage.RateLimited: N_("Too many wrong codes from this device: wait a few minutes, then "
                            "type the code again."),
}


@st.cache_resource(show_spinner=False, max_entries=4)
def _store(url: str) -> storage.Store:
    return storage.Store(url)


def store() -> storage.Store:
    """This server's class database (a :class:`~dpclass.storage.Unavailable` when it cannot
    be reached when first opened)."""
    return _store(storage.default_url())


def error_text(error: Exception) -> str:
    """What to tell the reader about ``error`` (a refusal of the database, or a setting a
    ``ValueError`` names)."""
    for kind, message in PROBLEMS.items():
        if isinstance(error, kind):
            return t(message)
    return t("That was not accepted: {why}", why=text.error_text(error, SYMBOLS))


def read(method: str, *args):
    """What the class database's ``method`` reads for ``args``; None, with its refusal said
    in plain words, when it cannot (e.g. the database is unreachable)."""
    try:
        return getattr(store(), method)(*args)
    except storage.StorageError as error:
        st.error(error_text(error), icon=":material/error:")
        return None


def shared(code: str, waiting: str) -> storage.Activity | None:
    """The activity when its teacher shows its results to the students; else None, with
    ``waiting`` (or the database's refusal) said."""
    activity = read("get", code)
    if activity is not None and not activity.shared:
        st.info(waiting, icon=":material/co_present:")
        return None
    return activity


@contextmanager
def refusals():
    """Show a refusal of the database (or a bad setting) as an error in plain words and go
    on; nothing else is caught."""
    try:
        yield
    except (storage.StorageError, ValueError) as error:
        st.error(error_text(error), icon=":material/error:")


def address() -> str:
    """The reader's network address: the proxy's X-Forwarded-For when the server sits
    behind one on this machine (scripts/serve.sh), else the peer's."""
    peer = st.context.ip_address or "unknown"
    forwarded = (st.context.headers or {}).get("X-Forwarded-For", "")
    if forwarded and peer in ("127.0.0.1", "::1"):
        return forwarded.split(",")[-1].strip() or peer
    return peer


def cookies() -> dict[str, str]:
    """The cookies the browser sent when this session started (``st.context.cookies``;
    none without a browser, e.g. in a bare script run)."""
    found = st.context.cookies
    if not hasattr(found, "items"):
        return {}
    return {k: v for k, v in found.items() if isinstance(k, str) and isinstance(v, str)}


def student_token() -> str:
    """This browser's student token: its cookie's, else one made now and kept in the session
    (:func:`visit` writes it to the cookie)."""
    token = st.session_state.get(_STUDENT_KEY) or cookies().get(STUDENT_COOKIE)
    if not token:
        token = activities.new_secret()
    st.session_state[_STUDENT_KEY] = token
    return token


def remember_browser(code: str = "") -> None:
    """Write this session's student token, and its teacher key for ``code`` if it holds one,
    to the browser's cookies while the cookies it sent lack them. Called once a run, by
    :func:`visit`: a cookie written in a run that ends with ``st.rerun()`` or
    ``st.switch_page`` never reaches the browser, so each run writes what is still missing
    until the browser's next session shows it."""
    token = student_token()
    if cookies().get(STUDENT_COOKIE) != token:
        device.set_cookie(STUDENT_COOKIE, token, max_age_s=COOKIE_AGE_S,
                          key="class_student_cookie")
    key = _teacher_keys().get(code)
    if code and key and cookies().get(TEACHER_COOKIE + code) != key:
        device.set_cookie(TEACHER_COOKIE + code, key, max_age_s=COOKIE_AGE_S,
                          key="class_teacher_cookie")


def _teacher_keys() -> dict[str, str]:
    return st.session_state.setdefault(_TEACHER_KEYS, {})


def teacher_key(code: str) -> str | None:
    """The teacher key this browser holds for ``code`` (this session's, else its cookie)."""
    return _teacher_keys().get(code) or cookies().get(TEACHER_COOKIE + code)


def keep_teacher_key(code: str, key: str) -> None:
    """Hold ``key`` as this browser's teacher key for ``code``: in the session, and from the
    next run on in a cookie for the next visits (:func:`remember_browser`; never in the
    address)."""
    _teacher_keys()[code] = key


@dataclass(frozen=True)
class Visit:
    """Who opened a class page, and to what: ``activity`` None for a teacher about to start
    one (no code in the address)."""

    activity: storage.Activity | None
    teacher: bool
    key: str | None  # the teacher key (None for a student)

    @property
    def code(self) -> str:
        return self.activity.code if self.activity else ""


PAGES = {"poll": "class_poll", "attack": "class_attack", "histogram": "class_histogram"}  # url paths


def page_of(kind: str) -> registry.PageSpec:
    """The page of an activity of ``kind``."""
    return registry.by_url_path(PAGES[kind])


def go_to(activity: storage.Activity) -> None:
    """Open ``activity``'s page with its code, in the reader's language and mode (the
    address's ``lang`` and ``present``, which a new address would otherwise drop)."""
    query = {CODE_PARAM: activity.code}
    for param in (language.PARAM, present.PARAM):
        if param in st.query_params:
            query[param] = st.query_params[param]
    st.switch_page(page_of(activity.kind).script, query_params=query)


def visit(kind: str) -> Visit | None:
    """Who is here and the activity of the address's code (None, with an error shown, when
    the code opens nothing). A code of another kind of activity goes to that page."""
    typed = st.query_params.get(CODE_PARAM)
    if not typed:
        remember_browser()
        return Visit(None, False, None)
    code = activities.normal_code(typed) or typed
    try:
        if code in st.session_state.get(_JOINED, ()):
            activity = store().get(code)
        else:  # a code from the address counts against the wrong-code limits too
            activity = store().join(typed, browser=student_token(), address=address())
            st.session_state.setdefault(_JOINED, set()).add(activity.code)
    except storage.StorageError as error:
        st.error(error_text(error), icon=":material/error:")
        remember_browser()
        return None
    if activity.kind != kind:
        go_to(activity)
    key = teacher_key(activity.code)
    try:
        teacher = key is not None and store().is_teacher(activity.code, key)
    except storage.Unavailable as error:
        st.error(error_text(error), icon=":material/error:")
        return None
    if teacher:
        _teacher_keys()[activity.code] = key
    remember_browser(activity.code)
    return Visit(activity, teacher, key if teacher else None)


def start(kind: str, config: dict) -> None:
    """Create the activity and open it as its teacher (the key kept in this browser)."""
    activity, key = store().create(kind, config)
    keep_teacher_key(activity.code, key)
    st.session_state.setdefault(_JOINED, set()).add(activity.code)
    st.query_params[CODE_PARAM] = activity.code
    st.rerun()


def join_link(activity: storage.Activity) -> str:
    """The address students open: the activity's page with its code (no key)."""
    base = (st.context.url or "").split("?")[0].rstrip("/")
    root = base.rsplit("/", 1)[0] if base.count("/") > 2 else base
    return f"{root}/{PAGES[activity.kind]}?{CODE_PARAM}={activity.code}"


def qr_png(link: str) -> bytes:
    """The join link as a QR code (PNG), drawn by segno."""
    out = io.BytesIO()
    segno.make(link, error="m").save(out, kind="png", scale=8, border=2)
    return out.getvalue()


def join_panel(activity: storage.Activity) -> None:
    """The join code, its QR code and the join link, for the projector."""
    link = join_link(activity)
    left, right = st.columns([2, 1], vertical_alignment="center")
    with left:
        st.markdown(t("Join at **{link}**", link=link))
        st.markdown(f"## {t('Code')} `{activities.shown_code(activity.code)}`")
        st.caption(t("Open the link, scan the QR code, or type the code on the Class page."))
    with right:
        # PNG as drawn (a JPEG blurs the modules); its alternative text says what it is.
        st.image(qr_png(link), width=200, output_format="PNG",
                 caption=t("QR code of the join link"),
                 alt=t("QR code that opens the join link {link}", link=link))


def teacher_tools(visit: Visit, *, on_close: str) -> None:
    """The teacher's controls in the sidebar (collapsed when presenting): show results to
    the students, the key file to resume on another device, close and delete."""
    activity = visit.activity
    with st.sidebar:
        st.subheader(t("Teacher"))
        with refusals():
            shared = st.toggle(t("Show the results to the students"), value=activity.shared,
                               key="class_share",
                               help=t("Students see the results only when this is on."))
            if shared != activity.shared:
                store().share(activity.code, visit.key, shared)
        st.download_button(
            t("Teacher key file"), f"{KEY_FILE_HEAD}\n{activity.code}\n{visit.key}\n",
            file_name=f"class-{activity.code}-teacher-key.txt", mime="text/plain",
            on_click="ignore", icon=":material/key:", key="class_key_file",
            help=t("To go on from another device: open the join link there and give it this "
                   "file. The key is never shown on screen or put in a link. Keep the file "
                   "private: it opens the teacher's controls."))
        if not activity.closed and st.button(
                t("Close the activity"), key="class_close", icon=":material/lock:",
                help=on_close):
            with refusals():
                store().close(activity.code, visit.key)
                st.rerun()
        if st.button(t("Delete the activity now"), key="class_delete",
                     icon=":material/delete:",
                     help=t("Deletes the activity and everything students sent, at once. "
                            "Otherwise it is deleted {hours} hours after it started.",
                            hours=f"{storage.default_ttl_s() / 3600:g}")):
            with refusals():
                store().delete(activity.code, visit.key)
                del st.query_params[CODE_PARAM]
                st.rerun()


def resume_form(activity: storage.Activity) -> None:
    """For a teacher on another device: give the key file (or paste the key) to open the
    teacher's controls here; the key is never shown."""
    with st.expander(t("Are you the teacher? Go on from this device")):
        upload = sources.key_file_upload(
            t("Teacher key file"), key="class_key_upload",
            help=t("The file the teacher's screen offered (“Teacher key file”)."))
        typed = st.text_input(t("Or paste the teacher key"), type="password",
                              key="class_key_typed", help=t("It is never shown."))
        key = None
        if upload is not None:
            lines = upload.decode("utf-8", "replace").split("\n")
            if len(lines) >= 3 and lines[0] == KEY_FILE_HEAD and lines[1] == activity.code:
                key = lines[2].strip()
            else:
                st.error(t("This is not the teacher key file of this activity."))
        elif typed:
            key = typed.strip()
        if key is not None:
            with refusals():
                if not store().is_teacher(activity.code, key):
                    raise storage.NotTeacher("")
                keep_teacher_key(activity.code, key)
                st.rerun()


def live(fn, *, every: float | None):
    """``fn`` as a fragment that reruns alone every ``every`` seconds (None: only with the
    page), in the reader's language: a fragment's own reruns skip app.py, which sets the
    language of a run (ui.language.choose), so the language of the page's last full run is
    set again here."""
    code = text.language()

    @functools.wraps(fn)
    def run(*args, **kwargs):
        if text.language() != code:
            text.use_language(code)
        return fn(*args, **kwargs)

    return st.fragment(run, run_every=every)


NO_CODE = N_("The class's data lives in the class database of this server, so there is no "
             "code for this view.")


def run_page(spec: registry.PageSpec, kind: str, *, setup, teacher, student) -> None:
    """An activity's page: its header (Share, Report; no Code: :data:`NO_CODE`), then, for
    who is here (:func:`visit`), the teacher's ``setup()`` (no activity yet),
    ``teacher(kit, visit)`` or ``student(kit, visit)``, a student's view ending with what
    one answer per browser cannot stop and the teacher's way back in; the page's end."""
    kit = page_header(spec.label)
    kit.code_problem = t(NO_CODE)
    here = visit(kind)
    if here is not None:
        if here.activity is None:
            setup()
        elif here.teacher:
            teacher(kit, here)
        else:
            student(kit, here)
            what_this_cannot_stop()
            resume_form(here.activity)
    kit.end()


def what_this_cannot_stop() -> None:
    """The plain words on what one-answer-per-browser cannot stop."""
    st.caption(t("One answer per browser: this browser keeps a random token (a cookie) and "
                 "the class database only its hash. A second browser or a private window "
                 "counts as another student; this cannot be stopped without accounts."))
