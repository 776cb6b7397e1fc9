"""The distribution "dpcore" as people install it: the wheel the Code button hands over
(dpcode.wheel: built from the sources pyproject.toml names, stamped with the build id) is
installed in a fresh virtual environment and used from another directory.

One test, about 20 s (a wheel build and a venv with numpy, scipy and pandas from pip's
index or cache): everything the wheel promises is checked on the same install. The build id
itself is checked on copies of the tree (no install).
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
import pytest

import dpcore
from dpcode import wheel
from dpcore import datasets, gaussian
from conftest import REPO_ROOT

#: What the build reads from the source tree: the dashboard (app.py, views/, ui/, dpcode/)
#: is not part of the distribution, so a wheel built from a copy of these alone proves it
#: does not need it.
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


def copy_sources(dest: Path) -> Path:
    dest.mkdir()
    for name in SOURCES:
        path = REPO_ROOT / name
        if path.is_dir():
            shutil.copytree(path, dest / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(path, dest / name)
    return dest


def test_the_build_id_covers_exactly_what_the_wheel_ships(tmp_path):
    """The id of a copy of the sources is the running tree's; stray files (bytecode, notes,
    the README) leave it; one byte of a shipped module or of pyproject.toml changes it."""
    release, _, build = dpcore.__version__.partition("+")
    assert re.fullmatch(r"b[0-9a-f]{10}", build) and wheel.build_version() == dpcore.__version__
    src = copy_sources(tmp_path / "src")
    assert wheel.build_id(src) == build
    (src / "dpcore" / "__pycache__").mkdir()
    (src / "dpcore" / "__pycache__" / "x.pyc").write_bytes(b"x")
    (src / "dpcore" / "notes.txt").write_text("x")
    (src / "README.md").write_text("another description")
    assert dpcore._build_id(src) == build
    for name in ("dpviz/style.py", "dpcore/data/population_age_2020.csv", "pyproject.toml"):
        changed = copy_sources(tmp_path / name.replace("/", "_"))
        (changed / name).write_bytes((changed / name).read_bytes() + b" ")
        assert dpcore._build_id(changed) != build, name
    # The version as pip normalizes it (PEP 440) is the version as written.
    packaging = pytest.importorskip("packaging.version")
    assert str(packaging.Version(dpcore.__version__)) == dpcore.__version__


def test_the_wheel_installs_and_runs_in_a_fresh_venv(tmp_path):
    src = copy_sources(tmp_path / "src")
    built = wheel.build_wheel(tmp_path / "dist", root=src)
    # Named by the running tree's version, the release and its build id, and the very
    # bytes the Code popover hands over.
    assert built.name == f"dpcore-{dpcore.__version__}-py3-none-any.whl"
    assert built.name == wheel.wheel_name(wheel.build_version())
    assert built.read_bytes() == wheel.wheel_bytes()
    assert wheel.build_version(src) == dpcore.__version__

    with ZipFile(built) as archive:
        names = set(archive.namelist())
        meta = Parser().parsestr(archive.read(
            f"dpcore-{dpcore.__version__}.dist-info/METADATA").decode())
        stamped = archive.read("dpcore/__init__.py").decode()
    assert meta["Version"] == dpcore.__version__
    assert f'\n__version__ = "{dpcore.__version__}"\n' in stamped
    # The wheel ships exactly the files the build id covers: the shipped data and its
    # provenance among them; the dashboard is not in it.
    assert {n for n in names if ".dist-info/" not in n} == set(wheel.shipped_files(REPO_ROOT))
    for data in ("population_age_2020.csv", "calibration_study.csv", "README.md"):
        assert f"dpcore/data/{data}" in names
    assert not any(n.startswith(("ui/", "views/", "app.py", "tests/", "dpcode/")) for n in names)
    # Its requirements: only what the dashboard has too (requirements.txt), and without an
    # extra only numpy, scipy and pandas.
    required = meta.get_all("Requires-Dist")
    base = requirement_names(r for r in required if "extra ==" not in r)
    assert base == {"numpy", "scipy", "pandas"}
    dashboard = requirement_names((REPO_ROOT / "requirements.txt").read_text().splitlines())
    assert requirement_names(r for r in required if "extra == \"figures\"" in r) <= dashboard

    env = tmp_path / "venv"
    # No pip seeded (10 s): this process's pip installs into it (--python), without
    # compiling bytecode ahead (30 s; Python compiles what it imports).
    venv.EnvBuilder(with_pip=False, clear=True).create(env)
    python = env / "bin" / "python"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    pip = (Path(sys.executable), "-m", "pip", "--python", str(python), "install", "-q",
           "--no-compile", "--only-binary", ":all:")
    run(*pip, str(built), cwd=elsewhere)
    got = json.loads(run(python, "-c", HAS + CHECK, cwd=elsewhere).stdout)
    assert Path(got["file"]).is_relative_to(env)  # the installed copy, not the source tree
    assert got["version"] == dpcore.__version__  # the build, stamped: as the source tree says
    assert got["rows"] == len(datasets.load_population())
    assert got["korea_total"] == int(datasets.age_histogram("korea").sum())
    assert got["delta"] == float(gaussian.gaussian_delta(1.0, 0.5))
    assert got["draw"] == datasets.draw_histogram([0.2, 0.3, 0.5], 1000, rng=7).tolist()
    assert np.sum(got["draw"]) == 1000
    assert not got["streamlit"] and not got["plotly"]
    helped = run(python, "-m", "dpcore.study", "--help", cwd=elsewhere).stdout
    assert "usage:" in helped

    # The extra "figures" adds Plotly, and the figure builders draw.
    run(*pip, f"{built}[figures]", cwd=elsewhere)
    assert run(python, "-c", FIGURE, cwd=elsewhere).stdout.split()[0] == "Figure"
