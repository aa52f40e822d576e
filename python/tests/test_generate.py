"""`jtb.generate`: progress, resumption, refusals."""

import pytest

import jtb


def test_generate_reports_progress_and_resumes(tmp_path):
    seen = []
    made = jtb.generate(tmp_path, material="LvE", progress=lambda *a: seen.append(a))
    assert made == 1
    assert seen == [(1, 1, "EvL")]  # the orientation that names the table
    assert (tmp_path / "mistboard").is_dir()
    # Run again: the table is present and intact, so nothing is solved.
    assert jtb.generate(tmp_path, material=["LvE"], progress=lambda *a: None) == 0
    with jtb.open_tablebase(tmp_path) as tb:
        assert tb.probe_wdl("7/7/7/7/7/3l3/7/3E3/7 r") == 1


def test_generate_animal_gambit_counts_the_tables_it_needs(tmp_path):
    seen = []
    jtb.generate(tmp_path, rules="animal-gambit", material="RvR", progress=lambda *a: seen.append(a))
    assert seen and seen[-1][0] == seen[-1][1] == len(seen)


def test_a_failing_callback_is_raised_after_the_tables_are_written(tmp_path):
    def fail(*_):
        raise RuntimeError("stop")

    with pytest.raises(RuntimeError, match="stop"):
        jtb.generate(tmp_path, material="LvE", progress=fail)
    assert jtb.generate(tmp_path, material="LvE", progress=lambda *a: None) == 0


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"rules": "chess"}, "unknown rule set"),
        ({"material": "LvX"}, "X"),
        ({"max_pieces": 9}, "max_pieces"),
    ],
)
def test_bad_arguments_are_value_errors(tmp_path, kwargs, message):
    with pytest.raises(ValueError, match=message):
        jtb.generate(tmp_path, progress=lambda *a: None, **kwargs)


def test_without_a_callback_a_tqdm_bar_shows(tmp_path, monkeypatch):
    import sys
    import types

    bars = []

    class Bar:
        def __init__(self, **kwargs):
            self.kwargs, self.total, self.n, self.postfix, self.closed = kwargs, None, 0, None, False
            bars.append(self)

        def set_postfix_str(self, s):
            self.postfix = s

        def update(self, k):
            self.n += k

        def close(self):
            self.closed = True

    auto = types.ModuleType("tqdm.auto")
    auto.tqdm = Bar
    monkeypatch.setitem(sys.modules, "tqdm", types.ModuleType("tqdm"))
    monkeypatch.setitem(sys.modules, "tqdm.auto", auto)
    jtb.generate(tmp_path, material="LvE")
    (bar,) = bars
    assert (bar.n, bar.total, bar.postfix, bar.closed) == (1, 1, "EvL", True)
