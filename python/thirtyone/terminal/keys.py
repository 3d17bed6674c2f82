"""The keys of the Oracle and of memory at the person's prompt: ``a`` shows the advice now (also
after it was interrupted), ``o`` switches between advice on every turn and advice on request,
``r`` shows what each opponent probably holds, ``l`` shows the round so far and the discard
pile, and Enter plays the Oracle's best move after a one-line confirmation.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from typing import Protocol

from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from thirtyone.game.seats import SeatView
from thirtyone.oracle.answer import Kind
from thirtyone.oracle.reads import Read
from thirtyone.terminal import display
from thirtyone.terminal.advisor import OracleAdvisor
from thirtyone.terminal.narrator import Narrator
from thirtyone.terminal.prompt import QuitGame


class Seat(Protocol):
    """What the keys need of the person's seat at the terminal."""

    console: Console
    narrator: Narrator
    advisor: Callable[[SeatView], object] | None
    #: ``always`` (advice on every turn), ``ask`` (on ``a``) or ``never``.
    advice: str
    on_mode: Callable[[str], None] | None
    #: Whether the advice was shown at this position.
    advice_shown: bool

    def read(self, prompt: str) -> str | None: ...

    def say(self, message: str) -> None: ...

    def show_advice(self, view: SeatView, *, asked: bool = False) -> None: ...


KEYS = ("advice", "toggle", "read", "log")
OFF = "The Oracle is off in this game (thirtyone play --advice never)."


def handle(player: Seat, word: str, view: SeatView) -> None:
    """Do what the key ``word`` asks."""
    if word == "log":
        player.console.print(player.narrator.round_log(view))
        return
    if player.advisor is None:
        player.say(OFF)
        return
    if word == "advice":
        player.show_advice(view, asked=True)
    elif word == "toggle":
        player.advice = "ask" if player.advice == "always" else "always"
        if player.on_mode is not None:
            player.on_mode(player.advice)
        if player.advice == "always":
            player.console.print(Text("Advice on every turn (o: only when asked).", style="dim"))
            player.show_advice(view)
        else:
            player.console.print(Text("Advice only when asked: a (o: on every turn).", style="dim"))
    elif word == "read":
        _show_reads(player, view)


def _show_reads(player: Seat, view: SeatView) -> None:
    advisor = player.advisor
    if not isinstance(advisor, OracleAdvisor):
        player.say("No read of the opponents here.")
        return
    try:
        with player.console.status("The Oracle is reading the table…", spinner="dots"):
            found = advisor.reads(view)
    except KeyboardInterrupt:
        player.say("Interrupted: no read this time (r asks again).")
        return
    except Exception as err:  # the read is optional: it must not end the game
        player.say(f"(no read this time: {err})")
        return
    player.console.print(read_panel(found, player.console.width))


def read_panel(found: Sequence[Read], width: int) -> Panel:
    """The ``r`` panel: one entry an opponent, broken between words to fit ``width`` columns
    (the panel's border and padding included), its later lines indented under the name."""
    head = "weighed by" if any(r.weighed for r in found) else "consistent with"
    inner = max(width - 4, 20)
    lines = [Text(f"Their hands, in the deals {head} their play:", style="bold")]
    for r in found:
        wrapped = textwrap.wrap(
            r.line(), inner, initial_indent="  ", subsequent_indent="    ", break_on_hyphens=False
        )
        lines += [Text(line) for line in wrapped]
    return Panel(Text("\n").join(lines), title="Read", title_align="left", expand=False)


def accept(player: Seat, view: SeatView) -> str | None:
    """Enter at the prompt: the Oracle's best move (``draw``, ``knock``... at the start of the
    turn, the card to put down after a draw or take) once the person confirms it; None when
    there is none or they decline (the question is asked again). Advice not shown yet at this
    position (``--advice ask``) is shown first, so that what is offered has been seen."""
    advisor = player.advisor
    if not isinstance(advisor, OracleAdvisor):
        player.say("Type a choice (? for help).")
        return None
    found = advisor.advice(view)
    if isinstance(found, Text):
        player.console.print(found)
        return None
    if not player.advice_shown:
        player.show_advice(view, asked=True)
    best = found[0].best
    if best.kind is Kind.PUT_DOWN:
        move, answer = best.describe(), str(best.discard)
    else:
        move, answer = best.describe(), best.option
        if best.kind is Kind.TAKE:
            move = f"take the {best.card}"
    while True:
        text = player.read(f"Play the Oracle's best: {move}? (Enter or y: yes, n: no)")
        if text is None:
            player.console.print()
            raise QuitGame
        said = text.strip().lower()
        if said in ("", "y", "yes"):
            return answer
        if said in ("n", "no"):
            player.console.print(Text("Not played: your choice.", style=display.WARN_STYLE))
            return None
        if said in ("q", "quit", "exit"):
            raise QuitGame
        if said in ("a", "advice"):
            player.show_advice(view, asked=True)
            continue
        player.say("Enter or y plays it, n does not (then type your own choice).")
