"""The game loop: seats, lives, the deal passing left, rounds, elimination, placing, the wash.

A round itself (turns, knock, final turns, 31 shown or hidden, the blind showdown, the stock
running out, what it costs in lives or Gin letters) is played by the Rust core's
:class:`thirtyone._core.Round`; this module runs rounds one after another, applies the game-level
rules (lives, the county, placing and ranked points) and keeps the game's record as a list of
:class:`Event`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from thirtyone import _core
from thirtyone.cards import parse_cards, shuffled_pack
from thirtyone.errors import IllegalMoveError, RuleError
from thirtyone.players import ComputerPlayer, Player
from thirtyone.rules import Rules
from thirtyone.turn import Turn


@dataclass(frozen=True)
class Event:
    """One thing that happened. ``kind`` is one of:

    - ``deal``: ``dealer``, ``first`` (game seats), ``upcard``, ``seats`` (the game seats dealt in,
      in turn order);
    - ``turn``: ``seat``, ``action`` (``knock``/``draw``/``take``/``decline``/``blind``: the
      blind showdown called), ``card`` (the card taken from the pile; a stock draw is hidden from
      the others but recorded as ``drew``), ``discard``, ``showed_31``, and ``hid_31`` when the
      player kept a 31 hidden (known only to them);
    - ``round_end``: ``end`` (``dealt_31``, ``thirty_one``, ``showdown``, ``stock_out``,
      ``blind``), ``by`` (who showed 31, declined or called the blind showdown), ``knocker``,
      ``hands``, ``scores`` (what each hand counted: a hidden 31 counts 30), ``losses`` (lives,
      or letters under Gin lives), ``lives`` (after the round; all game seats; with the county
      0 is on the county and below 0 is out), and ``hidden_31`` (the seats that held a hidden 31)
      when there were any;
    - ``mid_turn``: ``seat`` has taken a step of their turn that cannot be taken back, ``step``
      (``look``: looked at the cards at a blind table; ``draw``; ``take``); the card is not
      given. Listeners see it (saved games are written then); :attr:`Game.events` does not keep
      it, since the ``turn`` event that ends the turn tells the whole turn.
    - ``wash``: the round would have left nobody in the game; nothing is lost, it is dealt again;
    - ``county``: ``seat`` has lost their last life and plays on on the county;
    - ``out``: ``seat`` and ``place``;
    - ``game_over``: ``winner``, ``placing`` (game seats, first place first), and under ranked
      placing ``points`` (by game seat: 3, 2, 1 for the first three places, 0 for the rest).
    """

    kind: str
    round: int
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class RoundLog:
    """Who played a round, and where it started. Its turns are in the round's own record (the
    core's :attr:`thirtyone._core.Round.turns`)."""

    number: int
    dealer: int
    seats: list[int]  # game seats in turn order (round seat i is seats[i])
    first: int  # round seat that plays first
    upcard: str


class Game:
    """A game of Thirty-One.

    ``players``: one per seat (default: seat 0 is ``you``, to be played by the caller's player,
    and the others :class:`~thirtyone.players.ComputerPlayer`). ``seed`` makes the dealer draw and
    every deal reproducible. Listeners given to ``on_event`` see each :class:`Event` as it happens.
    ``decks`` (for tests and replays) supplies the packs to deal, one per round, in order; after
    it runs out, packs are shuffled as usual.
    """

    def __init__(
        self,
        rules: Rules | None = None,
        players: Sequence[Player] | None = None,
        *,
        seed: int | None = None,
        names: Sequence[str] | None = None,
        on_event: Callable[[Event], None] | None = None,
        decks: Iterable[Sequence[str]] | None = None,
    ) -> None:
        self.rules = rules or Rules.standard()
        n = self.rules.seats
        if players is None:
            players = [ComputerPlayer(f"Computer {i}") for i in range(n)]
        if len(players) != n:
            raise RuleError(f"rule seats: {n} seats but {len(players)} players")
        self.players = list(players)
        self.names = list(names) if names else [p.name for p in self.players]
        self.rng = random.Random(seed)
        self.lives = [self.rules.lives] * n
        self.dealer = self.rng.randrange(n)
        self.round_number = 0
        self.events: list[Event] = []
        #: Every action applied to a round, in order (``["draw"]``, ``["put", "AH"]``, …): with
        #: the seed, enough to replay the game exactly (see :mod:`thirtyone.saves`).
        self.journal: list[_core.Action] = []
        self.logs: list[RoundLog] = []
        self.places: dict[int, int] = {}
        self.winner: int | None = None
        self._round: _core.Round | None = None
        self._listeners: list[Callable[[Event], None]] = [on_event] if on_event else []
        self._decks: Iterator[Sequence[str]] | None = iter(decks) if decks is not None else None

    # -- state ----------------------------------------------------------------------------------

    @property
    def active(self) -> list[int]:
        """Game seats still in the game, in seat order."""
        return [s for s in range(self.rules.seats) if s not in self.places]

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def round(self) -> _core.Round | None:
        """A copy of the current (or last) round, hidden cards included: for views, displays
        and tests. Changing it changes nothing in the game; players act through their
        :class:`Turn`."""
        return None if self._round is None else self._round.copy()

    def on_county(self, seat: int) -> bool:
        """Whether ``seat`` has lost their last life and plays on on the county."""
        return seat not in self.places and self.rules.on_county(self.lives[seat])

    def standing(self, seat: int) -> str:
        """``seat``'s lives in words (``2 lives``, ``on the county``, ``G I``, ``middle of the
        bus``, ``out``)."""
        return self.rules.standing(self.lives[seat])

    def points(self) -> dict[int, int] | None:
        """Under ranked placing, the points of every placed seat (3, 2, 1, then 0); None when
        the winner takes all."""
        if self.rules.placing != "ranked":
            return None
        return {s: self.rules.points(p) or 0 for s, p in self.places.items()}

    def placing(self) -> list[int]:
        """Game seats by place, first place first (only those placed so far)."""
        return sorted(self.places, key=lambda s: self.places[s])

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """The current round as ``seat`` sees it (default: the player to move), in the Oracle's
        input format (``oracle.md``): ``thirtyone.advise(game.view())``."""
        from thirtyone.state import from_game

        return from_game(self, seat)

    def add_listener(self, listener: Callable[[Event], None]) -> None:
        self._listeners.append(listener)

    def _emit(self, kind: str, **data: Any) -> None:
        event = Event(kind, self.round_number, data)
        if kind != "mid_turn":  # told again, whole, by the turn event: not kept in the record
            self.events.append(event)
        for listener in self._listeners:
            listener(event)

    def _next_active(self, seat: int) -> int:
        n = self.rules.seats
        for step in range(1, n + 1):
            s = (seat + step) % n
            if s not in self.places:
                return s
        return seat

    # -- play -----------------------------------------------------------------------------------

    def play(self) -> int:
        """Play rounds until one player is left; returns the winner's seat."""
        while not self.over:
            self.play_round()
        assert self.winner is not None
        return self.winner

    def play_round(self) -> None:
        """Deal and play one round (dealt again after a wash), then settle lives and places."""
        if self.over:
            raise IllegalMoveError("the game is over")
        while True:
            self.round_number += 1
            seats = self._turn_order()
            deck = self._next_deck()
            first = 0  # round seats start at the dealer's left
            round_ = self._round = _core.Round(self.rules.round_rules(), len(seats), first, deck)
            log = RoundLog(self.round_number, self.dealer, seats, first, round_.top)
            self.logs.append(log)
            self._emit(
                "deal", dealer=self.dealer, first=seats[first], upcard=round_.top, seats=seats
            )
            while not round_.is_over:
                turn = Turn(self, round_, log)
                self.players[turn.seat].play(turn)
                if not round_.is_over and round_.to_move == turn.round_seat:
                    raise IllegalMoveError(f"{self.names[turn.seat]} did not finish the turn")
            if self._settle(round_, log):
                break
        self.dealer = self._next_active(self.dealer)

    def _next_deck(self) -> list[str]:
        if self._decks is not None:
            deck = next(self._decks, None)
            if deck is not None:
                return parse_cards(deck, what="deck")
            self._decks = None
        return shuffled_pack(self.rng)

    def _turn_order(self) -> list[int]:
        """Game seats dealt in, in turn order starting at the dealer's left."""
        start = self._next_active(self.dealer)
        order = [start]
        while (s := self._next_active(order[-1])) != start:
            order.append(s)
        return order

    def _settle(self, round_: _core.Round, log: RoundLog) -> bool:
        """Apply the round's losses. Returns False for a wash (the round is dealt again)."""
        seats = log.seats
        losses = round_.losses()
        scores = [round_.counted_score(i) for i in range(len(seats))]
        hidden = [seats[i] for i in range(len(seats)) if round_.hid_31(i)]
        end, by = round_.end or ("showdown", None)
        data: dict[str, Any] = {
            "end": end,
            "by": seats[by] if by is not None else None,
            "knocker": seats[round_.knocker] if round_.knocker is not None else None,
            "hands": {seats[i]: round_.hand(i) for i in range(len(seats))},
            "scores": {seats[i]: scores[i] for i in range(len(seats))},
            "losses": {seats[i]: losses[i] for i in range(len(seats))},
        }
        if hidden:
            data["hidden_31"] = hidden
        rules = self.rules
        wash, after, out = _core.settle(
            [self.lives[s] for s in seats], losses, scores, log.first, rules.county
        )
        if wash:
            self._emit("wash", **data)
            return False
        county_before = {s for s in seats if rules.on_county(self.lives[s])}
        for i, s in enumerate(seats):
            self.lives[s] = after[i]
        data["lives"] = list(self.lives)
        self._emit("round_end", **data)
        for s in seats:
            if rules.on_county(self.lives[s]) and s not in county_before:
                self._emit("county", seat=s)
        # Players out this round (the core orders them): the lower hand takes the lower place;
        # equal hands in seat order from the dealer's left (the earlier one takes the lower
        # place).
        place = len(self.active)
        for i in out:
            self.places[seats[i]] = place
            self._emit("out", seat=seats[i], place=place)
            place -= 1
        if len(self.active) == 1:
            self.winner = self.active[0]
            self.places[self.winner] = 1
            result: dict[str, Any] = {"winner": self.winner, "placing": self.placing()}
            points = self.points()
            if points is not None:
                result["points"] = points
            self._emit("game_over", **result)
        return True
