"""dpcore's API reference: every public function and class has a NumPy-style docstring with
its parameters, what it returns, its source and an example (the examples run as doctests:
pyproject.toml), and the documented command builds the HTML reference with pdoc."""

from __future__ import annotations

import importlib
import inspect
import re
import subprocess
import sys

import pytest

import dpcore
from conftest import REPO_ROOT

#: The reference keys of docs/references.md, as docstrings cite them.
KEYS = set(re.findall(r"^\| (\[[A-Za-z0-9]+\]) \|",
                      (REPO_ROOT / "docs" / "references.md").read_text(encoding="utf-8"),
                      flags=re.MULTILINE))


def public_names():
    for module_name in dpcore.__all__:
        module = importlib.import_module(f"dpcore.{module_name}")
        names = getattr(module, "__all__", None) or [
            n for n, v in vars(module).items() if not n.startswith("_")
            and (inspect.isfunction(v) or inspect.isclass(v))
            and getattr(v, "__module__", "") == module.__name__]
        for name in names:
            obj = getattr(module, name)
            if inspect.isfunction(obj) or inspect.isclass(obj):
                yield pytest.param(obj, id=f"{module_name}.{name}")


def sections(doc: str) -> set[str]:
    """The numpydoc section titles of a docstring (a title underlined with dashes)."""
    lines = doc.splitlines()
    return {lines[i].strip() for i in range(len(lines) - 1)
            if lines[i].strip() and set(lines[i + 1].strip()) == {"-"}}


def test_the_reference_keys_are_read():
    assert {"[SPJ22]", "[DRS22]", "[GMN25]", "[KLH09]", "[KBR16]"} <= KEYS


@pytest.mark.parametrize("obj", list(public_names()))
def test_every_public_name_has_a_numpy_docstring(obj):
    doc = inspect.getdoc(obj) or ""
    found = sections(doc)
    assert "Examples" in found and ">>> " in doc, "no example"
    if inspect.isfunction(obj):
        params = [p for p in inspect.signature(obj).parameters.values()
                  if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
        if params:
            assert "Parameters" in found
            listed = doc.split("Parameters", 1)[1]
            for p in params:
                assert re.search(rf"^\s*\**{re.escape(p.name)}\b", listed, re.MULTILINE), p.name
        assert found & {"Returns", "Yields"}, "no Returns"
    else:
        assert found & {"Attributes", "Parameters", "Methods"}, "no Attributes"
    # Where it comes from: a source's key, or a plain statement that it is this project's
    # (input checking, the data, a construction beyond the sources).
    assert any(key in doc for key in KEYS) or re.search(
        r"\bSource\b|\bthis project\b|beyond", doc), "no source"


def test_the_docs_command_builds_the_reference(tmp_path):
    out = tmp_path / "docs"
    done = subprocess.run(["bash", "scripts/docs.sh", str(out)], cwd=REPO_ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    for module_name in dpcore.__all__:
        page = (out / "dpcore" / f"{module_name}.html").read_text(encoding="utf-8")
        module = importlib.import_module(f"dpcore.{module_name}")
        for name in getattr(module, "__all__", []):
            assert f'id="{name}"' in page, (module_name, name)
    assert (out / "dpviz.html").exists()


def test_the_readme_example_runs_and_prints_what_the_compare_page_shows(tmp_path):
    """The README's example of dpcore (section "Use dpcore in Python") runs as it is, and
    prints the three p-values of the compare page at its defaults."""
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Use dpcore in Python", 1)[1].split("\n## ", 1)[0]
    [example] = re.findall(r"```python\n(.*?)```", section, flags=re.DOTALL)
    done = subprocess.run([sys.executable, "-c", example], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300, env={"PYTHONPATH": str(REPO_ROOT)})
    assert done.returncode == 0, done.stderr
    import dpcode
    from dpcore import datasets, homogeneity
    printed = dpcode.read_printed(done.stdout)
    a = datasets.proportions(datasets.age_histogram("korea_central", 5).to_numpy())
    b = datasets.proportions(datasets.age_histogram("korea_noncentral", 5).to_numpy())
    result = homogeneity.sample_and_test(a, b, 10_000, 10_000, 0.1, 0.1, n_boot=1000,
                                         rng=2022)
    assert printed == {"naive χ² p-value": result.naive.pvalue,
                       "Algorithm 1 p-value": result.bootstrap.pvalue,
                       "normal-score p-value": result.normal_score.pvalue}
