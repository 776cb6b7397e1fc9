"""dpcore: the computations behind the differential-privacy dashboard.

Pure numerical code (numpy, scipy, pandas): no user interface and no sentences
for the screen. Sources are cited by the keys of ``docs/references.md``. One
module per topic:

- :mod:`dpcore.attack`       -- the class's "be the attacker" game: rounds, tallies, exact
  intervals and whether a student beats the trade-off curve ([DRS22])
- :mod:`dpcore.audit`        -- the attacker's threshold tests and simulated
  outputs of a mechanism on two neighbouring inputs ([DRS22], trade-off curves)
- :mod:`dpcore.datasets`     -- the shipped 2020 population tables, the shapes of
  [SPJ22] section 2.3, binning
- :mod:`dpcore.errors`       -- the errors of refused arguments, which keep their message's
  template and fields (a caller can say them in another language)
- :mod:`dpcore.fdp`          -- trade-off functions, f-DP and μ-GDP, their
  conversions, composition and group privacy ([DRS22])
- :mod:`dpcore.gaussian`     -- the Gaussian mechanism: σ for (ε, δ) by the tail bound
  ([GMN25]), the exact δ(ε) ([BW18]) and the classical formula ([DR14])
- :mod:`dpcore.histogram`    -- the truncated Laplace histogram mechanism, [SPJ22] eq. (2.4)
- :mod:`dpcore.homogeneity`  -- the chi-square and parametric bootstrap tests of two
  private histograms, [SPJ22] eqs. (2.3), (4.1)-(4.3) and Algorithm 1
- :mod:`dpcore.ldp`          -- k-ary randomized response and its estimators ([KBR16])
- :mod:`dpcore.planner`      -- the N or α a test needs to reach a target power
  ([SPJ22] section 5, built on Algorithm 2)
- :mod:`dpcore.risk`         -- what a release means for one person: the attacker's
  posterior odds, best guess and power under ε, (ε, δ), μ-GDP and the Laplace mechanism
- :mod:`dpcore.simulation`   -- type-I error and power by Monte Carlo, [SPJ22]
  Algorithm 2 (REJECTRATE) and Figures 2-3, 9-12
- :mod:`dpcore.study`        -- the [SPJ22] calibration grid run cell by cell on Dask
- :mod:`dpcore.substitution` -- random substitution and l-extended random substitution
  ([KLH09]), exact errors and privacy
- :mod:`dpcore.uploads`      -- uploaded CSV files read safely (counts, values, answers)
- :mod:`dpcore.validation`   -- the argument checks every module uses (each names the
  parameter it refuses)
"""

#: The release of the distribution "dpcore" (pyproject.toml reads this line). The wheel the
#: dashboard hands over with a view's code (dpcode/wheel.py) is stamped here with its build:
#: "0.22.0+b<id>". Run from a source tree, the package computes the same build id from its
#: files below, so a script records, and finds, one version either way.
__version__ = "0.22.0"


def _shipped(root) -> list[str]:
    """The files of the source tree at ``root`` that its wheel ships (pyproject.toml's
    packages and package-data: dpcore's and dpviz's modules, dpcore's data), as sorted paths
    relative to ``root``."""
    from pathlib import Path  # noqa: PLC0415 - only a source tree needs it

    root = Path(root)
    patterns = ("dpcore/*.py", "dpviz/*.py", "dpcore/data/*.csv", "dpcore/data/*.md")
    return sorted({p.relative_to(root).as_posix() for pattern in patterns
                   for p in root.glob(pattern) if p.is_file()})


def _build_id(root) -> str:
    """The build id of the source tree at ``root``: "b" and the first 10 hex digits of the
    sha256 over its shipped files (:func:`_shipped`) and ``pyproject.toml``, each as its
    relative path, its length and its bytes, in path order. (The "b" keeps it a PEP 440
    local version label as written: an all-digit one would be normalized.)"""
    import hashlib  # noqa: PLC0415 - only a source tree needs them
    from pathlib import Path  # noqa: PLC0415

    digest = hashlib.sha256()
    for name in sorted([*_shipped(root), "pyproject.toml"]):
        data = (Path(root) / name).read_bytes()
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
    return "b" + digest.hexdigest()[:10]


def _source_tree():
    """The source tree this package runs from (``pyproject.toml`` beside it), else None
    (an installed wheel)."""
    from pathlib import Path  # noqa: PLC0415

    try:
        root = Path(__file__).resolve().parent.parent
        return root if (root / "pyproject.toml").is_file() and (root / "dpviz").is_dir() else None
    except OSError:
        return None


if "+" not in __version__ and (_root := _source_tree()) is not None:
    __version__ = f"{__version__}+{_build_id(_root)}"

__all__ = [
    "attack",
    "audit",
    "datasets",
    "errors",
    "fdp",
    "gaussian",
    "histogram",
    "homogeneity",
    "ldp",
    "planner",
    "risk",
    "simulation",
    "study",
    "substitution",
    "uploads",
    "validation",
]
