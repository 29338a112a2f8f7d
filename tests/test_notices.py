"""Problems the board plays on with are said on the display, and play goes on."""

from __future__ import annotations

from sim.board import SimBoard


def test_storage_that_cannot_be_used_is_reported_and_play_goes_on(tmp_path):
    blocked = tmp_path / "state"
    blocked.write_text("not a directory")  # the state dir is a file: nothing can be kept there
    board = SimBoard(seed=1, state_dir=blocked)
    assert board.journal.problem
    assert type(board.app.screen).__name__ == "TextScreen"
    assert board.screen_text()[0] == "Note"
    board.tap("ok")  # closes the note
    assert type(board.app.screen).__name__ == "MainMenu"
    for button in ("ok", "ok", "ok", "ok", "ok", "roll"):  # EXXTRA, 3 people, roll
        board.tap(button)
    board.settle()
    assert len(board.app.session.game.history) >= 1
    board.close()


def test_a_missing_display_is_noted_on_the_board(tmp_path):
    board = SimBoard(seed=1)
    board.hardware.problems.append("display: nothing answers at 0x3C on I2C bus 1")
    from firmware.board_loop import Board

    fresh = Board(board.hardware, board.loop)
    assert fresh.app.problems == ["display: nothing answers at 0x3C on I2C bus 1"]
    assert type(fresh.app.screen).__name__ == "TextScreen"
    board.close()
