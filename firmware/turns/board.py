"""The board's turns: asynchronous agents (firmware.agents: bots think on a thread or in the
thinking process, engines in a subprocess; their answers arrive later as events). `TurnRunner`
asks the pending seat's agent, paces its move (firmware.pace), drops an answer whose token names
an older position, gives a failing engine's seat to the strong bot, and applies the step; the
board (a `TurnBoard`, firmware.ui.app.BoardApp) says when a person holds the bots up and shows
each step.
"""

from __future__ import annotations

import logging
from typing import Protocol

from firmware.agents import AgentAnswer, CoachAnswer, EngineAgent, HintAnswer, Token, checked_engine_answer
from firmware.errors import IllegalStepError, Text
from firmware.games import Roll
from firmware.games.base import Step
from firmware.i18n import N_, _
from firmware.pace import BotPace, PaceState, Schedule
from firmware.table import Table

log = logging.getLogger("xtraboard.turns")


class PaceSettings(Protocol):
    """The house settings the turns follow (firmware.ui.settings.Settings)."""

    @property
    def bot_pace(self) -> str: ...  # "step": each bot step waits for OK

    @property
    def takeback(self) -> str: ...  # "roll": the bot's roll ends the chance to take back

    def bot_delay_s(self, after_person: bool) -> float: ...


class TurnBoard(Protocol):
    """What the turn runner needs of the board (firmware.ui.app.BoardApp)."""

    @property
    def session(self) -> Table | None: ...

    @property
    def settings(self) -> PaceSettings: ...

    def in_game(self) -> bool:
        """The game's screen is shown (a menu over it holds the bots up)."""
        ...

    def holding(self) -> bool:
        """A person holds a button down: the bots wait (their pace goes on)."""
        ...

    def animating(self) -> bool: ...

    def physical_dice(self) -> bool: ...

    def roll(self) -> None:
        """The pending roll, shown (the tumble) and then applied."""
        ...

    def step(self, step: Step) -> None:
        """Apply a decision through `TurnRunner.apply` and show it."""
        ...

    def hinted(self, answer: HintAnswer) -> None: ...

    def report(self, problem: str) -> None: ...

    def changed(self) -> None: ...


class TurnRunner:
    """The board's turns: the pending bot or engine is asked once per position (its token), its
    move waits its pace, then plays its answer (or its roll) — never while a person holds the
    bots up, then as soon as they let go. Answers come back through `answer`, on the loop thread."""

    def __init__(self, board: TurnBoard, schedule: Schedule) -> None:
        self.board = board
        self.pace = BotPace(schedule)  # the bots' pace: their move waits `settings.bot_delay_s()`
        self._thinking: set[Token] = set()  # questions asked and not answered yet
        self._failed: Token | None = None  # a position the bot could not decide: not asked again

    @property
    def thinking(self) -> bool:
        """An agent was asked and has not answered yet."""
        return bool(self._thinking)

    def bot_pending(self) -> bool:
        """A bot's roll or decision is pending in a game that goes on."""
        session = self.board.session
        return session is not None and not session.over and session.pending_bot()

    def waits_for(self) -> str | None:
        """What the pending bot waits for from a person, if anything: "roll" (physical dice:
        a person rolls for it and keys them in) or "ok" (the "step" pace); None when it acts
        by itself (or no bot is pending)."""
        session = self.board.session
        if session is None or not self.bot_pending():
            return None
        if session.awaiting_roll and self.board.physical_dice() and session.kept_roll() is None:
            return "roll"
        if self.board.settings.bot_pace == "step" and not (
            session.game.history and self.pace.after_bot and isinstance(session.game.history[-1], Roll)
        ):
            return "ok"  # a bot's decision right after its own roll follows without a press
        return None

    def moves_by_itself(self) -> bool:
        """A bot is about to move with nobody to wait for (part of the board's `busy`)."""
        return self.bot_pending() and self.waits_for() is None and self.board.in_game() and not self.board.holding()

    # --- starting and stopping ---------------------------------------------------------------
    def seated(self) -> None:
        """The board's session was just given its agents: an engine it does not know is said at
        once; the first bot leaves the shorter pace."""
        session = self.board.session
        if session is not None:
            for agent in session.agents:
                if isinstance(agent, EngineAgent) and agent.failed is not None:
                    self.engine_failed(agent, agent.failed)
        self.pace.after_bot = False

    def reset(self) -> None:
        """A person took back or played again: whatever the bots had in hand is dropped, and
        they leave a moment before going on."""
        self.cancel()
        self.pace.forget()
        self.pace.after_bot = False

    def cancel(self) -> None:
        self.pace.cancel()

    def close_agents(self) -> None:
        session = self.board.session
        if session is not None:
            for agent in session.agents:
                agent.close()

    # --- one step ----------------------------------------------------------------------------
    def apply(self, step: Step, keyed: bool = False) -> bool:
        """Apply a decision or roll through the table (journal first); False (and said) when it
        is not allowed. The next bot's pace follows from who made it."""
        session = self.board.session
        if session is None:
            return False
        by_bot = session.pending_bot()
        try:
            session.apply(step, keyed=keyed)
        except IllegalStepError as exc:  # never offered, but a scenario or bug could try
            # Kept as a Text: shown in the board's language (even after a switch), English in logs.
            self.board.report(Text(N_("Not allowed: {reason}"), reason=exc.text))
            return False
        self.pace.after_bot = by_bot
        return True

    def arm(self) -> None:
        """The pending bot thinks now and acts when its pace is over — unless it waits for a
        person (a held button, a menu, physical dice, the "step" pace); then the end of that
        wait arms it again."""
        session = self.board.session
        if session is None or not self.bot_pending() or self.board.animating():
            return
        self.cancel()
        self.ask()  # it thinks while the pace runs
        if self.waits_for() is not None or not self.board.in_game():
            return
        roll_ends_it = session.awaiting_roll and self.board.settings.takeback != "game"
        self.pace.start(
            self.board.settings.bot_delay_s(not self.pace.after_bot),
            self.move,
            drain=self.board.changed if roll_ends_it else None,
        )

    def ask(self) -> None:
        """Ask the pending bot for its decision, once per position."""
        session = self.board.session
        if session is None:
            return
        question = session.question()
        if question is None or question.token in self._thinking or question.token == self._failed:
            return
        if self.pace.has_answer(question.token):
            return
        self._thinking.add(question.token)  # before asking: an inline agent answers at once
        session.ask(question)

    def answer(self, answer: AgentAnswer) -> None:
        """An agent's answer, on the loop thread: kept for its move if it still fits the
        table's position, else dropped (undo, abandon or resume came in between)."""
        self._thinking.discard(answer.token)
        session = self.board.session
        if answer.note is not None:  # the bots' process failed and was started again: play goes on
            self.bots_restarted(answer.note)
        if isinstance(answer, HintAnswer):
            self.board.hinted(answer)
            return
        if isinstance(answer, CoachAnswer):  # the Key moments' analysis (firmware.ui.moments)
            if answer.deliver is not None:
                answer.deliver(answer)
            return
        if session is None or answer.token != session.token:
            log.debug("dropped a stale answer for position %s: %r", answer.token, answer.step or answer.sent)
            return
        if answer.engine is not None:
            answer = checked_engine_answer(session.game, answer)
            if answer.error is not None:
                agent = session.pending_agent()
                if isinstance(agent, EngineAgent):
                    self.engine_failed(agent, answer.error)
                    self.ask()  # the strong bot decides this position instead
                    return
        if answer.error is not None or answer.step is None:  # said once; the players can undo or abandon
            self._failed = answer.token
            self.board.report(_("a bot could not decide: {error}").format(error=answer.error or "no decision"))
            return
        self.pace.keep(answer.token, answer.step)
        if self.pace.due:  # its pace was over: it moves now (unless a person holds a button)
            self.move(asked=self.pace.state is PaceState.DUE_ASKED)

    def move(self, asked: bool = False) -> None:
        """The bots' pace is over: roll for a bot, or play its answer (as soon as it is in) —
        unless a person holds a button or has a menu open (the last release, or closing the menu,
        arms it again). `asked`: OK at the
        "step" pace asked for this move."""
        self.pace.over()
        if not asked and (self.board.holding() or not self.board.in_game() or self.waits_for() is not None):
            self.pace.stop_drain()  # it waits for a person again: so does the chance to take back
            return
        self.act(asked)

    def act(self, asked: bool = False) -> None:
        session = self.board.session
        if session is None or not self.bot_pending() or self.board.animating():
            return
        if session.awaiting_roll:
            self.board.roll()
            return
        step = self.pace.take(session.token)
        if step is None:
            self.pace.wait_for_answer(asked)  # still thinking: `answer()` moves when it comes
            self.ask()
            return
        self.board.step(step)

    # --- failures: said, and play goes on ----------------------------------------------------
    def engine_failed(self, agent: EngineAgent, why: str) -> None:
        """The seat's engine is given up: the strong bot plays it from here; said on the display
        and in the record's notes."""
        agent.fall_back(why)
        session = self.board.session
        if session is None:
            return
        seat = session.agents.index(agent)
        note = (
            f"step {len(session.game.history)}: {why}; the strong bot plays seat {seat} "
            f"({session.name(seat)}) from here"
        )
        if note not in session.notes:  # a resumed game may meet the same failure again
            session.add_note(note)
        self.board.report(Text(N_("Engine {name} failed: strong bot plays"), name=agent.name))  # Records lists it too

    def bots_restarted(self, why: str) -> None:
        """The bots' thinking process failed and was started again (firmware.thinker): said on
        the display, and in the game's notes as an engine's failure is."""
        session = self.board.session
        if session is not None and not session.over:
            session.add_note(f"step {len(session.game.history)}: {why}; started again, play goes on")
        self.board.report(Text(N_("Bots restarted")))
