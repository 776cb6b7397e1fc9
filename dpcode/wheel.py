"""The dpcore wheel the dashboard runs, handed over with a view's code (no Streamlit).

A view's script needs ``dpcore`` and ``dpviz`` exactly as the dashboard ran them, and no
distribution of that name on a package index is ours: the Code popover offers the wheel
built from the running source tree (``pyproject.toml``: ``dpcore/`` and ``dpviz/``), and the
script says to install that file. Its version is the release with the build id as a PEP 440
local version, ``0.22.0+b<10 hex>`` (:func:`dpcore._build_id`: a sha256 over the shipped
files), stamped into the wheel's ``dpcore/__init__.py``; so the installed package, and the
source tree it was built from, report the same ``dpcore.__version__``, which the script
compares with the version it records (``GENERATED_WITH``).

The wheel is built on request (the download's click), once per process and build id, with
setuptools in a subprocess, from a copy of the files in a temporary folder (no network:
``setuptools`` and ``wheel`` are in requirements.txt).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import dpcore

__all__ = ["ROOT", "build_id", "build_version", "wheel_name", "install_command", "build_wheel",
           "wheel_bytes", "shipped_files"]

#: The source tree the dashboard runs from.
ROOT = Path(__file__).resolve().parents[1]

# What the build reads besides the shipped files (pyproject.toml: the long description).
_BUILD_INPUTS = ("pyproject.toml", "README.md")
_RELEASE_LINE = re.compile(r'^__version__ = "([^"+]+)"$', re.MULTILINE)
_EPOCH = "315532800"  # 1980-01-01, the earliest time a zip file holds
_BUILD = ("import sys; from setuptools import build_meta; "
          "print(build_meta.build_wheel(sys.argv[1]))")

_lock = threading.Lock()  # guards _ids and _wheels
_building = threading.Lock()  # one build at a time: a second click waits for the first's
_ids: dict[tuple, str] = {}  # the files' (path, mtime, size) -> build version
_wheels: dict[str, bytes] = {}  # build version -> the wheel's bytes


def shipped_files(root: Path = ROOT) -> list[str]:
    """The package files the wheel ships, as sorted paths relative to ``root`` (the files
    the build id covers, with ``pyproject.toml``)."""
    return dpcore._shipped(root)


def _release(root: Path) -> str:
    found = _RELEASE_LINE.findall((root / "dpcore" / "__init__.py").read_text(encoding="utf-8"))
    if len(found) != 1:
        raise RuntimeError("dpcore/__init__.py has no single release line __version__ = \"…\"")
    return found[0]


def build_version(root: Path = ROOT) -> str:
    """The version of the wheel built from ``root`` now: ``<release>+<build id>``. Computed
    again only when a file's modification time or size changed (a page's run costs a
    ``stat`` of each file)."""
    names = [*shipped_files(root), "pyproject.toml"]
    key = (str(root), *((n, s.st_mtime_ns, s.st_size) for n in names
                        for s in [(root / n).stat()]))
    with _lock:
        if key not in _ids:
            _ids[key] = f"{_release(root)}+{dpcore._build_id(root)}"
        return _ids[key]


def build_id(root: Path = ROOT) -> str:
    """The build id of the source tree at ``root`` (``b`` and 10 hex digits)."""
    return build_version(root).partition("+")[2]


def wheel_name(version: str) -> str:
    """The wheel's file name for ``version``, as pip requires it to be named."""
    return f"dpcore-{version}-py3-none-any.whl"


def install_command(version: str) -> str:
    """The command that installs the wheel of ``version`` saved in the current folder, with
    the figures (dpviz and Plotly); its dependencies come from the package index."""
    return f'pip install "./{wheel_name(version)}[figures]"'


def build_wheel(out_dir: Path, root: Path = ROOT) -> Path:
    """Build the wheel of the source tree ``root`` into ``out_dir``; returns its path.

    The files are copied to a temporary folder first (one snapshot: the build id is computed
    from the copies, and the source tree gets no build/ or egg-info), the release line of the
    copy's ``dpcore/__init__.py`` is stamped with it, and setuptools builds in a subprocess.
    """
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="dpcore-wheel-") as tmp:
        src = Path(tmp) / "src"
        for name in [*shipped_files(root), *_BUILD_INPUTS]:
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(root / name, src / name)
        version = f"{_release(src)}+{dpcore._build_id(src)}"
        init = src / "dpcore" / "__init__.py"
        init.write_text(_RELEASE_LINE.sub(f'__version__ = "{version}"',
                                          init.read_text(encoding="utf-8"), count=1),
                        encoding="utf-8")
        # The zip's timestamps fixed: one build id, one file, byte for byte.
        env = {**os.environ, "SOURCE_DATE_EPOCH": _EPOCH}
        done = subprocess.run([sys.executable, "-c", _BUILD, str(Path(tmp) / "dist")],
                              cwd=src, env=env, capture_output=True, text=True, timeout=300,
                              check=False)
        if done.returncode != 0:
            raise RuntimeError(f"building the dpcore wheel failed:\n{done.stdout}\n{done.stderr}")
        built = Path(tmp) / "dist" / done.stdout.strip().splitlines()[-1]
        if built.name != wheel_name(version):
            raise RuntimeError(f"setuptools named the wheel {built.name}, not "
                               f"{wheel_name(version)}")
        return Path(shutil.copy2(built, out_dir / built.name))


def wheel_bytes(version: str | None = None, root: Path = ROOT) -> bytes:
    """The wheel of the source tree ``root``, built once per process and build version.
    ``version``: the version the caller named the file by (a page's run); when the tree has
    changed since, the build has another version and this refuses rather than hand over a
    file whose name and content disagree."""
    version = version or build_version(root)
    with _building:
        with _lock:
            if version in _wheels:
                return _wheels[version]
        with tempfile.TemporaryDirectory(prefix="dpcore-dist-") as out:
            path = build_wheel(Path(out), root)
            data = path.read_bytes()
        if path.name != wheel_name(version):
            raise RuntimeError(f"the source tree changed since this page ran (now {path.name}, "
                               f"not {wheel_name(version)}): reload the page")
        with _lock:
            return _wheels.setdefault(version, data)
