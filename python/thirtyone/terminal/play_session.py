"""One run of ``thirtyone play``: the seats, the replay of a saved game, saving as the game goes,
and leaving it (``q``, Ctrl-C, Ctrl-D).

The terminal drives the game's :class:`~thirtyone.game.Session`: it pushes each of your
decisions (asked by :class:`~thirtyone.terminal.player.TerminalPlayer`) and the session plays
the computer seats' policies in between; the narrator, the saver and the keeper of your
decisions listen to its events. A resumed game is rebuilt by replaying its journal quietly
(:func:`thirtyone.store.saves.replayed`), and nothing is written until the replay is done; a
journal that cannot be replayed raises :class:`~thirtyone.errors.SaveError` naming the action
that failed. A new game is
saved once before its first turn, so a folder where nothing can be written is found then. A
game played to its end goes into the record of games (:mod:`thirtyone.store.record`), with your
decisions and the Oracle's advice kept as it went (:class:`~thirtyone.store.keeper.Keeper`).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from rich.console import Console, RenderableType
from rich.rule import Rule
from rich.text import Text

from thirtyone.errors import IllegalMoveError
from thirtyone.game.rules import Rules
from thirtyone.game.seats import Policy, TablePolicy, seat_models
from thirtyone.game.session import Session
from thirtyone.oracle.player import opponent
from thirtyone.store import saves
from thirtyone.store import summary as record_summary
from thirtyone.store.keeper import Keeper, game_record, restored
from thirtyone.terminal.advisor import OracleAdvisor
from thirtyone.terminal.display import WARN_STYLE, Packed, lives_line, placing, say
from thirtyone.terminal.narrator import Narrator
from thirtyone.terminal.player import AdvisedPolicy, TerminalPlayer
from thirtyone.terminal.prompt import QuitGame, prompt_line
from thirtyone.terminal.save_start import round_resumed, say_resume


class Table(NamedTuple):
    """Who plays what: the console, the rules, the seed, the names (yours first), the advisor,
    whether the table's rule plays your seat, when the advice is shown (``always``, ``ask``,
    ``never``), whether to wait for Enter after each round (``pause``), the seconds to wait
    after each computer turn told one line each (``delay``), who the computer players are
    (``opponents``: ``table``, ``expert`` or ``mixed``, see :func:`opponent`), and the Oracle's
    precision a new game is saved with (``oracle``: ``deals`` and ``playouts``; None: the
    defaults)."""

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
    oracle: dict[str, int] | None = None


def _your_seat(table: Table) -> Policy | None:
    """Your seat's policy: None (you decide) unless the table's rule plays it (``--autoplay``),
    showing the advice when there is an advisor."""
    if not table.autoplay:
        return None
    if table.advisor is not None:
        return AdvisedPolicy(table.console, table.advisor)
    return TablePolicy()


def play_game(
    table: Table,
    saved: saves.SavedGame | None,
    save: tuple[Path, bool] | None,
    intro: RenderableType | None,
) -> bool:
    """Play the game (or resume ``saved``), saving it at ``save`` (the path, and whether it was
    chosen with ``--save-file``) unless that is None. Returns whether the game was played to its
    end (not left). Raises :class:`~thirtyone.errors.SaveError`
    when the game cannot be saved or the saved game cannot be replayed."""
    console, names = table.console, table.names
    narrator = Narrator(console, names, me=0, compact=table.autoplay, delay=table.delay)
    saver: saves.Saver | None = None

    def on_mode(mode: str) -> None:
        if saver is not None:
            saver.saved.advice = mode
            saver.save()

    keeper = Keeper(0, restored(saved.decisions) if saved is not None else [])
    if table.advisor is not None:
        table.advisor.on_advice = keeper.on_advice
    policies = [_your_seat(table)]
    policies += [opponent(table.opponents, s, table.seed) for s in range(1, len(names))]
    game = Session(
        table.rules,
        policies,
        seed=table.seed,
        names=names,
        on_event=narrator,
        models=seat_models(policies),
    )
    game.add_listener(keeper)  # (before the saver: a save holds the decisions up to it)
    narrator.game = game
    if saved is not None:
        # Replay the journal quietly and write nothing until it is spent; then say where the
        # game stands (the round's head, as it was) and play on.
        narrator.console = Console(file=io.StringIO())
        saves.replay(game, saved, saves.short(save[0]) if save else "the saved game")
        keeper.caught_up()
        narrator.console = console
    narrator.pause = _pause(console) if table.pause else None
    if intro is not None:
        console.print(intro)
    if save is not None:
        # (An --autoplay game plays itself in one go and is not saved.)
        fresh = saves.SavedGame(
            table.rules,
            table.seed,
            names,
            advice=table.advice,
            opponents=table.opponents,
            oracle=table.oracle,
        )
        saver = saves.Saver(saved or fresh, game, save[0])
        saver.saved.decisions = keeper.kept
        game.add_listener(saver)
        if saved is None:  # a new game is saved before its first turn (a folder that cannot
            saver.save()  # be written is found then); a resumed one at its next event
        # On a terminal the sentence broken between words and the command, where it does not
        # fit the line, on lines of its own to copy (ruling 360); elsewhere one line, whole,
        # for a program reading it. (Not for a game already over.)
        if not game.over and not table.autoplay:
            lead = f"Saved as you play, to {save[0]}. Continue later with:"
            say_resume(console, lead, *save, style="dim")
    if saved is not None:
        _say_resumed(game, narrator, console)
    person = None
    if not table.autoplay:
        person = TerminalPlayer(
            names[0], console, narrator, advisor=table.advisor, advice=table.advice, on_mode=on_mode
        )
    finished = _run(game, person, saver, save, console)
    if finished and game.over:
        _record(table, game, keeper)
    return finished


def _say_resumed(game: Session, narrator: Narrator, console: Console) -> None:
    """Where a resumed game stands, and the round's head when a round is under way; for a save
    whose actions had ended the game (left before its last save said so), its end."""
    console.print(resumed_text(game))
    if game.over:
        end = next(e for e in reversed(game.events) if e.kind == "game_over")
        console.print(placing(end, game.names, 0))
        return
    live = game.round is not None and not game.round.is_over
    if live and not game.over and not narrator.watching:
        console.print()
        console.print(Rule(narrator.head, align="left"))


def _record(table: Table, game: Session, keeper: Keeper) -> None:
    """Add the finished game to the record of games and show the record (or why not)."""
    entry = game_record(
        game,
        keeper.decisions(),
        opponents=table.opponents,
        autoplay=table.autoplay,
        seed=table.seed,
    )
    for line in record_summary.after_game(entry):
        # On a terminal, broken between words (the terminal cut "stats" and "0.0" in two);
        # elsewhere one line, whole.
        table.console.print(Text(line, style="dim"), soft_wrap=not table.console.is_terminal)


def _run(
    game: Session,
    person: TerminalPlayer | None,
    saver: saves.Saver | None,
    save: tuple[Path, bool] | None,
    console: Console,
) -> bool:
    """Drive the session to the game's end: the computer seats' turns, then each of your
    decisions pushed in. Returns False when you leave it (it is saved)."""
    try:
        drive(game, person)
        if saver is not None:
            saver.save()  # (a replayed journal that ended the game is saved as over now)
        _keep(saver, console)
        return True
    except (QuitGame, KeyboardInterrupt):
        if saver is not None and save is not None and not game.over:
            saver.save()
            say_resume(console, "Saved. Continue with:", *save)
        console.print("Goodbye!")
        return False


def drive(game: Session, person: TerminalPlayer | None) -> None:
    """Play ``game`` to its end: the computer seats by their policies, and each decision of the
    seat without one asked of ``person`` and pushed into the session. Raises
    :class:`~thirtyone.terminal.prompt.QuitGame` when the person leaves."""
    game.advance()
    while not game.over:
        if person is None:
            raise IllegalMoveError("a seat without a policy must decide, and nobody is asked")
        action = person.choose(game)
        try:
            game.act(action)
        except IllegalMoveError as err:  # the core refused: say why and ask again
            person.say(str(err))


def _keep(saver: saves.Saver | None, console: Console) -> None:
    """Keep the finished game for ``thirtyone review``; a copy that cannot be written is told
    in one line (the game itself is saved)."""
    if saver is None:
        return
    try:
        saver.keep()
    except saves.SaveError as err:
        say(console, Text(f"Note: {err}.", style=WARN_STYLE))


def _pause(console: Console) -> Callable[[], None]:
    """Wait for Enter after a round's result (end of input or Ctrl-C leaves the game)."""

    def wait() -> None:  # (q in either case, as at every prompt: ruling 193)
        answer = prompt_line("Press Enter for the next round (q quit)")
        if answer is None or answer.strip().lower() in ("q", "quit"):
            raise QuitGame

    return wait


def resumed_text(game: Session) -> Text | Packed:
    """Where a resumed game stands: the round under way, or the one dealt next when the save
    was left between two rounds, and the players still in, in the table's words (letters under
    Gin lives, the county, life names: ruling 191); or that its actions had ended it."""
    if game.over:
        return Text(
            f"This saved game had ended, in round {game.round_number}, before its save said so: "
            "here is its end.",
            style="bold",
        )
    round_ = game.round
    under_way = round_ is not None and not round_.is_over
    number = round_resumed(game)
    mid = under_way and round_ is not None and round_.pending is not None
    where = ", at the put-down of your turn" if mid else ""
    head = f"Resumed: round {number}{where}. "
    line = lives_line(game.names, game.lives, 0, game.rules, head=head, seats=game.active)
    for piece in line.pieces:
        piece.stylize("bold")
    return line
