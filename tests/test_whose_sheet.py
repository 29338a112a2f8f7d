"""Issue 23, item 4: EXTRA!'s sheet pages always name whose sheet they show, and a bot that has
not decided yet is shown as still playing, not as an empty sheet that looks finished."""

from __future__ import annotations

from pathlib import Path

from sim.board import SimBoard
from sim.robustness import choose

SIZE = (128, 64)


def test_flipping_to_a_bot_still_deciding_says_it_plays(tmp_path: Path) -> None:
    board = SimBoard(seed=4, state_dir=tmp_path)
    choose(board, "Play EXTRA!")
    choose(board, "3 players")
    for kind in ("p", "b", "b"):
        if kind == "b":
            board.tap("right")
        board.tap("ok")
    board.tap("roll")
    board.settle()
    app = board.app
    game = app.session.game
    assert game.pending().kind == "decision" and game.pending().player == 0
    headers = {}
    for _ in range(4):  # ROLL: the decider's whole sheet, then each other player's
        board.tap("roll")
        play = app.play_screen()
        if play.view not in (None, 0):  # the header: whose sheet, what goes on
            headers[play.view] = " ".join(box.text for box in app.canvas(SIZE).asks())
    names = [p.name for p in game.players]
    assert set(headers) == {1, 2}
    for seat, header in headers.items():
        assert header.startswith(names[seat]), header  # whose sheet it is
        state = "done" if seat not in game.undecided else "plays"
        assert state in header.split(), header  # before: "Blue 2/3" for a bot still deciding
    board.close()
