"""ui.internals: the Streamlit internals the page kit relies on are there, and still mean
what they meant in the tested version. An upgrade that changes them fails here, loudly."""

from __future__ import annotations

import inspect

import pytest
import streamlit
from streamlit.testing.v1 import AppTest

from ui import internals


def test_streamlit_is_the_tested_minor_version():
    major_minor = ".".join(streamlit.__version__.split(".")[:2])
    assert major_minor == internals.TESTED_STREAMLIT, (
        f"Streamlit {streamlit.__version__} is installed, ui/internals.py was written for "
        f"{internals.TESTED_STREAMLIT}: check url_form against the new version, then update "
        "TESTED_STREAMLIT, requirements.txt and the lock files.")


def url_form_page():
    import streamlit as st

    from ui import internals

    st.radio("width", [1, 5, 10], index=1, key="bound",
             format_func={1: "one", 5: "five", 10: "ten"}.get, bind="query-params")
    st.select_slider("n", [1000, 5000], value=1000, key="slid", bind="query-params",
                     format_func=lambda v: f"{v:,}")
    st.radio("free", ["a", "b"], key="free")
    st.write(f"bound={internals.url_form('bound')}")
    st.write(f"slid={internals.url_form('slid')}")
    st.write(f"free={internals.url_form('free')}")
    st.write(f"absent={internals.url_form('absent')}")


def test_url_form_is_the_text_a_bound_widget_writes_to_the_address():
    at = AppTest.from_function(url_form_page).run()
    assert not at.exception
    at.radio(key="bound").set_value(10)
    at.select_slider(key="slid").set_value(5000)
    at.run()
    shown = [m.value for m in at.markdown]
    assert "bound=['ten']" in shown and "slid=['5,000']" in shown, shown
    assert "free=None" in shown and "absent=None" in shown, shown


def test_upload_lost_knows_streamlits_deleted_file(monkeypatch):
    """A file id the process does not hold deserialises to Streamlit's DeletedFile (seen
    through a real replica in tests/test_replicas.py); upload_lost names it, and only it."""
    from streamlit.runtime.uploaded_file_manager import DeletedFile
    from streamlit.elements.widgets import file_uploader

    from ui import internals

    assert file_uploader.DeletedFile is DeletedFile  # the uploader still makes this class
    monkeypatch.setattr(internals.st, "session_state",
                        {"gone": DeletedFile("lost-id"), "none": None})
    assert internals.upload_lost("gone")
    assert not internals.upload_lost("none") and not internals.upload_lost("absent")


def rewrite_page():
    import streamlit as st

    from ui import internals

    if st.query_params.get("rewrite") == "1":  # a widget of the last run is bound to "bound"
        internals.rewrite_link_value("bound", ["ten"])
        st.session_state.clear()  # a fresh visit: the widget takes the address's value
    st.radio("width", [1, 5, 10], index=1, key="bound",
             format_func={1: "one", 5: "five", 10: "ten"}.get, bind="query-params")
    st.write(f"value={st.session_state.bound}")


def test_rewrite_link_value_sets_a_bound_parameter_that_the_widget_then_reads():
    """Streamlit's own st.query_params refuses to set a parameter a widget is bound to; the
    rewrite reaches it, and the widget's first value, which Streamlit takes from its
    snapshot of the address, is the rewritten one."""
    at = AppTest.from_function(rewrite_page)
    at.query_params["bound"] = "one"
    at.run()
    assert not at.exception and "value=1" in [m.value for m in at.markdown]

    def refused():
        import streamlit as st

        st.radio("width", [1, 5, 10], key="bound", bind="query-params")
        st.query_params["bound"] = "10"

    # why rewrite_link_value exists: the public way is refused
    assert "bound to a widget" in AppTest.from_function(refused).run().exception[0].message
    at.query_params["rewrite"] = "1"
    at.run()
    assert not at.exception
    assert "value=10" in [m.value for m in at.markdown]
    assert at.query_params["bound"] in (["ten"], "ten")


@pytest.mark.parametrize("sheet", ["NO_CLIP_CSS", "PRESENT_CSS"])
def test_style_sheets_hold_no_markup_that_the_sanitiser_would_drop_them_for(sheet):
    """st.html sanitises with DOMPurify, which removes a style element whose text has a "<"
    followed by a name (even in a CSS comment): the whole sheet would silently not apply
    (it once did: no focus outline anywhere)."""
    from ui import internals

    text = getattr(internals, sheet)
    assert text.startswith("<style>") and text.endswith("</style>")
    assert "<" not in text[len("<style>"):-len("</style>")]


def blank_page():
    import streamlit as st

    st.write("blank")


def test_apptest_runs_as_a_server_does():
    """tests/conftest.py makes AppTest scan for component manifests once a process and
    compile each script once: the scan is still where AppTest calls it, two AppTests share
    one scan, and AppTest still makes its script cache where conftest hands out one."""
    from streamlit.components.v2 import manifest_scanner
    from streamlit.testing.v1 import app_test

    scan = manifest_scanner.scan_component_manifests
    assert hasattr(scan, "cache_info"), "conftest's once-a-process scan is not in place"
    before = scan.cache_info()
    for _ in range(2):
        assert not AppTest.from_function(blank_page).run().exception
    after = scan.cache_info()
    assert after.hits + after.misses == before.hits + before.misses + 2, (
        "AppTest no longer scans for component manifests through "
        "streamlit.components.v2.manifest_scanner.scan_component_manifests: drop or move "
        "that part of _apptest_as_a_server_runs in tests/conftest.py")
    assert after.misses <= 1
    assert app_test.ScriptCache() is app_test.ScriptCache(), (
        "AppTest no longer makes its ScriptCache by that name: move that part of "
        "_apptest_as_a_server_runs in tests/conftest.py")
    assert "ScriptCache()" in inspect.getsource(app_test.AppTest._run)


def option_keys_page():
    import streamlit as st

    from ui import internals

    st.segmented_control("method", ["analytic", "classical"], default="analytic", key="keys",
                         format_func={"analytic": "analytic (exact)", "classical": "classical"}.get)
    st.radio("shown", ["Cost", "Error"], key="labels")
    st.selectbox("numbers", [1, 2], key="numbers", format_func=lambda v: f"{v} bins")
    st.tabs(["A", "B"], key="tabs", on_change="rerun")
    for key in ("keys", "labels", "numbers", "tabs", "absent"):
        st.write(f"{key}={internals.holds_option_keys(key)}")


def test_holds_option_keys_tells_options_named_by_a_format_func_from_texts_shown():
    at = AppTest.from_function(option_keys_page).run()
    assert not at.exception, at.exception
    said = dict(m.value.split("=") for m in at.markdown)
    assert said == {"keys": "True", "labels": "False", "numbers": "True", "tabs": "False",
                    "absent": "False"}


def device_page():
    import streamlit as st

    from ui import device

    got = device.krr_answer(["yes", "no", "maybe"], 0.5, 0.25, key="pinned")
    st.markdown(f"reported {got}")


def test_the_device_is_driven_in_apptest_as_chromium_drives_it():
    """tests/classkit.py's ``tap`` (the Class pages' tests) replays the frame Chromium sends
    when the device reports an answer: AppTest's private ``_run`` takes the widget states,
    and a v2 component's trigger lives under ``$$STREAMLIT_INTERNAL_KEY_<id>__events``. On an
    upgrade that moves either, this fails here first."""
    from classkit import tap

    assert "widget_state" in inspect.signature(AppTest._run).parameters, (
        "AppTest._run no longer takes widget states: change tests/classkit.py's tap")
    at = AppTest.from_function(device_page).run()
    assert [m.value for m in at.markdown] == ["reported None"]
    tap(at, 2)
    assert [m.value for m in at.markdown] == ["reported 2"], (
        "a v2 component's trigger no longer reaches the script under the widget id "
        "tests/classkit.py's tap writes")
