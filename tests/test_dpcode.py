"""The Code button: every view's script reproduces the numbers the page shows.

For each page that gives code, at its defaults and at two other settings (one with an
upload where the page takes uploads): the page runs in AppTest, its kit keeps every number
it shows with its label (``PageKit.numbers``: the values as computed, before formatting);
the view's script is generated, run in a subprocess from an empty directory, and every
``label: value`` line it prints must equal the page's value exactly (same seed, same
draws). The numbers must be computed in the script, never written in it. The notebooks run
with nbclient. dpcode's own helpers (literals, files) are checked directly.
"""

from __future__ import annotations

import ast
import json
import math
import re
import subprocess
import sys
import warnings

import nbformat
import numpy as np
import pytest
from nbclient import NotebookClient

import dpcode
import dpcore
from conftest import REPO_ROOT, open_page, run, thread_speaking
from pagekit import kit as ended_kit, link_notes, metrics
from ui.text import t

PYTHONPATH = str(REPO_ROOT)  # the scripts import dpcore and dpviz as a pip install would

UPLOAD_COUNTS = ("category,mine,theirs\n" + "".join(
    f"{label},{a},{b}\n" for label, a, b in (
        ("0–4", 120, 130), ("5–9", 340, 300), ("it's \"quoted\"", 560, 610),
        ("back\\slash", 780, 700), ("한국어", 910, 990)))).encode()

# page, title, {case id: (query, upload or None)}
CASES = {
    "compare": ("views/compare_histograms.py", "Compare two private histograms", {
        "defaults": ({}, None),
        "shapes": ({"cmp_a": "uniform", "cmp_b": "increasing", "cmp_m": "12",
                    "cmp_alpha_a": "0.5", "cmp_alpha_b": "1", "cmp_n": "5,000",
                    "cmp_boot": "200", "cmp_seed": "7", "cmp_null_test": "normal_score",
                    "cmp_zoom": "true"}, None),
        "upload": ({"cmp_boot": "500", "cmp_alpha_a": "0.5"},
                   ({"cmp_a": "upload", "cmp_b": "upload"}, "cmp_file", UPLOAD_COUNTS,
                    "counts")),
    }),
}
UPLOAD_AGES = ("age,weight\n" + "".join(f"{a},{w}\n" for a, w in
                                       ((3, 1), (27, 2), (45, 3), (45, 1), (90, 2), (61, 5),
                                        (12, 1), (33, 4)))).encode()

CASES["gaussian"] = ("views/gaussian.py", "Gaussian mechanism", {
    "defaults": ({}, None),
    "loss-solve-eps": ({"gauss_tab": "Privacy loss", "gauss_solve": "eps", "gauss_sigma": "3",
                        "gauss_delta": "1e-06", "gauss_method": "tail"}, None),
    "gdp": ({"gauss_tab": "As μ-GDP", "gauss_sens": "2", "gauss_eps": "0.5"}, None),
    "release-sum": ({"gauss_tab": "Release a statistic", "gauss_query": "sum",
                     "gauss_upper": "60", "gauss_n": "5,000", "gauss_seed": "11"}, None),
    "release-upload-histogram": (
        {"gauss_tab": "Release a statistic", "gauss_query": "histogram", "gauss_width": "10",
         "gauss_solve": "eps", "gauss_sigma": "2"},
        ({"gauss_source": "upload"}, "gauss_file", UPLOAD_AGES, "values")),
    "tables": ({"gauss_tab": "σ table", "gauss_sens": "3"}, None),
})

ANSWERS = ("answer\n" + "\n".join(["yes", "no", "no", "peut-être \"x\"", "yes", "아니요",
                                    "no"] * 6) + "\n").encode()
LDP_SOURCES = {"abc": "Three categories A, B, C (k = 3)"}

CASES["ldp"] = ("views/ldp.py", "Randomized response (local DP)", {
    "defaults": ({}, None),
    "aggregate-population": ({"ldp_tab": "The aggregate", "ldp_source": "Population 2020 by age: Korea",
                              "ldp_k": "18", "ldp_eps": "0.5", "ldp_method": "ibu",
                              "ldp_seed": "5"}, None),
    "error-abc": ({"ldp_tab": "Error versus privacy", "ldp_source": LDP_SOURCES["abc"],
                   "ldp_reps": "50", "ldp_eps": "2"}, None),
    "user-upload-flips": ({"ldp_tab": "One user at a time", "ldp_flip": "3"},
                          ({"ldp_source": "upload"}, "ldp_file", ANSWERS, "categories")),
    "guarantee": ({"ldp_tab": "The guarantee", "ldp_eps": "0.1"}, None),
})

CASES["fdp"] = ("views/fdp.py", "f-DP and Gaussian DP", {
    "defaults": ({}, None),
    "laplace-attacker": ({"fdp_family": "laplace", "fdp_mu": "2", "fdp_say_alpha": "0.1"},
                         None),
    "curves-all": ({"fdp_tab": "Trade-off curves", "fdp_show_rs": "true",
                    "fdp_show_hist": "true", "fdp_target": "epsdelta"}, None),
    "group-epsdelta": ({"fdp_tab": "Group privacy", "fdp_group_curve": "epsdelta",
                        "fdp_group_k": "4"}, None),
    "composition": ({"fdp_tab": "Composition", "fdp_comp_n": "25"}, None),
    "conversions": ({"fdp_tab": "Conversions", "fdp_conv_mu": "2", "fdp_inv_eps": "2"}, None),
    "auditor-krr": ({"fdp_tab": "An auditor's view", "fdp_aud_mech": "krr",
                     "fdp_aud_reps": "1000", "fdp_seed": "3"}, None),
})

PLAN_FAST = {"plan_reps": "50", "plan_boot": "50"}
PLAN_EFFECT = "One population and an effect"

CASES["planner"] = ("views/planner.py", "Privacy–utility planner", {
    "defaults": ({}, None),
    "data-upload-ages-shift-normal-score": (
        {**PLAN_FAST, "plan_mode": PLAN_EFFECT, "plan_direction": "younger (first bins)",
         "plan_shift": "2", "plan_test": "normal-score test", "plan_alpha": "0.5",
         "plan_seed": "7"},
        ({"plan_base": "upload"}, "plan_file", UPLOAD_AGES, "values")),
    "privacy-tilt-separate": (
        {**PLAN_FAST, "plan_tab": "How much privacy?", "plan_mode": PLAN_EFFECT,
         "plan_effect": "A total-variation distance", "plan_tv": "0.2", "plan_alpha_sep": "true",
         "plan_alpha2": "0.5", "plan_n": "5,000"}, None),
    "frontier": ({**PLAN_FAST, "plan_tab": "Frontier", "plan_fr_points": "3"}, None),
    "report-upload-counts": ({**PLAN_FAST, "plan_tab": "Report", "plan_power": "70%"},
                             ({"plan_a": "upload", "plan_b": "upload"}, "plan_file",
                              UPLOAD_COUNTS, "counts")),
})

CASES["calibration"] = ("views/calibration.py", "Test calibration", {
    "defaults": ({}, None),
    "null-increasing-m200": ({"cal_shape": "Increasing", "cal_m": "200", "cal_n": "1000",
                              "cal_alpha": "0.1", "cal_reps_null": "1000", "cal_seed": "7"},
                             None),
    "live-power": ({"cal_tab": "Type-I error and power",
                    "cal_pair": "Korea vs USA (large effect)", "cal_m_live": "9 (10-year groups)",
                    "cal_a1": "1", "cal_a2": "0.5", "cal_reps": "50", "cal_boot": "100",
                    "cal_ns": ["1,000", "10,000"], "cal_live_seed": "5",
                    "cal_tests": ["parametric bootstrap", "naive χ²", "normal-score contrast"]},
                   None),
    "paper": ({"cal_tab": "The paper at full scale"}, None),
    "paper-filtered": ({"cal_tab": "The paper at full scale", "cal_f_m": ["18"],
                        "cal_f_priv": ["1, 1", "0.01, 0.01"],
                        "cal_f_tests": ["parametric bootstrap", "normal-score contrast"]}, None),
    "extended-filtered": ({"cal_tab": "Beyond the paper: unequal N and ε", "cal_x_m": ["9"],
                           "cal_x_a1": ["0.1"], "cal_x_ratio": ["1", "10"]}, None),
})

CASES["substitution"] = ("views/substitution.py", "Random substitution", {
    "defaults": ({}, None),
    "accuracy-uniform-l1": ({"rs_tab": "Accuracy", "rs_source": "Uniform (the source's shape)",
                             "rs_N": "12", "rs_l": "1", "rs_gamma": "5", "rs_reps": "20",
                             "rs_seed": "7"}, None),
    "cost-population": ({"rs_tab": "Cost", "rs_source": "Population 2020 by age: Korea",
                         "rs_N": "18", "rs_l": "4", "rs_n": "2,000", "rs_reps": "50"}, None),
    "privacy-breach": ({"rs_tab": "Privacy", "rs_N": "10", "rs_l": "3", "rs_gamma": "5",
                        "rs_rho1": "0.1", "rs_rho2": "0.3"}, None),
    "release-upload-l1": ({"rs_l": "1", "rs_seed": "3"},
                          ({"rs_source": "upload"}, "rs_file", UPLOAD_COUNTS, "counts")),
    "bias-upload": ({"rs_tab": "Bias", "rs_l": "3", "rs_reps": "50", "rs_gamma": "2"},
                    ({"rs_source": "upload"}, "rs_file", UPLOAD_COUNTS, "counts")),
})

# Buttons a view waits for before it shows its results: the planner's Simulate (a setting
# not simulated yet, after an upload) and Compute the frontier.
REQUESTS = ("plan_sim_", "plan_fr_run")

PARAMS = [pytest.param(page, title, query, upload, id=f"{name}-{case}")
          for name, (page, title, cases) in CASES.items()
          for case, (query, upload) in cases.items()]


def view(page: str, title: str, query: dict, upload):
    """The page at ``query``, with ``upload`` = (selections that ask for a file, the
    uploader's key, the file, its kind) when not None, and its kit."""
    at = open_page(page, title, query)
    if upload is not None:
        chosen, key, data, kind = upload
        for select, value in chosen.items():
            at.selectbox(key=select).set_value(value)
        run(at)
        at.radio(key=f"{key}_kind").set_value(kind)
        at.file_uploader(key=key).set_value(("data.csv", data, "text/csv"))
        run(at)
    for prefix in REQUESTS:  # what the view waits for the user to ask for, asked for once
        offered = [b for b in at.button if (b.key or "").startswith(prefix)]
        if offered:
            offered[0].click()
            run(at)
    assert not at.exception
    return at, ended_kit(at)


# Runs each view's script as `python view.py` would, in a fresh namespace as its __main__,
# from its own folder, in one Python process per test worker that has imported the scripts'
# libraries once (numpy, SciPy, pandas, Plotly: about 3 s a script otherwise).
RUNNER = r"""
import contextlib, io, json, os, runpy, sys, traceback
import numpy, scipy.stats, pandas, plotly.graph_objects, dpcore, dpviz
for line in sys.stdin:
    os.chdir(json.loads(line))
    out, err, code = io.StringIO(), io.StringIO(), 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            runpy.run_path("view.py", run_name="__main__")
        except SystemExit as exc:
            code = exc.code or 0
        except BaseException:
            traceback.print_exc()
            code = 1
    print(json.dumps({"code": code, "out": out.getvalue(), "err": err.getvalue()}), flush=True)
"""


@pytest.fixture(scope="session")
def script_runner():
    proc = subprocess.Popen([sys.executable, "-c", RUNNER], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True,
                            env={"PYTHONPATH": PYTHONPATH, "PATH": "/usr/bin:/bin"})
    with proc:  # closes its pipes and waits for it
        yield proc
        proc.stdin.close()


def run_script(text: str, files: dict[str, str], folder, runner) -> str:
    (folder / "view.py").write_text(text, encoding="utf-8")
    for name, data in files.items():
        (folder / name).write_text(data, encoding="utf-8")
    runner.stdin.write(json.dumps(str(folder)) + "\n")
    runner.stdin.flush()
    done = json.loads(runner.stdout.readline())
    assert done["code"] == 0, done["err"]
    assert "Traceback" not in done["err"]
    return done["out"]


def literal_numbers(text: str) -> set:
    """Every number written as a literal in the code (constants of its syntax tree)."""
    return {node.value for node in ast.walk(ast.parse(text))
            if isinstance(node, ast.Constant) and isinstance(node.value, (int, float))
            and not isinstance(node.value, bool)}


@pytest.mark.parametrize(("page", "title", "query", "upload"), PARAMS)
def test_the_script_prints_every_number_the_page_shows(page, title, query, upload, tmp_path,
                                                      script_runner):
    at, kit = view(page, title, query, upload)
    shown = kit.numbers
    assert set(metrics(at)) <= set(shown)  # every metric on the page is among them
    program = kit.code_builder("http://localhost/view")
    text = dpcode.script_text(program)
    printed = dpcode.read_printed(run_script(text, program.files, tmp_path, script_runner))
    assert {k: printed.get(k) for k in shown} == {k: _plain(v) for k, v in shown.items()}
    # computed in the script, not written into it (0, 1 and the like excepted: a count of
    # bins or a whole p-value are not written either)
    written = literal_numbers(text)
    for label, value in shown.items():
        if isinstance(value, float) and value not in (0.0, 1.0) and label not in kit.inputs:
            assert value not in written, label


def _plain(value):
    """A value as the script prints it and read_printed reads it back."""
    if isinstance(value, (np.integer, int)) and not isinstance(value, bool):
        return int(value)
    if isinstance(value, (np.floating, float)):
        return float(value)
    return value


# One notebook a page, its richest view (an upload where the page takes one): a notebook
# holds the script's code cell by cell (figures shown inline rather than written), so the
# script tests above check the numbers of every other view; each kernel costs ~4 s.
NOTEBOOKS = ("compare-upload", "gaussian-release-upload-histogram", "ldp-aggregate-population",
             "fdp-curves-all", "calibration-live-power", "substitution-bias-upload",
             "planner-report-upload-counts")
assert {p.id for p in PARAMS} >= set(NOTEBOOKS) and len(NOTEBOOKS) == len(CASES)


@pytest.mark.parametrize(("page", "title", "query", "upload"),
                         [p for p in PARAMS if p.id in NOTEBOOKS])
def test_the_notebook_runs(page, title, query, upload, tmp_path):
    """The notebook of a page's richest view executes on an IPython kernel without error,
    and prints what the script prints."""
    _, kit = view(page, title, query, upload)
    program = kit.code_builder("http://localhost/view")
    for name, data in program.files.items():
        (tmp_path / name).write_text(data, encoding="utf-8")
    nb = nbformat.reads(dpcode.notebook_text(program), as_version=4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # from jupyter_client's paths
        NotebookClient(nb, timeout=300, kernel_name="python3",
                       resources={"metadata": {"path": str(tmp_path)}}).execute(
            env={"PYTHONPATH": PYTHONPATH})
    out = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code"
                  for o in c.get("outputs", []) if o.get("output_type") == "stream")
    printed = dpcode.read_printed(out)
    assert {k: printed.get(k) for k in kit.numbers} == \
        {k: _plain(v) for k, v in kit.numbers.items()}


# Korean views whose printed labels are templates filled in by the script: a curve's tightest
# μ and smallest ε, the auditor's columns at each α, the calibrations' σ.
KOREAN = ("fdp-curves-all", "fdp-auditor-krr", "gaussian-defaults")
HANGUL = re.compile("[\uac00-\ud7a3]")


@pytest.mark.parametrize(("page", "title", "query", "upload"),
                         [p for p in PARAMS if p.id in KOREAN])
def test_a_korean_views_script_prints_the_korean_labels_of_the_page(page, title, query, upload,
                                                                    tmp_path, deferred,
                                                                    script_runner):
    """The page in Korean (``lang=ko``): the script its Code button gives (made in the page's
    run, as a reader downloads it) prints every number the page keeps under the page's
    Korean label, with the page's value; none of the words it fills in is left in English."""
    with thread_speaking("ko"):  # AppTest writes the Korean page's widgets back
        at, kit = view(page, t(title), {**query, "lang": "ko"}, upload)
    assert not link_notes(at)  # the view asked for, every English value of the link used
    [script] = [data for name, data in deferred.items() if name.endswith(".py")]
    output = run_script(script(), {}, tmp_path, script_runner)
    printed = dpcode.read_printed(output)
    shown = kit.numbers
    assert {k: printed.get(k) for k in shown} == {k: _plain(v) for k, v in shown.items()}
    assert any(HANGUL.search(label) for label in shown), list(shown)
    for english in ("tightest μ", "smallest ε", "meets the target", "(empirical)", "(exact)",
                    "sd of β̂", "implied by", "σ, tail bound", "σ, classical", "σ, analytic",
                    "no solution", ": yes", ": no"):
        assert english not in output, english


def test_user_text_round_trips_as_literals():
    for text in ("it's \"quoted\"", "back\\slash", "new\nline", "한국어 ε", "'''", '"""',
                 "# not a comment\nimport os"):
        assert ast.literal_eval(dpcode.literal(text)) == text
        assert ast.literal_eval(dpcode.literal([text, 1.5])) == [text, 1.5]


def test_array_literals_are_exact():
    values = np.array([0.1, 1 / 3, 2.5e-300, 7.0])
    code = dpcode.array_literal(values)
    assert np.array_equal(eval(code, {"np": np}), values)  # noqa: S307 - our own literal
    counts = np.arange(25)
    assert np.array_equal(eval(dpcode.array_literal(counts), {"np": np}), counts)  # noqa: S307


def test_the_script_warns_when_versions_differ(tmp_path, monkeypatch):
    program = dpcode.Program("T", "", "t", (dpcode.Cell("code", "print('x: 1')"),))
    monkeypatch.setattr(dpcode.wheel, "build_version", lambda: "0.0.1+b0123456789")
    text = dpcode.script_text(program)
    assert "'dpcore': '0.0.1+b0123456789'" in text
    assert 'pip install "./dpcore-0.0.1+b0123456789-py3-none-any.whl[figures]"' in text
    done = subprocess.run([sys.executable, "-c", text], cwd=tmp_path, capture_output=True,
                          text=True, env={"PYTHONPATH": PYTHONPATH})
    assert done.returncode == 0 and "may differ from the dashboard" in done.stderr


def test_the_script_names_the_wheel_of_its_build_and_runs_quietly_on_that_build(tmp_path):
    """The header says how to install the wheel the Code popover gives (never dpcore from an
    index); GENERATED_WITH records that build, which the source tree reports too (an
    installed wheel: tests/test_handover.py), so the script does not warn."""
    version = dpcode.wheel.build_version()
    assert version == dpcore.__version__ and "+b" in version
    program = dpcode.Program("T", "http://localhost/t", "t",
                             (dpcode.Cell("code", "print('x: 1')"),))
    text = dpcode.script_text(program)
    install = f'pip install "./dpcore-{version}-py3-none-any.whl[figures]"'
    assert f"\n#     {install}\n" in text  # on a comment line of its own, whole
    assert not re.search(r"pip install [\"']?dpcore\b", text)
    assert f"GENERATED_WITH = {{'dpcore': {version!r}, " in text
    notebook = nbformat.reads(dpcode.notebook_text(program), as_version=4)
    assert f"\n    {install}\n" in notebook.cells[0].source  # a Markdown code block
    done = subprocess.run([sys.executable, "-c", text], cwd=tmp_path, capture_output=True,
                          text=True, env={"PYTHONPATH": PYTHONPATH})
    assert done.returncode == 0 and done.stdout == "x: 1\n" and done.stderr == ""


def test_a_view_in_an_error_state_offers_no_code_and_says_why():
    """No σ fits (the Gaussian page), an unusable upload (the compare page): no code, and the
    Code popover says why."""
    from test_page_gaussian import set_values, start as gaussian_page, use_method
    at = use_method(gaussian_page(), "tail")
    set_values(at, eps=0.0)
    gaussian_kit = ended_kit(at)
    compare, compare_kit = view("views/compare_histograms.py", "Compare two private histograms", {},
                      ({"cmp_a": "upload", "cmp_b": "upload"}, "cmp_file", b"a,b\n1,x\n2,3\n",
                       "counts"))
    for page, kit, problem in ((at, gaussian_kit, "No σ fits these values"),
                               (compare, compare_kit, "is not a number")):
        assert kit.code_builder is None and problem in kit.code_problem
        assert any(problem in c.value for c in page.caption)
        assert not [b for b in page.get("download_button") if "page_code" in str(b.proto)]


def test_read_printed_reads_what_print_writes_for_an_infinite_number():
    """A script prints an infinite μ as Python does ("inf"): it is read back as the number
    the page shows (found by the journey tester on the f-DP page's Code script)."""
    printed = dpcode.read_printed("tightest μ: inf\nsmallest ε: -inf\nx: 1.5\nname: a: b\n")
    assert printed == {"tightest μ": math.inf, "smallest ε": -math.inf, "x": 1.5, "name: a": "b"}
