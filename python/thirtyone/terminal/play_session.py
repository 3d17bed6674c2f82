"""One run of ``thirtyone play``: the seats, the replay of a saved game, saving as the game goes,
and leaving it (``q``, Ctrl-C, Ctrl-D).

A resumed game is rebuilt by replaying its journal quietly, and nothing is written until the
replay is done (:class:`~thirtyone.saves.Saver` starts disarmed); a journal that cannot be
replayed raises :class:`~thirtyone.saves.SaveError` naming the action that failed. A new game is
saved once before its first turn, so a folder where nothing can be written is found then. A
game played to its end goes into the record of games (:mod:`thirtyone.record`), with your
decisions and the Oracle's advice kept as it went (:class:`~thirtyone.record_keeper.Keeper`).
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from rich.console import Console, RenderableType
from rich.rule import Rule
from rich.text import Text

from thirtyone.errors import ThirtyOneError
from thirtyone.game.loop import Game
from thirtyone.game.players import ComputerPlayer, Player
from thirtyone.game.rules import Rules
from thirtyone.oracle.player import OraclePlayer
from thirtyone.store import saves
from thirtyone.store import summary as record_summary
from thirtyone.store.keeper import Keeper, game_record, restored
from thirtyone.terminal.advisor import OracleAdvisor
from thirtyone.terminal.display import WARN_STYLE
from thirtyone.terminal.narrator import Narrator
from thirtyone.terminal.player import AdvisedPlayer, TerminalPlayer
from thirtyone.terminal.prompt import QuitGame, prompt_line
from thirtyone.terminal.save_start import resume_command


class Table(NamedTuple):
    """Who plays what: the console, the rules, the seed, the names (yours first), the advisor,
    whether the table's rule plays your seat, when the advice is shown (``always``, ``ask``,
    ``never``), whether to wait for Enter after each round (``pause``), the seconds to wait
    after each computer turn told one line each (``delay``), and who the computer players are
    (``opponents``: ``table``, ``expert`` or ``mixed``, see :func:`opponent`)."""

    console: Console
    rules: Rules
    seed: int
    names: list[str]
    advisor: OracleAdvisor | None
    autoplay: bool
    advice: str = "always"
    pause: bool = False
    delay: float = 0.0
    opponents: str = "table"


def opponent(kind: str, seat: int, name: str, seed: int) -> Player:
    """The computer player at ``seat``: the table's rule (``table``), the Oracle at a small
    budget (``expert``), or, for ``mixed``, an expert at the odd seats and the table's rule at
    the even ones. An expert's seed is derived from the game's ``seed`` and its seat."""
    if kind == "expert" or (kind == "mixed" and seat % 2 == 1):
        return OraclePlayer.expert(name, seed=seat_seed(seed, seat))
    return ComputerPlayer(name)


def seat_seed(seed: int, seat: int) -> int:
    """A 62-bit seed from the game's seed and a seat (stable across runs)."""
    digest = hashlib.blake2b(repr(("expert", seed, seat)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 2


def _your_seat(
    table: Table, narrator: Narrator, on_mode: Callable[[str], None] | None = None
) -> Player:
    name, console = table.names[0], table.console
    if not table.autoplay:
        return TerminalPlayer(
            name, console, narrator, advisor=table.advisor, advice=table.advice, on_mode=on_mode
        )
    if table.advisor is not None:
        return AdvisedPlayer(name, console, table.advisor)
    return ComputerPlayer(name)


def play_game(
    table: Table,
    saved: saves.SavedGame | None,
    save: tuple[Path, bool] | None,
    intro: RenderableType | None,
) -> bool:
    """Play the game (or resume ``saved``), saving it at ``save`` (the path, and whether it was
    chosen with ``--save-file``) unless that is None. Returns whether the game was played to its
    end (not left). Raises :class:`~thirtyone.saves.SaveError`
    when the game cannot be saved or the saved game cannot be replayed."""
    console, names = table.console, table.names
    narrator = Narrator(console, names, me=0, compact=table.autoplay, delay=table.delay)
    pause = _pause(console) if table.pause else None
    script: saves.Script | None = None
    saver: saves.Saver | None = None

    def on_mode(mode: str) -> None:
        if saver is not None:
            saver.saved.advice = mode
            saver.save()

    keeper = Keeper(0, restored(saved.decisions) if saved is not None else [])
    if table.advisor is not None:
        table.advisor.on_advice = keeper.on_advice
    computers = [opponent(table.opponents, s, n, table.seed) for s, n in enumerate(names) if s]
    players = [_your_seat(table, narrator, on_mode), *computers]
    if saved is not None:
        # Replay the journal quietly and write nothing until it is spent; then say where the
        # game stands (the round's head, as it was) and play on.
        narrator.console = Console(file=io.StringIO())

        def caught_up() -> None:
            keeper.caught_up()
            narrator.console, narrator.pause = console, pause
            if saver is not None:
                saver.arm()
                console.print(saved_where, soft_wrap=True)
            console.print(resumed_text(game))
            live = game.round is not None and not game.round.is_over
            if live and not game.over and not narrator.watching:
                console.print()
                console.print(Rule(narrator.head, align="left"))

        where = saves.short(save[0]) if save else "the saved game"
        players, script = saves.resumable(players, saved.journal, caught_up, where)
    else:
        narrator.pause = pause
    game = Game(table.rules, players, seed=table.seed, names=names, on_event=narrator)
    narrator.game = game
    game.add_listener(keeper)  # (before the saver: a save holds the decisions up to it)
    if intro is not None:
        console.print(intro)
    if save is not None:
        # (An --autoplay game plays itself in one go and is not saved.)
        saved_where = Text(
            f"Saved as you play, to {save[0]} (continue later with {resume_command(*save)}).",
            style="dim",
        )
        fresh = saves.SavedGame(
            table.rules, table.seed, names, advice=table.advice, opponents=table.opponents
        )
        saver = saves.Saver(saved or fresh, game, save[0], armed=saved is None)
        saver.saved.decisions = keeper.kept
        game.add_listener(saver)
        if saved is None:  # a new game is saved before its first turn; a resume, once replayed
            saver.save()
            console.print(saved_where, soft_wrap=True)
    finished = _run(game, saver, script, save, console)
    if finished and game.over:
        _record(table, game, keeper)
    return finished


def _record(table: Table, game: Game, keeper: Keeper) -> None:
    """Add the finished game to the record of games and show the record (or why not)."""
    entry = game_record(
        game,
        keeper.decisions(),
        opponents=table.opponents,
        autoplay=table.autoplay,
        seed=table.seed,
    )
    for line in record_summary.after_game(entry):
        table.console.print(Text(line, style="dim"), soft_wrap=True)


def _run(
    game: Game,
    saver: saves.Saver | None,
    script: saves.Script | None,
    save: tuple[Path, bool] | None,
    console: Console,
) -> bool:
    try:
        game.play()
        if script is not None:
            script.finish()  # (a journal that ended the game is saved as over now)
            if saver is not None:
                saver.save()
        _keep(saver, console)
        return True
    except (QuitGame, KeyboardInterrupt):
        if saver is not None and saver.armed and save is not None and not game.over:
            saver.save()
            console.print(Text(f"Saved. Continue with: {resume_command(*save)}"), soft_wrap=True)
        console.print("Goodbye!")
        return False
    except ThirtyOneError as err:
        if script is None or script.caught_up:
            raise
        if not isinstance(err, saves.SaveError):
            err = script.error(err)
        raise saves.SaveError(f"{err}; it was left as it is") from None


def _keep(saver: saves.Saver | None, console: Console) -> None:
    """Keep the finished game for ``thirtyone review``; a copy that cannot be written is told
    in one line (the game itself is saved)."""
    if saver is None:
        return
    try:
        saver.keep()
    except saves.SaveError as err:
        console.print(Text(f"Note: {err}.", style=WARN_STYLE), soft_wrap=True)


def _pause(console: Console) -> Callable[[], None]:
    """Wait for Enter after a round's result (end of input or Ctrl-C leaves the game)."""

    def wait() -> None:
        if prompt_line("Press Enter for the next round (q quit)") in (None, "q", "quit"):
            raise QuitGame

    return wait


def resumed_text(game: Game) -> Text:
    """Where a resumed game stands."""
    lives = " · ".join(f"{game.names[s]} {game.lives[s]}" for s in game.active)
    mid = game.round is not None and not game.round.is_over and game.round.pending is not None
    where = ", at the put-down of your turn" if mid else ""
    return Text(f"Resumed: round {game.round_number}{where}. Lives: {lives}", style="bold")
