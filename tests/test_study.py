"""Tests of dpcore.study: the grid, reproducibility on Dask, resuming, the CLI."""

import numpy as np
import pandas as pd
import pytest

from dpcore import simulation, study

# dask.distributed leaves a few sockets of its local clusters to the garbage collector.
pytestmark = pytest.mark.filterwarnings(
    "ignore::ResourceWarning", "ignore::pytest.PytestUnraisableExceptionWarning"
)

SMALL = dict(pairs=["korea_vs_korea", "central_vs_noncentral"], ms=[9], alphas=[(1.0, 1.0)],
             ns=[1000, 5000])


def test_paper_grid_is_the_papers():
    cells = study.paper_grid()
    assert len(cells) == 3 * 3 * 4 * 10 * len(simulation.TESTS)
    assert {c.test for c in cells} == set(simulation.TESTS)
    assert all(c.n2 == c.n for c in cells)  # the paper: one N for both histograms
    assert [c.index for c in cells] == list(range(len(cells)))
    assert len({c.key for c in cells}) == len(cells)
    assert {c.n for c in cells} == {10**k * m for k in range(3, 8) for m in (1, 5)}
    assert {(c.alpha1, c.alpha2) for c in cells} == {(1, 1), (0.1, 0.1), (0.01, 0.01),
                                                      (0.1, 0.05)}
    with pytest.raises(ValueError, match="`ms`"):
        study.paper_grid(ms=[20])
    with pytest.raises(ValueError, match="`pairs`"):
        study.paper_grid(pairs=["x"])


def test_cell_probabilities_share_bins():
    for pair in study.PAIRS:
        for m in (86, 18, 9):
            p1, p2 = study.cell_probabilities(pair, m)
            assert p1.size == p2.size == m
            assert p1.sum() == pytest.approx(1) and p2.sum() == pytest.approx(1)


def test_a_cell_is_algorithm_2_with_its_own_stream():
    cells = study.paper_grid(**SMALL)
    row = study.run_cell(cells[1], reps=30, n_boot=20, seed=5, n_cells=len(cells))
    stream = np.random.SeedSequence(5).spawn(len(cells))[1]
    p1, p2 = study.cell_probabilities(cells[1].pair, cells[1].m)
    ref = simulation.reject_rate(p1, p2, cells[1].n, 1.0, 1.0, test=cells[1].test, reps=30,
                                 n_boot=20, rng=np.random.default_rng(stream))
    assert row["rate"] == ref.rate and row["rejections"] == ref.rejections
    assert set(row) == set(study.COLUMNS)


def _run(out, workers, logs=None):
    cells = study.paper_grid(**SMALL)
    return study.run_study(cells, out, reps=20, n_boot=20, seed=11, workers=workers,
                           log=(logs.append if logs is not None else lambda *_: None))


def test_same_csv_whatever_the_number_of_workers(tmp_path):
    logs = []
    one = _run(tmp_path / "one.csv", 1, logs)
    two = _run(tmp_path / "two.csv", 2)
    cells = 4 * len(simulation.TESTS)  # 2 pairs x 2 N x every test
    assert len(one) == len(study.paper_grid(**SMALL)) == cells
    pd.testing.assert_frame_equal(one.drop(columns="seconds"), two.drop(columns="seconds"))
    assert list(one["cell"]) == list(range(cells))
    assert any("Estimated run time" in line for line in logs)
    on_disk = pd.read_csv(tmp_path / "two.csv")
    pd.testing.assert_frame_equal(on_disk.drop(columns="seconds"), two.drop(columns="seconds"))

    # Resume: a finished file runs nothing; a missing row is recomputed identically.
    logs.clear()
    again = _run(tmp_path / "one.csv", 1, logs)
    assert any("0 to run" in line for line in logs)
    pd.testing.assert_frame_equal(again, one)
    one.drop(index=3).to_csv(tmp_path / "one.csv", index=False)
    mended = _run(tmp_path / "one.csv", 1)
    pd.testing.assert_frame_equal(mended.drop(columns="seconds"), one.drop(columns="seconds"))


def test_resume_refuses_other_settings(tmp_path):
    out = tmp_path / "r.csv"
    cells = study.paper_grid(**SMALL)[:1]
    pd.DataFrame([study.run_cell(cells[0], reps=20, n_boot=20, seed=11, n_cells=8)]).to_csv(
        out, index=False)
    with pytest.raises(SystemExit, match="other --reps"):
        study.run_study(cells, out, reps=30, n_boot=20, seed=11, workers=1, log=lambda *_: None)
    with pytest.raises(SystemExit, match="another grid"):
        study.run_study(study.paper_grid(pairs=["korea_vs_usa"], ms=[9], alphas=[(1.0, 1.0)],
                                         ns=[1000]), out, reps=20, n_boot=20, seed=11,
                        workers=1, log=lambda *_: None)


def test_command_line(tmp_path, capsys):
    out = tmp_path / "cli.csv"
    code = study.main(["--out", str(out), "--reps", "10", "--boot", "10", "--workers", "1",
                       "--pairs", "korea_vs_usa", "--m", "9", "--n", "1000",
                       "--alphas", "0.1,0.05", "--tests", "chisq"])
    assert code == 0
    table = pd.read_csv(out)
    assert list(table.columns) == study.COLUMNS
    assert table[["alpha1", "alpha2"]].values.tolist() == [[0.1, 0.05]]
    html = out.with_suffix(".html").read_text()
    assert "<html>" in html and "plotly" in html
    for bad in (["--alphas", "0.1"], ["--reps", "0"], ["--max-cells", "1"]):
        with pytest.raises(SystemExit) as info:
            study.main(["--out", str(tmp_path / "x.csv"), *bad])
        assert info.value.code == 2
    assert "more than --max-cells" in capsys.readouterr().err


def test_shipped_results_cover_the_paper_grid():
    table = study.load_results()
    if table is None:
        pytest.fail("dpcore/data/calibration_study.csv is missing; run: " + study.PAPER_COMMAND)
    assert list(table.columns) == study.COLUMNS
    keys = {(r.pair, r.m, r.alpha1, r.alpha2, r.n, r.n2, r.test) for r in table.itertuples()}
    assert keys == {c.key for c in study.shipped_paper_grid()}
    assert len(table) == 720 + 240
    assert set(table["reps"]) == {1000}
    assert ((table["ci_low"] <= table["rate"]) & (table["rate"] <= table["ci_high"])).all()


def test_extended_grid_is_the_issue_grid():
    cells = study.extended_grid()
    assert len(cells) == 3 * 9 * 3 * 3 * len(simulation.TESTS)
    assert {c.pair for c in cells} == {"korea_vs_korea"}
    assert {(c.alpha1, c.alpha2) for c in cells} == {(a, b) for a in (1, 0.1, 0.01)
                                                     for b in (1, 0.1, 0.01)}
    assert {c.n for c in cells} == {1000, 10_000, 100_000}
    assert {c.n2 // c.n for c in cells} == {1, 10, 100}
    assert len({c.key for c in cells}) == len(cells)


def test_a_cell_with_two_sizes_draws_them():
    cells = [c for c in study.extended_grid(tests=("bootstrap",)) if c.m == 9 and c.n2 != c.n]
    cell = cells[0]
    row = study.run_cell(cell, reps=20, n_boot=20, seed=5, n_cells=len(cells))
    stream = np.random.SeedSequence(5).spawn(len(cells))[cell.index]
    p1, p2 = study.cell_probabilities(cell.pair, cell.m)
    ref = simulation.reject_rate(p1, p2, (cell.n, cell.n2), cell.alpha1, cell.alpha2,
                                 test=cell.test, reps=20, n_boot=20,
                                 rng=np.random.default_rng(stream))
    assert (row["n"], row["n2"]) == (cell.n, cell.n2) == (1000, 10_000)
    assert row["rate"] == ref.rate and row["rejections"] == ref.rejections


def test_cli_takes_ratios_and_the_extended_grid(tmp_path, capsys):
    out = tmp_path / "r.csv"
    study.main(["--pairs", "korea_vs_korea", "--m", "9", "--n", "1000", "--ratio", "1", "10",
                "--alphas", "1,0.1", "--tests", "chisq", "--reps", "20", "--workers", "1",
                "--out", str(out)])
    table = pd.read_csv(out)
    assert list(table["n2"]) == [1000, 10_000]
    assert set(table["alpha2"]) == {0.1}
    with pytest.raises(SystemExit):
        study.main(["--ratio", "0", "--out", str(out)])
    assert "--ratio" in capsys.readouterr().err


def test_shipped_extended_results_cover_the_extended_grid():
    table = study.load_extended()
    if table is None:
        pytest.fail("dpcore/data/calibration_null_extended.csv is missing; run: "
                    + study.EXTENDED_COMMAND)
    assert list(table.columns) == study.COLUMNS
    keys = {(r.pair, r.m, r.alpha1, r.alpha2, r.n, r.n2, r.test) for r in table.itertuples()}
    assert keys == {c.key for c in study.extended_grid()}
    assert set(table["reps"]) == {1000}
    boots = table[table["test"] != "chisq"].groupby("test")["n_boot"].unique()
    assert {test: set(b.astype(int)) for test, b in boots.items()} == {
        "bootstrap": {500}, "normal_score": {500}, "calibrated": {200}}
