"""Tests of dpcore.datasets.

Expected values come from sources independent of the code under test: the
totals published in dpcore/data/README.md, the CSV read with the csv module,
the formulas of Son, Park & Jung (2022) section 2.3 computed with math, and
hand-counted bins.
"""

import csv
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpcore import datasets
from dpcore.datasets import (
    AGE_WIDTHS,
    POPULATIONS,
    SHAPES,
    age_bin_index,
    age_bin_labels,
    age_histogram,
    regroup_ages,
    bin_values,
    draw_histogram,
    load_population,
    proportions,
    shape_probabilities,
)

DATA_CSV = Path(__file__).resolve().parents[1] / "dpcore" / "data" / "population_age_2020.csv"

# Column totals as published in dpcore/data/README.md.
README_TOTALS = {
    "usa": 332_599_000,
    "korea": 51_829_023,
    "korea_central": 26_038_307,
    "korea_noncentral": 25_790_716,
}

EN = "\u2013"


def _raw_rows():
    """The shipped CSV read with the csv module: {column: [count by age 0..85]}."""
    with DATA_CSV.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert [int(r["age"]) for r in rows] == list(range(86))
    return {key: [int(r[key]) for r in rows] for key in README_TOTALS}


def _phi(x):
    return math.exp(-x * x / 2) / math.sqrt(2 * math.pi)


# ---------------------------------------------------------------------------
# constants and the population table
# ---------------------------------------------------------------------------

def test_constants():
    assert list(POPULATIONS) == ["usa", "korea", "korea_central", "korea_noncentral"]
    assert POPULATIONS["korea_central"] == "Korea central (Seoul, Incheon, Gyeonggi)"
    assert SHAPES == {"uniform": "Uniform", "increasing": "Increasing", "normal": "Normal"}
    assert AGE_WIDTHS == (1, 5, 10)


def test_load_population_matches_readme_and_csv():
    table = load_population()
    assert list(table.index) == list(range(86))
    assert list(table.columns) == list(POPULATIONS)
    assert all(dtype == np.int64 for dtype in table.dtypes)
    for key, total in README_TOTALS.items():
        assert int(table[key].sum()) == total
    raw = _raw_rows()
    for key in README_TOTALS:
        assert table[key].tolist() == raw[key]
    np.testing.assert_array_equal(table["korea"],
                                  table["korea_central"] + table["korea_noncentral"])


def test_load_population_returns_a_copy():
    table = load_population()
    table.loc[0, "usa"] = -1
    table["extra"] = 0
    fresh = load_population()
    assert int(fresh.loc[0, "usa"]) == _raw_rows()["usa"][0]
    assert "extra" not in fresh.columns


# ---------------------------------------------------------------------------
# age bins
# ---------------------------------------------------------------------------

def test_age_bin_labels():
    one, five, ten = age_bin_labels(1), age_bin_labels(5), age_bin_labels(10)
    assert (len(one), len(five), len(ten)) == (86, 18, 9)
    assert one[:3] == ["0", "1", "2"] and one[-2:] == ["84", "85+"]
    assert five[:2] == [f"0{EN}4", f"5{EN}9"] and five[-2:] == [f"80{EN}84", "85+"]
    assert ten[0] == f"0{EN}9" and ten[-2:] == [f"70{EN}79", "80+"]


@pytest.mark.parametrize("width", [0, 2, 5.5, "5", None, True])
def test_age_bin_labels_rejects_width(width):
    with pytest.raises(ValueError, match="`width` must be 1, 5 or 10"):
        age_bin_labels(width)


def test_age_bin_index():
    ages = [0, 0.5, 4.999, 5, 79.9, 80, 84.99, 85, 90, 120]
    assert age_bin_index(ages, 1).tolist() == [0, 0, 4, 5, 79, 80, 84, 85, 85, 85]
    assert age_bin_index(ages, 5).tolist() == [0, 0, 0, 1, 15, 16, 16, 17, 17, 17]
    assert age_bin_index(ages, 10).tolist() == [0, 0, 0, 0, 7, 8, 8, 8, 8, 8]
    assert age_bin_index(np.array([3, 47]), 10).dtype == np.int64


@pytest.mark.parametrize("ages", [[1, -0.5], [np.nan], [np.inf], ["a"]])
def test_age_bin_index_rejects_ages(ages):
    with pytest.raises(ValueError, match="`ages`"):
        age_bin_index(ages, 5)


@pytest.mark.parametrize("population", list(README_TOTALS))
@pytest.mark.parametrize("width,bins", [(1, 86), (5, 18), (10, 9)])
def test_age_histogram_preserves_totals(population, width, bins):
    hist = age_histogram(population, width)
    assert len(hist) == bins
    assert hist.dtype == np.int64
    assert hist.name == population
    assert list(hist.index) == age_bin_labels(width)
    assert int(hist.sum()) == README_TOTALS[population]


def test_age_histogram_hand_sums():
    raw = _raw_rows()
    five = age_histogram("korea", 5)
    assert five[f"0{EN}4"] == sum(raw["korea"][0:5])
    assert five[f"80{EN}84"] == sum(raw["korea"][80:85])
    assert five["85+"] == raw["korea"][85]
    ten = age_histogram("usa", 10)
    assert ten[f"20{EN}29"] == sum(raw["usa"][20:30])
    assert ten["80+"] == sum(raw["usa"][80:86])
    assert age_histogram("korea_central").tolist() == raw["korea_central"]
    np.testing.assert_array_equal(
        age_histogram("korea", 10),
        age_histogram("korea_central", 10) + age_histogram("korea_noncentral", 10),
    )


def test_age_histogram_rejects_arguments():
    with pytest.raises(ValueError, match="`population` must be one of.*korea_noncentral"):
        age_histogram("japan")
    with pytest.raises(ValueError, match="`width`"):
        age_histogram("usa", 3)


# ---------------------------------------------------------------------------
# shapes
# ---------------------------------------------------------------------------

def test_shape_uniform():
    np.testing.assert_allclose(shape_probabilities("uniform", 20), np.full(20, 0.05), rtol=1e-15)


def test_shape_increasing():
    np.testing.assert_allclose(shape_probabilities("increasing", 4), [0.1, 0.2, 0.3, 0.4],
                               rtol=1e-14)
    p = shape_probabilities("increasing", 100)
    assert np.all(np.diff(p) > 0)
    assert p[0] == pytest.approx(1 / 5050) and p[-1] == pytest.approx(100 / 5050)


def test_shape_normal():
    weights = [_phi(-3), _phi(0), _phi(3)]
    np.testing.assert_allclose(shape_probabilities("normal", 3),
                               np.array(weights) / sum(weights), rtol=1e-12)
    m = 20
    weights = [_phi(-3 + 6 * (j - 1) / (m - 1)) for j in range(1, m + 1)]
    p = shape_probabilities("normal", m)
    np.testing.assert_allclose(p, np.array(weights) / sum(weights), rtol=1e-12)
    np.testing.assert_allclose(p, p[::-1], rtol=1e-12)
    assert np.all(np.diff(p[: m // 2]) > 0)
    np.testing.assert_allclose(shape_probabilities("normal", 2), [0.5, 0.5], rtol=1e-15)


@pytest.mark.parametrize("shape", list(SHAPES))
@pytest.mark.parametrize("m", [2, 20, 100, 100_000])
def test_shapes_sum_to_one(shape, m):
    p = shape_probabilities(shape, m)
    assert p.shape == (m,)
    assert np.all(p > 0)
    assert p.sum() == pytest.approx(1, abs=1e-12)


def test_shape_rejects_arguments():
    with pytest.raises(ValueError, match="`shape` must be one of"):
        shape_probabilities("skewed", 10)
    for m in [1, 0, 100_001, 2.5, "10", None, True]:
        with pytest.raises(ValueError, match="`m`"):
            shape_probabilities("uniform", m)


# ---------------------------------------------------------------------------
# bin_values
# ---------------------------------------------------------------------------

def test_bin_values_age_widths():
    ages = [0, 3, 4.5, 5, 17, 84, 85, 90, 120]
    five = bin_values(ages, width=5)
    assert five.dtype == np.int64 and len(five) == 18
    # by hand: 0, 3, 4.5 -> "0–4"; 5 -> "5–9"; 17 -> "15–19"; 84 -> "80–84";
    # 85, 90, 120 -> "85+"
    expected = [3, 1, 0, 1] + [0] * 12 + [1, 3]
    assert five.tolist() == expected
    one = bin_values(ages, width=1)
    assert len(one) == 86 and one[85] == 3 and one.sum() == len(ages)
    ten = bin_values(ages, width=10)
    assert len(ten) == 9 and ten.tolist() == [4, 1, 0, 0, 0, 0, 0, 0, 4]  # 84 is in "80+"


def test_bin_values_equal_width():
    assert bin_values([0, 1, 2, 3, 4], m=2).tolist() == [2, 3]  # edges 0, 2, 4
    assert bin_values([0, 1, 2, 3, 4], m=4, lo=0, hi=8).tolist() == [2, 2, 1, 0]
    values = np.random.default_rng(1).normal(size=500)
    counts = bin_values(values, m=17)
    np.testing.assert_array_equal(counts, np.histogram(values, bins=17)[0])
    assert counts.sum() == 500 and counts.dtype == np.int64
    counts = bin_values(values, m=10, lo=-1, hi=1)
    np.testing.assert_array_equal(counts, np.histogram(values, bins=10, range=(-1, 1))[0])
    assert counts.sum() == np.sum(np.abs(values) <= 1)


@pytest.mark.parametrize(
    "kwargs,param",
    [
        ({}, "width"),
        ({"width": 5, "m": 3}, "width"),
        ({"width": 7}, "width"),
        ({"width": 5, "lo": 0}, "lo"),
        ({"m": 1}, "m"),
        ({"m": 4, "lo": 3, "hi": 3}, "lo"),
        ({"m": 4, "hi": np.nan}, "hi"),
    ],
)
def test_bin_values_rejects_arguments(kwargs, param):
    with pytest.raises(ValueError, match=f"`{param}`"):
        bin_values([1.0, 2.0, 3.0], **kwargs)


@pytest.mark.parametrize("values", [[], [1, np.nan], [[1, 2]], ["x"]])
def test_bin_values_rejects_values(values):
    with pytest.raises(ValueError, match="`values`"):
        bin_values(values, m=3)


def test_bin_values_all_equal_needs_range():
    with pytest.raises(ValueError, match="`lo` must be less than `hi`"):
        bin_values([2.0, 2.0], m=3)
    assert bin_values([2.0, 2.0], m=2, lo=0, hi=4).tolist() == [0, 2]


# ---------------------------------------------------------------------------
# draw_histogram and proportions
# ---------------------------------------------------------------------------

def test_draw_histogram_sum_and_seed():
    p = shape_probabilities("normal", 20)
    a = draw_histogram(p, 5050, rng=42)
    assert a.dtype == np.int64 and a.shape == (20,) and a.sum() == 5050
    np.testing.assert_array_equal(a, draw_histogram(p, 5050, rng=42))
    assert draw_histogram(p, 0, rng=1).tolist() == [0] * 20
    assert draw_histogram([0.5, 0.5], 10**12, rng=np.random.default_rng(3)).sum() == 10**12


def test_draw_histogram_mean():
    rng = np.random.default_rng(20220101)
    p = np.array([0.1, 0.2, 0.3, 0.4])
    n, reps = 1000, 2000
    draws = np.array([draw_histogram(p, n, rng=rng) for _ in range(reps)])
    standard_error = np.sqrt(n * p * (1 - p) / reps)
    assert np.all(np.abs(draws.mean(axis=0) - n * p) < 5 * standard_error)


def test_draw_histogram_renormalises():
    p = np.array([0.25, 0.75]) * (1 + 5e-9)
    assert draw_histogram(p, 100, rng=0).sum() == 100


@pytest.mark.parametrize(
    "p,n,param",
    [
        ([1.0], 10, "p"),
        ([[0.5, 0.5]], 10, "p"),
        ([0.5, 0.6], 10, "p"),
        ([1.5, -0.5], 10, "p"),
        ([0.5, np.nan], 10, "p"),
        ([0.5, 0.5], -1, "n"),
        ([0.5, 0.5], 2.5, "n"),
        ([0.5, 0.5], 10**12 + 1, "n"),
    ],
)
def test_draw_histogram_rejects_arguments(p, n, param):
    with pytest.raises(ValueError, match=f"`{param}`"):
        draw_histogram(p, n, rng=0)


def test_proportions():
    np.testing.assert_allclose(proportions([1, 3, 0, 4]), [0.125, 0.375, 0, 0.5], rtol=1e-15)
    for counts in [[0, 0], [1, -1, 2], [1, np.inf]]:
        with pytest.raises(ValueError, match="`counts`"):
            proportions(counts)


@pytest.mark.parametrize("width", [1, 5, 10])
def test_regroup_ages_sums_single_years_into_bins(width):
    by_age = age_histogram("korea", 1).to_numpy()
    np.testing.assert_allclose(regroup_ages(by_age, width),
                               age_histogram("korea", width).to_numpy())
    with pytest.raises(ValueError, match="counts_by_age"):
        regroup_ages(by_age[:-1], width)


@pytest.mark.parametrize("shape", ["uniform", "increasing", "normal"])
@pytest.mark.parametrize("m, n", [(10, 1000), (50, 5000), (100, 50_000), (7, 3), (3, 0)])
def test_shape_counts_round_to_the_shape(shape, m, n):
    counts = datasets.shape_counts(shape, m, n)
    exact = n * datasets.shape_probabilities(shape, m)
    assert counts.dtype == np.int64 and counts.sum() == n
    assert np.all(np.abs(counts - exact) < 1)
    # largest remainder: no other rounding to whole numbers summing to n is closer in max norm
    # than 1, and the floor is never exceeded by more than one record
    assert np.all((counts == np.floor(exact)) | (counts == np.floor(exact) + 1))


def test_shape_counts_uniform_is_exact_when_m_divides_n():
    np.testing.assert_array_equal(datasets.shape_counts("uniform", 50, 5000), np.full(50, 100))
    with pytest.raises(ValueError, match="`n`"):
        datasets.shape_counts("uniform", 5, -1)
