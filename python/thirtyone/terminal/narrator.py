"""The story of a game in the terminal: :class:`Narrator` is the game's event listener. It prints
the deals, round ends, who went out and the placing, and remembers what the opponents did since
the person's last turn, which :meth:`Narrator.turn_panel` shows on the person's next turn.

Two styles: the *table* (interactive play: a panel on each of your turns, opponents' moves
summed up there, boxed round results) and *compact* (``--autoplay``, and the rest of the game
once you are out: one line per turn, short results).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from rich import box
from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from thirtyone.game.rules import NO_LETTERS, Rules

if TYPE_CHECKING:
    from thirtyone.game.seats import SeatView
    from thirtyone.game.session import Event, Session

from thirtyone.terminal.display import (
    BAD_STYLE,
    WARN_STYLE,
    card_text,
    cards_text,
    counted,
    describe_turn,
    fmt_score,
    name_text,
    ordinal,
    placing,
    round_result,
    shown_words,
    standing_text,
)

#: The widest a standing is shown in your turn's table, in columns: four-corners' longest name,
#: "out, stake in the centre" (a longer one is broken there).
STANDING_WIDTH = 24


class Narrator:
    """The game's event listener for the terminal.

    ``me``: the person's game seat (None: nobody's seat is special). ``compact``: print every
    turn as one line (``--autoplay``). In table style, opponents' turns are kept until the
    person's next turn (:meth:`turn_panel`) or the round's end. Once the person is out of the
    game the rest is told compactly.
    """

    def __init__(
        self,
        console: Console,
        names: Sequence[str],
        me: int | None = 0,
        *,
        compact: bool = False,
        game: Session | None = None,
        pause: Callable[[], None] | None = None,
        delay: float = 0.0,
    ) -> None:
        self.console = console
        self.names = list(names)
        self.me = me
        self.compact = compact
        self.game = game  # to show your own hand in compact style
        self.knocker: int | None = None
        self.round_seats: list[int] = []
        self.recent: dict[int, list[Text]] = {}
        #: The same turns in the order they were played (told so at the round's end).
        self.recent_seq: list[tuple[int, Text]] = []
        self._my_turns = 0
        self._me_out = False
        self._alive = len(self.names)
        #: Called after each round's result (wait for Enter); None: no pause.
        self.pause = pause
        #: Seconds to wait after each computer player's turn.
        self.delay = delay
        #: The head of the round under way and every turn of it, for the round log.
        self.head = Text("")
        self.story: list[Text] = []

    @property
    def rules(self) -> Rules:
        """The game's rules (standard until the game is known)."""
        return self.game.rules if self.game is not None else Rules.standard()

    @property
    def watching(self) -> bool:
        """True when turns are told one line each (compact style, or the person is out)."""
        return self.compact or self.me is None or self._me_out

    def __call__(self, event: Event) -> None:
        handler = getattr(self, f"_on_{event.kind}", None)
        if handler is not None:
            handler(event)

    # -- events

    def _on_deal(self, event: Event) -> None:
        data = event.data
        self.knocker = None
        self.round_seats = list(data["seats"])
        self.recent, self.recent_seq = {}, []
        self._my_turns = 0
        self.story = []
        head = Text(f"Round {event.round}", style="bold")
        head.append(" · dealer ")
        head.append_text(name_text(self.names, data["dealer"], self.me))
        head.append(" · upcard ")
        head.append_text(card_text(data["upcard"]))
        self.head = head
        if self.watching:
            self.console.print(head)
        else:
            self.console.print()
            self.console.print(Rule(head, align="left"))

    def _on_turn(self, event: Event) -> None:
        data = event.data
        seat = data["seat"]
        if data["action"] == "knock":
            self.knocker = seat
        shown = self._shown(seat) if data.get("showed_31") else "31"
        self.story.append(
            name_text(self.names, seat, self.me)
            .append(" ")
            .append_text(describe_turn(data, reveal=seat == self.me, shown=shown))
        )
        if seat == self.me:  # what the others do next is "since your last turn"
            self.recent, self.recent_seq = {}, []
            self._my_turns += 1
        if self.watching:
            line = Text("  ").append_text(name_text(self.names, seat, self.me))
            if seat == self.me:
                hand = self._my_hand()
                if hand is not None:
                    line.append(" [")
                    line.append_text(cards_text(hand[0]))
                    line.append(f" = {fmt_score(hand[1])}]")
            line.append(": ")
            line.append_text(describe_turn(data, reveal=seat == self.me, shown=shown))
            self.console.print(line)
            if self.delay > 0 and seat != self.me:
                time.sleep(self.delay)
        elif seat == self.me:
            line = Text("You " if self.names[seat] == "You" else "You (")
            if self.names[seat] != "You":
                line.append_text(name_text(self.names, seat, self.me)).append(") ")
            line.append_text(describe_turn(data, reveal=True, shown=shown))
            if not line.plain.endswith(("!", ".")):
                line.append(".")
            self.console.print(line)
        else:
            self.recent.setdefault(seat, []).append(describe_turn(data, shown=shown))
            self.recent_seq.append((seat, describe_turn(data, shown=shown)))

    def _on_round_end(self, event: Event) -> None:
        self._alive = sum(1 for n in event.data["lives"] if not self.rules.is_out(n))
        self._flush_recent()
        self.console.print(
            round_result(event, self.names, self.me, compact=self.watching, rules=self.rules)
        )
        if self.pause is not None and self._alive >= 2:  # (not after the last round)
            self.pause()

    def _on_wash(self, event: Event) -> None:
        self._flush_recent()
        self.console.print(
            round_result(event, self.names, self.me, compact=self.watching, rules=self.rules)
        )

    def _on_county(self, event: Event) -> None:
        seat = event.data["seat"]
        line = name_text(self.names, seat, self.me)
        you = self.names[seat] == "You"
        where = self.rules.standing(0)
        verb = " are " if you else " is "
        line.append(verb + (where if where.startswith("on ") else f"on the county ({where})"))
        who = "you" if you else "them"
        line.append(f": the next loss puts {who} out.", style=WARN_STYLE)
        self.console.print(Padding(line, (0, 0, 0, 2), expand=False) if self.watching else line)

    def _on_out(self, event: Event) -> None:
        seat = event.data["seat"]
        line = Text("Out: ", style=BAD_STYLE)
        line.append_text(name_text(self.names, seat, self.me))
        line.append(f", {ordinal(event.data['place'])} place.")
        self.console.print(Padding(line, (0, 0, 0, 2), expand=False) if self.watching else line)
        if seat == self.me and not self.watching:
            self._me_out = True
            if self._alive >= 2:
                self.console.print(
                    Text("You are out of the game; the others play on.", style="dim")
                )

    def _on_game_over(self, event: Event) -> None:
        self.console.print()
        self.console.print(placing(event, self.names, self.me))

    # -- the person's turn

    def turn_panel(self, view: SeatView) -> RenderableType:
        """The table as the person sees it at the start of their turn (forgets the recent moves)."""
        game = self.game
        assert game is not None, "the narrator tells a game"
        me = view.seat
        # (Expanded to the box, the last column taking what is left: the rule under the header
        # spans the box also when the hand's line is wider than the rows, as when all say "—".)
        rows = Table(
            box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False, show_edge=False, expand=True
        )
        rows.add_column("Player")
        # (A name of the lives may be 40 characters, 80 columns of wide ones: kept to the width
        # of four-corners' longest and broken within it, it leaves the moves their column.)
        unit = "Letters" if game.rules.gin else "Lives"
        rows.add_column(unit, justify="right", max_width=STANDING_WIDTH, overflow="fold")
        head = "This round so far" if self._my_turns == 0 else "Since your last turn"
        rows.add_column(head, ratio=1)
        n = len(game.lives)
        for step in range(1, n):
            seat = (me + step) % n
            lives = game.lives[seat]
            did = self.recent.get(seat, [])
            who = name_text(self.names, seat, me)
            if seat == self.knocker:
                who.append(" (knocked)", style=WARN_STYLE)
            if game.rules.is_out(lives) or seat in game.places:
                rows.add_row(who, Text(standing_text(lives, game.rules), style="dim"), Text(""))
            else:
                rows.add_row(
                    who,
                    standing_text(lives, game.rules),
                    Text("; then ").join(did) if did else Text("—"),
                )
        parts: list[RenderableType] = [rows]
        if self.knocker is not None:
            warn = name_text(self.names, self.knocker, me)
            warn.append(" has knocked: this is your final turn.", style=WARN_STYLE)
            parts.append(warn)
        table_line = Text("Top of the pile: ").append_text(card_text(view.top))
        stock = view.stock_len
        table_line.append("   Stock: ")
        if stock:
            table_line.append(f"{stock} card" + ("" if stock == 1 else "s"))
        else:
            table_line.append("empty", style=WARN_STYLE)
            table_line.append(" (nobody may knock: take the top card or decline)")
        parts.append(table_line)
        hand = Text("Your hand: ", style="bold").append_text(cards_text(list(view.hand)))
        hand.append(f"   score {self._counted(view)}", style="bold")
        if game.rules.life_names:  # (under Gin lives too: the names stand for the letters)
            hand.append(f"   · you are: {game.standing(me)}")
        elif game.rules.gin:
            letters = game.rules.letters(game.lives[me])
            said = f"you have {letters}" if letters == NO_LETTERS else f"your letters: {letters}"
            hand.append(f"   · {said}")
        elif game.on_county(me):
            hand.append("   · you are on the county: ")
            hand.append("the next loss puts you out", style=WARN_STYLE)
        else:
            hand.append(f"   · your lives: {game.lives[me]}")
        parts.append(hand)
        title = f"Round {game.round_number} · your turn"
        if self.knocker is not None:
            title += " · FINAL TURN"
        return Panel(
            Group(*parts), title=title, title_align="left", border_style="cyan", expand=False
        )

    def round_log(self, view: SeatView) -> RenderableType:
        """The round so far, every turn in order, and the discard pile, bottom to top."""
        lines = [self.head.copy()]
        lines += [Text("  ").append_text(t) for t in self.story] or [Text("  (no turn yet)")]
        cards = list(view.pile)
        pile = Text("Discard pile, bottom to top: ")
        pile.append_text(cards_text(cards) if cards else Text("(empty)", style="dim"))
        lines.append(pile)
        return Panel(Text("\n").join(lines), title="The round so far", title_align="left")

    # -- helpers

    def _flush_recent(self) -> None:
        """Tell the turns played since the person's last one, in the order they were played."""
        if not self.watching:
            for seat, did in self.recent_seq:
                line = Text("  ").append_text(name_text(self.names, seat, self.me))
                self.console.print(line.append(" ").append_text(did))
        self.recent, self.recent_seq = {}, []

    def _shown(self, seat: int) -> str:
        """The 31 that ``seat`` has just shown, in the table's words (:func:`shown_words`)."""
        round_ = self.game.round if self.game is not None else None
        if round_ is None or seat not in self.round_seats:
            return "31"
        return shown_words(round_.score(self.round_seats.index(seat)), self.rules)

    def _counted(self, view: SeatView) -> str:
        """What the hand of the seat to move counts: a 31 kept hidden counts 30."""
        round_ = self.game.round if self.game is not None else None
        r = view.pending.round_seat
        if round_ is not None and round_.hid_31(r):
            return counted(round_.counted_score(r), hidden=True)
        return fmt_score(view.score)

    def _my_hand(self) -> tuple[list[str], float] | None:
        game = self.game
        if game is None or game.round is None or self.me not in self.round_seats:
            return None
        i = self.round_seats.index(self.me)
        return game.round.hand(i), game.round.score(i)
