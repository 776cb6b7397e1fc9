"""dpcore.validation: each validator names the parameter when it refuses, and normalises
what it accepts."""

from __future__ import annotations

import numpy as np
import pytest

from dpcore import validation as v

REFUSED = [
    (lambda: v.positive_scalar(0, "sigma"), "sigma"),
    (lambda: v.positive_scalar("x", "sigma"), "sigma"),
    (lambda: v.positive_scalar(np.inf, "sigma"), "sigma"),
    (lambda: v.finite_scalar(True, "lo"), "lo"),
    (lambda: v.finite_scalar("3", "lo"), "lo"),
    (lambda: v.finite_scalar(np.nan, "lo"), "lo"),
    (lambda: v.nonnegative_scalar(-1e-9, "eps"), "eps"),
    (lambda: v.nonnegative_scalar(None, "eps"), "eps"),
    (lambda: v.positive_integer(0, "reps"), "reps"),
    (lambda: v.positive_integer(2.0, "reps"), "reps"),
    (lambda: v.positive_integer(True, "reps"), "reps"),
    (lambda: v.positive_integer(11, "reps", maximum=10), "reps"),
    (lambda: v.category_count(1, "k", maximum=10), "k"),
    (lambda: v.category_count(11, "k", maximum=10), "k"),
    (lambda: v.integer_in_range(2.5, "n", minimum=0, maximum=10), "n"),
    (lambda: v.integer_in_range(np.bool_(True), "n", minimum=0, maximum=10), "n"),
    (lambda: v.integer_in_range(-1, "n", minimum=0, maximum=10), "n"),
    (lambda: v.probability(0.0, "level"), "level"),
    (lambda: v.probability(1.0, "level"), "level"),
    (lambda: v.probability(np.nan, "level"), "level"),
    (lambda: v.probability("x", "level"), "level"),
    (lambda: v.probability([0.1, 0.2], "level"), "level"),
    (lambda: v.probability(1.5, "delta", closed=True), "delta"),
    (lambda: v.one_of("t", "test", ("bootstrap", "chisq")), "test"),
    (lambda: v.one_of(["x"], "shape", {"uniform": "Uniform"}), "shape"),
    (lambda: v.positive_range((10, 10), "n_range"), "n_range"),
    (lambda: v.positive_range(5, "n_range"), "n_range"),
    (lambda: v.positive_range((0, 10), "n_range"), "n_range"),
    (lambda: v.sample_sizes(0, maximum=10), "n"),
    (lambda: v.sample_sizes((1, 2, 3), maximum=10), "n"),
    (lambda: v.sample_sizes(2.5, maximum=10), "n"),
    (lambda: v.sample_sizes(11, "size", maximum=10), "size"),
    (lambda: v.finite_array([1.0, np.nan], "true_value"), "true_value"),
    (lambda: v.finite_array(["a"], "true_value"), "true_value"),
    (lambda: v.finite_array([1.0, 0.0], "sigma", sign="positive"), "sigma"),
    (lambda: v.finite_array([-1.0], "eps", sign="nonnegative"), "eps"),
    (lambda: v.probability_array([0.5, 1.0], "delta"), "delta"),
    (lambda: v.probability_array([0.5, 1.1], "alpha", closed=True), "alpha"),
    (lambda: v.real_vector([[1.0]], "values"), "values"),
    (lambda: v.real_vector(["a"], "values"), "values"),
    (lambda: v.count_array(3, "counts"), "counts"),
    (lambda: v.count_array([1, -1], "counts"), "counts"),
    (lambda: v.count_array([1, np.nan], "counts"), "counts"),
    (lambda: v.count_array([1], "counts", min_bins=2), "counts"),
    (lambda: v.whole_count_array([1.5, 2], "counts"), "counts"),
    (lambda: v.category_indices([0, 3], "values", 3), "values"),
    (lambda: v.category_indices([0.5], "values", 3), "values"),
    (lambda: v.category_indices([-1], "values", 3), "values"),
    (lambda: v.category_indices([object()], "values", 3), "values"),
    (lambda: v.same_shape(np.zeros(2), np.zeros(3), "x1", "x2"), "x1"),
    (lambda: v.probabilities([1.0], "p"), "p"),
    (lambda: v.probabilities([[0.5, 0.5]], "p"), "p"),
    (lambda: v.probabilities([0.5, 0.6], "p"), "p"),
    (lambda: v.probabilities([1.5, -0.5], "p"), "p"),
    (lambda: v.probabilities(["a", "b"], "p"), "p"),
    (lambda: v.probability_pair([0.5, 0.5], [0.2, 0.3, 0.5]), "p1"),
    (lambda: v.probability_pair([0.5, 0.5], [0.5, 0.6]), "p2"),
    (lambda: v.probability_pair([0.5, 0.5], [1.0], names=("p", "q")), "q"),
]


@pytest.mark.parametrize("call, name", REFUSED)
def test_a_refusal_names_the_parameter(call, name):
    with pytest.raises(ValueError, match=f"`{name}`"):
        call()


def test_every_public_validator_is_tried():
    tried = {code for call, _ in REFUSED for code in call.__code__.co_names}
    assert set(v.__all__) <= tried


def test_scalars_pass_through_normalised():
    assert v.positive_scalar("2.5", "x") == 2.5 and type(v.positive_scalar(3, "x")) is float
    assert v.finite_scalar(np.float32(-1.5), "x") == -1.5
    assert type(v.finite_scalar(2, "x")) is float
    assert v.nonnegative_scalar(0, "x") == 0.0
    assert v.positive_integer(np.int64(7), "x", maximum=7) == 7
    assert type(v.positive_integer(np.int64(7), "x")) is int
    assert v.category_count(2, "k", maximum=2) == 2
    assert v.integer_in_range(4.0, "n", minimum=0, maximum=10) == 4
    assert type(v.integer_in_range(4.0, "n", minimum=0, maximum=10)) is int
    assert v.probability(np.float64(0.05), "level") == 0.05
    assert type(v.probability(np.float64(0.05), "level")) is float
    assert v.probability(0, "delta", closed=True) == 0.0
    assert v.probability(1, "delta", closed=True) == 1.0
    assert v.one_of("chisq", "test", ("bootstrap", "chisq")) == "chisq"
    assert v.one_of("usa", "population", {"usa": "USA"}) == "usa"
    assert v.positive_range([1, 10], "r") == (1.0, 10.0)


def test_arrays_pass_through_normalised():
    np.testing.assert_array_equal(v.sample_sizes(5, maximum=10), [5, 5])
    assert v.sample_sizes([3, np.int64(4)], maximum=10).dtype == np.int64
    assert v.finite_array(2, "x").dtype == float and v.finite_array(2, "x").ndim == 0
    np.testing.assert_array_equal(v.finite_array([0, 1], "x", sign="nonnegative"), [0.0, 1.0])
    np.testing.assert_array_equal(v.probability_array([0, 1], "a", closed=True), [0.0, 1.0])
    np.testing.assert_array_equal(v.real_vector((1, np.nan), "x")[:1], [1.0])
    counts = v.count_array([[1, 2], [3, 4]], "x", min_bins=2)
    assert counts.dtype == float and counts.shape == (2, 2)
    whole = v.whole_count_array([1.0, 2.0], "x")
    assert whole.dtype == np.int64 and whole.tolist() == [1, 2]
    np.testing.assert_array_equal(v.category_indices([0.0, 2.0], "values", 3), [0, 2])
    assert v.category_indices([], "values", 3).dtype == np.int64
    v.same_shape(np.zeros(3), np.ones(3), "a", "b")
    p = np.array([0.25, 0.75]) * (1 + 5e-9)
    assert v.probabilities(p, "p").sum() == pytest.approx(1.0, abs=1e-15)
    a, b = v.probability_pair([0.5, 0.5], (0.25, 0.75))
    assert a.tolist() == [0.5, 0.5] and b.tolist() == [0.25, 0.75]


def test_no_dpcore_module_uses_another_modules_private_helpers():
    import ast
    from pathlib import Path

    import dpcore

    offences = []
    for path in sorted(Path(dpcore.__file__).parent.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        modules = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("dpcore"):
                offences += [f"{path.name}: from {node.module} import {a.name}"
                             for a in node.names if a.name.startswith("_")]
                if node.module == "dpcore":
                    modules |= {a.asname or a.name for a in node.names}
                elif node.module.startswith("dpcore."):
                    offences += [] if not node.module.split(".")[1].startswith("_") else [
                        f"{path.name}: imports the private module {node.module}"]
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in modules and node.attr.startswith("_")):
                offences.append(f"{path.name}: {node.value.id}.{node.attr}")
    assert not offences, offences
