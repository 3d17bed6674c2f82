"""A game driven by its players: each seat's :class:`~thirtyone.players.Player` is asked for its
whole turn through a :class:`~thirtyone.turn.Turn`.

The game itself — lives, the county, placing, the wash, the deal passing left, the rounds and
the journal — is the :class:`~thirtyone.session.Session` it is built on; :class:`Game` only adds
the loop that asks each player in turn (:meth:`Game.play`, :meth:`Game.play_round`). A round
itself is played by the Rust core's :class:`thirtyone._core.Round`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from thirtyone.errors import IllegalMoveError, RuleError
from thirtyone.game.players import ComputerPlayer, Player
from thirtyone.game.rules import Rules
from thirtyone.game.session import Event, RoundLog, Session
from thirtyone.game.turn import Turn

__all__ = ["Event", "Game", "RoundLog"]


class Game(Session):
    """A game of Thirty-One played by its players.

    ``players``: one per seat (default: :class:`~thirtyone.players.ComputerPlayer` at every
    seat). ``seed`` makes the dealer draw and every deal reproducible. Listeners given to
    ``on_event`` see each :class:`Event` as it happens. ``decks`` (for tests and replays)
    supplies the packs to deal, one per round, in order; after it runs out, packs are shuffled
    as usual.
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
        rules = rules or Rules.standard()
        n = rules.seats
        if players is None:
            players = [ComputerPlayer(f"Computer {i}") for i in range(n)]
        if len(players) != n:
            raise RuleError(f"rule seats: {n} seats but {len(players)} players")
        self.players = list(players)
        super().__init__(
            rules,
            seed=seed,
            names=list(names) if names else [p.name for p in self.players],
            on_event=on_event,
            decks=decks,
        )

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
            self.deal()
            round_, log = self._round, self.logs[-1]
            assert round_ is not None
            while not round_.is_over:
                turn = Turn(self, round_, log)
                self.players[turn.seat].play(turn)
                if not round_.is_over and round_.to_move == turn.round_seat:
                    raise IllegalMoveError(f"{self.names[turn.seat]} did not finish the turn")
            if not self.washed:
                break
