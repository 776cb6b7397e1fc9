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
    UploadError,
    age_bin_index,
    age_bin_labels,
    age_histogram,
    regroup_ages,
    bin_values,
    check_same_length,
    counts_from_column,
    draw_histogram,
    load_population,
    proportions,
    read_csv_upload,
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


# ---------------------------------------------------------------------------
# read_csv_upload: valid files
# ---------------------------------------------------------------------------

def test_upload_one_column_with_header():
    df = read_csv_upload(b"temperature\n12.5\n-3\n7e1\n")
    assert list(df.columns) == ["temperature"]
    assert df["temperature"].dtype == np.float64
    assert df["temperature"].tolist() == [12.5, -3.0, 70.0]
    assert isinstance(df.index, pd.RangeIndex)


def test_upload_two_columns_without_header():
    df = read_csv_upload(b"1,2\r\n3,4\r\n5,6\r\n")
    assert list(df.columns) == ["column 1", "column 2"]
    assert df.to_numpy().tolist() == [[1, 2], [3, 4], [5, 6]]


def test_upload_label_column_and_counts():
    text = f"age,A,B\n0{EN}4,10,12\n5{EN}9,20,18\n85+,5,0\n"
    df = read_csv_upload(text.encode())
    assert list(df.columns) == ["A", "B"]
    assert list(df.index) == [f"0{EN}4", f"5{EN}9", "85+"]
    assert df.index.name == "age"
    assert df["B"].tolist() == [12.0, 18.0, 0.0]


def test_upload_label_column_without_header():
    df = read_csv_upload(f"0{EN}9,1,2\n10+,3,4\n".encode())
    assert list(df.index) == [f"0{EN}9", "10+"]
    assert df.shape == (2, 2)


def test_upload_columns_of_different_lengths():
    df = read_csv_upload(b"x,y\n1,10\n2,20\n3\n4,\n")
    assert df["x"].tolist() == [1, 2, 3, 4]
    assert df["y"].iloc[:2].tolist() == [10, 20]
    assert df["y"].iloc[2:].isna().all()
    assert df["y"].dropna().tolist() == [10, 20]


def test_upload_bom_and_blank_lines():
    df = read_csv_upload(b"\xef\xbb\xbfcount\r\n1\r\n2\r\n\r\n\r\n")
    assert list(df.columns) == ["count"]
    assert df["count"].tolist() == [1, 2]


def test_upload_tab_separated_and_grouped_thousands():
    assert read_csv_upload(b"a\tb\n1\t2\n")["b"].tolist() == [2.0]
    assert read_csv_upload(b'n\n"1,234,567"\n-8\n')["n"].tolist() == [1_234_567.0, -8.0]


# ---------------------------------------------------------------------------
# read_csv_upload: errors
# ---------------------------------------------------------------------------

@pytest.mark.parametrize(
    "data,match",
    [
        (b"", "empty"),
        (b" \n\n", "empty"),
        ("연령,인구\n0,1\n".encode("cp949"), "not UTF-8.*Save it as UTF-8"),
        ("café\n1\n".encode("latin-1"), "not UTF-8.*Save it as UTF-8"),
        (b"x\n1\x00\x02\n", "binary"),
        (b"PK\x03\x04\x14\x00\x06\x00", "Excel"),
        ("x\n1\n".encode("utf-16"), "UTF-16"),
        (b"x,y\n", "no data rows"),
        (b"x\n1\nabc\n", r'Row 3, column "x": "abc" is not a number'),
        (b"1,2\n3,4 apples\n", r'Row 2, column "column 2": "4 apples" is not a number'),
        (b"x\n1\n\n3\n", r'Row 3, column "x".*blank'),
        (b"x,y\n1,2\n,4\n5,6\n", r'Row 3, column "x".*blank'),
        (b"x\n1\ninf\n", r'"inf".*finite'),
        (b"x\n1\nNaN\n", r'"NaN".*finite'),
        (b"x\n-Infinity\n", "finite"),
        (b"x\n2e15\n", r'Row 2, column "x": "2e15" is too large'),
        (b"x\n-1e400\n", "too large"),
    ],
)
def test_upload_errors(data, match):
    with pytest.raises(UploadError, match=match):
        read_csv_upload(data)


def test_upload_error_is_value_error():
    assert issubclass(UploadError, ValueError)


def test_upload_long_bad_text_is_truncated():
    bad = "y" * 50
    with pytest.raises(UploadError) as info:
        read_csv_upload(f"x\n1\n{bad}\n".encode())
    message = str(info.value)
    assert f'"{"y" * 30}…"' in message and "y" * 31 not in message


def test_upload_size_limit():
    data = b"x\n" + b"1\n" * 100
    assert len(read_csv_upload(data, max_bytes=len(data))) == 100
    with pytest.raises(UploadError, match="larger than the limit"):
        read_csv_upload(data, max_bytes=len(data) - 1)


def test_upload_row_and_column_limits():
    assert len(read_csv_upload(b"x\n" + b"1\n" * 5, max_rows=5)) == 5
    with pytest.raises(UploadError, match="data rows"):
        read_csv_upload(b"x\n" + b"1\n" * 6, max_rows=5)
    with pytest.raises(UploadError, match="data rows"):
        read_csv_upload(b"1\n" * 1000, max_rows=5)
    row = ",".join(["1"] * 4).encode()
    assert read_csv_upload(row + b"\n", max_columns=4).shape == (1, 4)
    with pytest.raises(UploadError, match="5 columns; at most 4"):
        read_csv_upload(row + b",1\n", max_columns=4)


def test_upload_mixed_first_column_with_header_is_labels():
    df = read_csv_upload(b"bin,private_A,private_B\n0,1.5,2\n1,3,4\n85+,5,6\n")
    assert list(df.columns) == ["private_A", "private_B"]
    assert (df.dtypes == np.float64).all()
    assert list(df.index) == ["0", "1", "85+"]
    assert all(isinstance(v, str) for v in df.index)
    assert df.index.name == "bin"
    assert df["private_A"].tolist() == [1.5, 3.0, 5.0]
    assert df["private_B"].tolist() == [2.0, 4.0, 6.0]


def test_upload_single_year_download_round_trips():
    # The dashboard's "histograms.csv" for single-year ages: "0".."84", "85+".
    labels = age_bin_labels(1)
    table = pd.DataFrame(
        {"private_A": np.arange(86) * 1.5, "private_B": np.arange(86) + 0.25},
        index=pd.Index(labels, name="bin"),
    )
    df = read_csv_upload(table.to_csv().encode())
    assert list(df.index) == labels
    assert list(df.columns) == ["private_A", "private_B"]
    np.testing.assert_array_equal(df["private_A"].to_numpy(), np.arange(86) * 1.5)
    np.testing.assert_array_equal(df["private_B"].to_numpy(), np.arange(86) + 0.25)


def test_upload_dashboard_histograms_with_five_year_labels():
    labels = age_bin_labels(5)
    assert len(labels) == 18
    columns = ["original_A", "private_A", "debiased_A", "rescaled_A",
               "original_B", "private_B", "debiased_B", "rescaled_B", "p0_hat"]
    rows = [",".join([label] + [f"{10 * i + j + 0.5}" for j in range(len(columns))])
            for i, label in enumerate(labels)]
    text = "bin," + ",".join(columns) + "\n" + "\n".join(rows) + "\n"
    df = read_csv_upload(text.encode())
    assert list(df.index) == labels
    assert df.index.name == "bin"
    assert list(df.columns) == columns
    assert df.shape == (18, 9)
    assert (df.dtypes == np.float64).all()
    assert df["private_A"].tolist() == [10 * i + 1.5 for i in range(18)]
    assert df["p0_hat"].iloc[-1] == 10 * 17 + 8.5


def test_upload_mixed_first_column_and_text_elsewhere_names_the_other_column():
    with pytest.raises(UploadError, match=r'Row 3, column "n": "many" is not a number'):
        read_csv_upload(b"age,n\n84,1\n85+,many\n")


def test_upload_mixed_first_column_without_header_gives_label_hint():
    with pytest.raises(UploadError, match=r'"85\+" is not a number.*bin labels.*header'):
        read_csv_upload(b"84,1\n85+,2\n")


def test_upload_mixed_single_column_is_an_error():
    with pytest.raises(UploadError, match=r'Row 3, column "age": "85\+" is not a number'):
        read_csv_upload(b"age\n84\n85+\n")


def test_upload_rejects_arguments():
    with pytest.raises(ValueError, match="`data` must be bytes"):
        read_csv_upload("x\n1\n")
    with pytest.raises(ValueError, match="`max_rows`"):
        read_csv_upload(b"x\n1\n", max_rows=0)


# ---------------------------------------------------------------------------
# counts_from_column and check_same_length
# ---------------------------------------------------------------------------

def test_counts_from_column_valid():
    df = read_csv_upload(b"A,B\n1,0\n2.5,3\n0,4\n")
    counts = counts_from_column(df["A"], name="A")
    assert counts.dtype == np.float64 and counts.tolist() == [1, 2.5, 0]
    assert counts_from_column([0, 7]).tolist() == [0, 7]


def test_counts_from_column_short_column():
    df = read_csv_upload(b"A,B\n1,2\n3,4\n5\n")
    with pytest.raises(UploadError, match=r'Histogram B \(column "B"\) has 2 values but the '
                                          "longest column has 3"):
        counts_from_column(df["B"], name="B")


@pytest.mark.parametrize(
    "column,match",
    [
        ([1, -2, 3], "negative count.*row 2"),
        ([0, 0, 0], "all counts equal to 0"),
        ([5], "1 bin; a histogram needs at least 2 bins"),
        ([], "at least 2 bins"),
        ([1, np.inf], "finite"),
        (["a", "b"], "only numbers"),
    ],
)
def test_counts_from_column_errors(column, match):
    with pytest.raises(UploadError, match=f"Histogram A.*{match}"):
        counts_from_column(column)


def test_counts_from_column_names_the_column():
    with pytest.raises(UploadError, match=r'Histogram B \(column "women"\).*negative'):
        counts_from_column(pd.Series([1.0, -1.0], name="women"), name="B")


def test_check_same_length():
    check_same_length(np.ones(18), [0] * 18)
    with pytest.raises(UploadError,
                       match="A has 20 bins but B has 18; both histograms need the same bins"):
        check_same_length(np.ones(20), np.ones(18))
    with pytest.raises(UploadError, match="men has 2 bins but women has 3"):
        check_same_length([1, 2], [1, 2, 3], names=("men", "women"))



@pytest.mark.parametrize("width", [1, 5, 10])
def test_regroup_ages_sums_single_years_into_bins(width):
    by_age = age_histogram("korea", 1).to_numpy()
    np.testing.assert_allclose(regroup_ages(by_age, width),
                               age_histogram("korea", width).to_numpy())
    with pytest.raises(ValueError, match="counts_by_age"):
        regroup_ages(by_age[:-1], width)


def test_read_answers_upload_and_categories():
    from dpcore.datasets import categories_from_column, read_answers_upload

    table = read_answers_upload("answer;score\nyes;3\nno;\n yes ;3.0\n\n".encode())
    assert list(table.columns) == ["answer", "score"] and len(table) == 3
    labels, counts, index = categories_from_column(table["answer"])
    assert labels == ["no", "yes"] and list(counts) == [1, 2] and list(index) == [1, 0, 1]
    # text cells are categories as written; a numeric column reads 3 and 3.0 as one number
    assert categories_from_column(pd.Series([3, 3.0, 4]))[0] == ["3", "4"]
    for data, fragment in [(b"", "empty"), (b"answer\n", "no data rows"),
                           (b"a,a\nx,y\n", "same name"), (b"id,answer\n1,\n2,\n", "no values"),
                           (b"\x00\x01", "binary"), ("é".encode("latin-1") + b"\nx\n", "UTF-8")]:
        with pytest.raises(UploadError, match=fragment):
            read_answers_upload(data)
    with pytest.raises(UploadError, match="single category"):
        categories_from_column(pd.Series(["a", "a"], name="q"))
    with pytest.raises(UploadError, match="at most 3"):
        categories_from_column(pd.Series(list("abcd")), max_categories=3)


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
