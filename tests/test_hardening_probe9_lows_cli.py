"""Ninth probe of issue 33, the Lows of the commands surface: non-finite numbers refused at
the option that takes them, messages that name the right option, empty lists refused, one
reader of PLAYSET_NO_CACHE, engine API oddities as findings, the language server's signals."""

from __future__ import annotations

import pytest

from tests.starter_games import engine_game as _game


@pytest.mark.parametrize(
    ("args", "flag"),
    [
        (("sweep", "--vary", "hand_size=nan,inf"), "--vary"),
        (("sweep", "--vary", "hand_size=2,1e400"), "--vary"),
        (("replay", "--set", "hand_size=1e400"), "--set"),
        (("replay", "--set", "hand_size=-inf"), "--set"),
        (("tune", "--param", "hand_size=1,nan", "--objective", "turns_median=5"), "--param"),
        (("simulate", "-n", "1", "--dask-idle", "wait:1e400"), "--dask-idle"),
        (("simulate", "-n", "1", "--dask-idle", "stop:nan"), "--dask-idle"),
    ],
)
def test_non_finite_numbers_are_refused_at_the_option(tmp_path, run_cli, args, flag):
    # sweep and replay passed nan/inf/1e400 to the engine (an E001 there); --dask-idle
    # waited for ever; tune refused them only in its LO..HI form
    game = _game(tmp_path)
    result = run_cli(*args, str(game))
    assert result.exit_code == 2, result.output[-800:]
    assert flag in result.output, result.output[-800:]


@pytest.mark.parametrize("tolerance", ["nan", "1e400", "inf", "abc"])
def test_a_bad_tolerance_is_named_as_the_tolerance(tmp_path, run_cli, tolerance):
    # the message named the objective: "--objective 'turns_median=nan': expected METRIC=TARGET"
    game = _game(tmp_path)
    result = run_cli(
        "tune",
        str(game),
        "--param",
        "hand_size=1..3",
        "--objective",
        "turns_median=5",
        "--tolerance",
        tolerance,
    )
    assert result.exit_code == 2, result.output[-800:]
    assert "--tolerance" in result.output and "--objective" not in result.output, result.output
