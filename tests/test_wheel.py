"""The distribution "dpcore" as people install it: the wheel is built from the sources it
names, installed in a fresh virtual environment, and used from another directory.

One test, about a minute (a wheel build and a venv with numpy, scipy and pandas from pip's
index or cache): everything the wheel promises is checked on the same install.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import venv
from email.parser import Parser
from pathlib import Path
from zipfile import ZipFile

import numpy as np

import dpcore
from dpcore import datasets, gaussian
from conftest import REPO_ROOT

#: What the build needs from the source tree: the dashboard (app.py, views/, ui/) is not
#: part of the distribution, so a wheel built from these alone proves it does not need it.
SOURCES = ("pyproject.toml", "README.md", "dpcore", "dpviz")

CHECK = """
import json, sys
import numpy as np
import dpcore
from dpcore import datasets, gaussian
table = datasets.load_population()
print(json.dumps({
    "file": dpcore.__file__,
    "version": dpcore.__version__,
    "rows": len(table),
    "korea_total": int(datasets.age_histogram("korea").sum()),
    "delta": float(gaussian.gaussian_delta(1.0, 0.5)),
    "draw": datasets.draw_histogram([0.2, 0.3, 0.5], 1000, rng=7).tolist(),
    "streamlit": "streamlit" in sys.modules or _has("streamlit"),
    "plotly": _has("plotly"),
}))
"""
HAS = "import importlib.util\ndef _has(name):\n    return importlib.util.find_spec(name) is not None\n"

FIGURE = """
import numpy as np
import dpviz
from dpcore import fdp
eps = np.linspace(0, 3, 31)
fig = dpviz.fdp.delta_curve_figure(eps, fdp.gdp_delta(eps, 1.0), mu=1.0)
print(type(fig).__name__, len(fig.data))
"""


def requirement_names(lines) -> set[str]:
    """Distribution names (lower case) of requirement lines."""
    names = set()
    for line in lines:
        line = line.split("#")[0].split(";")[0].strip()
        if line and not line.startswith("-"):
            names.add(re.split(r"[\s\[<>=~!]", line, maxsplit=1)[0].lower())
    return names


def run(python: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    done = subprocess.run([str(python), *args], cwd=cwd, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, f"{args}: {done.stdout}\n{done.stderr}"
    return done


def test_the_wheel_installs_and_runs_in_a_fresh_venv(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    for name in SOURCES:
        path = REPO_ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(path, src / name)
    dist = tmp_path / "dist"
    run(Path(sys.executable), "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist),
        str(src), cwd=tmp_path)
    [wheel] = dist.glob("dpcore-*.whl")
    assert wheel.name.startswith(f"dpcore-{dpcore.__version__}-py3-none-any")

    with ZipFile(wheel) as archive:
        names = set(archive.namelist())
        meta = Parser().parsestr(archive.read(
            f"dpcore-{dpcore.__version__}.dist-info/METADATA").decode())
    # The shipped data and its provenance are in the wheel; the dashboard is not.
    for data in ("population_age_2020.csv", "calibration_study.csv", "README.md"):
        assert f"dpcore/data/{data}" in names
    assert not any(n.startswith(("ui/", "views/", "app.py", "tests/")) for n in names)
    # Its requirements: only what the dashboard has too (requirements.txt), and without an
    # extra only numpy, scipy and pandas.
    required = meta.get_all("Requires-Dist")
    base = requirement_names(r for r in required if "extra ==" not in r)
    assert base == {"numpy", "scipy", "pandas"}
    dashboard = requirement_names((REPO_ROOT / "requirements.txt").read_text().splitlines())
    assert requirement_names(r for r in required if "extra == \"figures\"" in r) <= dashboard

    env = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True, clear=True).create(env)
    python = env / "bin" / "python"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    run(python, "-m", "pip", "install", "-q", "--only-binary", ":all:", str(wheel),
        cwd=elsewhere)
    got = json.loads(run(python, "-c", HAS + CHECK, cwd=elsewhere).stdout)
    assert Path(got["file"]).is_relative_to(env)  # the installed copy, not the source tree
    assert got["version"] == dpcore.__version__
    assert got["rows"] == len(datasets.load_population())
    assert got["korea_total"] == int(datasets.age_histogram("korea").sum())
    assert got["delta"] == float(gaussian.gaussian_delta(1.0, 0.5))
    assert got["draw"] == datasets.draw_histogram([0.2, 0.3, 0.5], 1000, rng=7).tolist()
    assert np.sum(got["draw"]) == 1000
    assert not got["streamlit"] and not got["plotly"]
    helped = run(python, "-m", "dpcore.study", "--help", cwd=elsewhere).stdout
    assert "usage:" in helped

    # The extra "figures" adds Plotly, and the figure builders draw.
    run(python, "-m", "pip", "install", "-q", "--only-binary", ":all:",
        f"{wheel}[figures]", cwd=elsewhere)
    assert run(python, "-c", FIGURE, cwd=elsewhere).stdout.split()[0] == "Figure"
