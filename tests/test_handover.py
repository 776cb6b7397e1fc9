"""The Code button's hand-over, as a reader takes it: every page's script and the dpcore
wheel its Code popover offers, in an empty virtual environment, run as given.

A fresh venv (no system site packages) in a temporary folder gets the wheel the page offers
(dpcode.wheel: built from this source tree, version ``<release>+<build id>``), installed by
the command the script's header writes, its dependencies from pip's index (or its cache).
Then each page with a Code button is opened at its defaults (AppTest); its script, as the
download gives it, runs in that venv from the temporary folder, with no PYTHONPATH and the
project nowhere on ``sys.path``, and must print every number the page keeps with the page's
value (tests/test_dpcode.py's comparison) and not warn that its versions differ.

One install a module (6 s with pip's cache warm and the machine idle, 20 s when busy); the
seven scripts (about 4 s of CPU each, mostly imports) run while the next pages open.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import venv
from dataclasses import dataclass
from pathlib import Path

import pytest

import dpcode
import dpcore
from conftest import REPO_ROOT
from dpcode import wheel
from test_dpcode import _plain, view
from ui import registry

pytestmark = pytest.mark.handover

#: The pages whose header has the Code button: every tool page (the start page has none).
PAGES = list(registry.TOOL_PAGES)


@dataclass(frozen=True)
class Handover:
    folder: Path  # where the reader saved the files
    python: Path  # the venv's interpreter
    wheel: str  # the wheel's file name
    data: bytes  # the wheel
    env: dict[str, str]  # the environment the scripts run in


def clean_env(venv_dir: Path) -> dict[str, str]:
    """A reader's shell with the venv activated: no PYTHONPATH, nothing of the project."""
    drop = {"PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONSAFEPATH", "VIRTUAL_ENV"}
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env["PATH"] = f"{venv_dir / 'bin'}{os.pathsep}/usr/bin{os.pathsep}/bin"
    env["VIRTUAL_ENV"] = str(venv_dir)
    env["PYTHONIOENCODING"] = "utf-8"
    return env


@pytest.fixture(scope="module")
def handed_over(tmp_path_factory) -> Handover:
    folder = tmp_path_factory.mktemp("handover")
    version = wheel.build_version()
    name = wheel.wheel_name(version)
    data = wheel.wheel_bytes(version)  # what the Code popover's download gives (same cache)
    (folder / name).write_bytes(data)
    venv_dir = folder.parent / f"{folder.name}-venv"
    # Empty: no system site packages, not even pip (seeding it costs 10 s; this process's pip
    # installs into the venv with --python, running under the venv's interpreter).
    venv.EnvBuilder(with_pip=False, clear=True, system_site_packages=False).create(venv_dir)
    python = venv_dir / "bin" / "python"
    env = clean_env(venv_dir)
    # The header's command, as written: pip install "./<wheel>[figures]"; no bytecode
    # compiled ahead (35 s of the install otherwise: the scripts compile what they import).
    command = shlex.split(wheel.install_command(version))
    assert command[:2] == ["pip", "install"] and command[2] == f"./{name}[figures]"
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), *command[1:],
                           "-q", "--no-compile", "--only-binary", ":all:"],
                          cwd=folder, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return Handover(folder, python, name, data, env)


# Also imports what every script imports, once, so that its modules are compiled once here
# rather than by seven scripts at the same time.
PROBE = """
import importlib.util, json, sys
import numpy, scipy.stats, pandas, plotly.graph_objects, plotly.io
import dpcore, dpviz
import dpcore.audit, dpcore.datasets, dpcore.fdp, dpcore.gaussian, dpcore.histogram
import dpcore.homogeneity, dpcore.ldp, dpcore.planner, dpcore.simulation, dpcore.substitution
print(json.dumps({"file": dpcore.__file__, "version": dpcore.__version__, "path": sys.path,
                  "prefix": sys.prefix, "base": sys.base_prefix,
                  "dashboard": [m for m in ("dpcode", "ui", "views", "streamlit")
                                if importlib.util.find_spec(m)]}))
"""


# One test (one venv, on one xdist worker): the venv first, then the seven pages.
def test_every_pages_script_runs_as_given_with_the_pages_wheel(handed_over, deferred,
                                                               tmp_path):
    """The venv holds the wheel and nothing of the project; each page's downloads (script
    and wheel), run there, print the page's numbers."""
    done = subprocess.run([str(handed_over.python), "-c", PROBE], cwd=handed_over.folder,
                          env=handed_over.env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert Path(got["file"]).is_relative_to(got["prefix"]) and got["prefix"] != got["base"]
    assert got["version"] == dpcore.__version__ == wheel.build_version()
    assert not [p for p in got["path"] if p and Path(p).resolve().is_relative_to(REPO_ROOT)]
    assert got["dashboard"] == []
    assert sorted(p.name for p in handed_over.folder.iterdir()) == [handed_over.wheel]

    runs = {}
    for page in PAGES:
        deferred.clear()
        _, kit = view(page.script, page.title, {}, None)
        scripts = {n: f for n, f in deferred.items() if n.endswith(".py")}
        wheels = {n: f for n, f in deferred.items() if n.endswith(".whl")}
        assert len(scripts) == 1 and list(wheels) == [handed_over.wheel], page.name
        assert wheels[handed_over.wheel]() == handed_over.data, page.name  # one build
        [(name, script)] = scripts.items()
        text = script()
        header = text.split("import warnings", 1)[0]
        assert f'pip install "./{handed_over.wheel}[figures]"' in header, page.name
        assert not re.search(r"pip install [\"']?dpcore\b", header), page.name  # no index
        assert kit.code_builder("http://localhost/view").files == {}  # none at the defaults
        folder = tmp_path / page.name
        folder.mkdir()
        (folder / name).write_text(text, encoding="utf-8")
        assert kit.numbers, page.name
        with open(folder / "out.txt", "wb") as out, open(folder / "err.txt", "wb") as err:
            proc = subprocess.Popen([str(handed_over.python), name], cwd=folder,
                                    env=handed_over.env, stdout=out, stderr=err)
        runs[page.name] = (proc, folder, kit.numbers)  # runs while the next page opens
    assert len(runs) == 7
    wrong = {}
    for page, (proc, folder, shown) in runs.items():
        proc.wait(timeout=300)
        out, err = ((folder / f).read_text(encoding="utf-8") for f in ("out.txt", "err.txt"))
        assert proc.returncode == 0 and "Traceback" not in err, f"{page}: {err}"
        assert "may differ from the dashboard" not in err, f"{page}: {err}"
        printed = dpcode.read_printed(out)
        got = {k: printed.get(k) for k in shown}
        want = {k: _plain(v) for k, v in shown.items()}
        if got != want:
            wrong[page] = {k: (got[k], want[k]) for k in want if got[k] != want[k]}
    assert not wrong

