"""A player's turn: what they see of the round, and the actions they may take.

A player never holds the round itself: :class:`Turn` shows the player's hand, the top discard,
the stock's size and the legal :class:`~thirtyone._core.Action` values, and every action goes
through it to the game's :class:`~thirtyone.session.Session`, so the game's record, events and
saved journal see each one.
"""

from __future__ import annotations

from thirtyone import _core
from thirtyone._core import Action
from thirtyone.game.session import RoundLog, Session


class Turn:
    """The turn of one player: the actions they may take, and what they can see.

    A player calls :meth:`knock`, :meth:`draw`, :meth:`take` or :meth:`decline`, and after a draw
    or take :meth:`put_down`. Illegal actions raise :class:`~thirtyone.errors.IllegalMoveError`
    with the rules' reason (:meth:`why_not` gives it before trying).
    """

    def __init__(self, game: Session, round_: _core.Round, log: RoundLog) -> None:
        self.game = game
        self._round = round_
        self._log = log
        self.round_seat = round_.to_move
        self.seat = log.seats[self.round_seat]

    # -- what the player sees --------------------------------------------------------------------

    @property
    def hand(self) -> list[str]:
        return self._round.hand(self.round_seat)

    @property
    def score(self) -> float:
        return self._round.score(self.round_seat)

    @property
    def top(self) -> str:
        return self._round.top

    @property
    def pending(self) -> tuple[str, str] | None:
        """After a draw: (the new card, ``"stock"`` or ``"pile"``)."""
        return self._round.pending

    @property
    def stock_len(self) -> int:
        return self._round.stock_len

    @property
    def turns_played(self) -> int:
        """Turns played this round before this one."""
        return self._round.turns_played

    @property
    def knocker(self) -> int | None:
        """The round seat that knocked, if anybody has."""
        return self._round.knocker

    @property
    def round_over(self) -> bool:
        """True once the round has ended (at a blind table, looking may find a dealt 31)."""
        return self._round.is_over

    @property
    def done(self) -> bool:
        """True once this turn is over (the next player is to move, or the round ended)."""
        return self._round.is_over or self._round.to_move != self.round_seat

    @property
    def blind(self) -> bool:
        """True at a blind table before anybody has looked at their cards: the first player may
        :meth:`call_blind` or :meth:`look`."""
        return self._round.phase == "blind"

    def pile(self) -> list[str]:
        """The discard pile, bottom to top (a card taken this turn is in your hand until you put
        one down)."""
        return self._round.pile()

    def legal(self) -> list[Action]:
        """The actions allowed now."""
        return self._round.legal_actions()

    def why_not(self, action: Action) -> str | None:
        """Why ``action`` is not allowed now, in the rules' words; None when it is."""
        return self._round.why_not(action)

    def may_hide(self, card: str) -> bool:
        """Whether putting ``card`` down leaves a 31 this player may keep hidden."""
        return Action("hide", card) in self.legal()

    # -- actions ---------------------------------------------------------------------------------

    def knock(self) -> None:
        self.game.apply(Action("knock"))

    def draw(self) -> str:
        self.game.apply(Action("draw"))
        new, _ = self._round.pending or ("", "")
        return new

    def take(self) -> str:
        top = self._round.top
        self.game.apply(Action("take"))
        return top

    def decline(self) -> None:
        self.game.apply(Action("decline"))

    def put_down(self, card: str, *, hide: bool = False) -> None:
        """Put ``card`` down. ``hide``: keep the 31 it leaves hidden (only where the table allows
        it, ``may_hide_31``, and only when the put-down leaves a 31: see :meth:`may_hide`)."""
        self.game.apply(Action("hide" if hide else "put", card))

    def call_blind(self) -> None:
        """Call the blind showdown (``first_turn_knock = blind``), before looking: the dealt
        hands are shown, the lowest loses one, two if it is the caller."""
        self.game.apply(Action("blind"))

    def look(self) -> None:
        """Do not call the blind showdown: everybody looks at their cards. A dealt 31 then ends
        the round (:attr:`round_over`); otherwise the turn goes on as usual."""
        self.game.apply(Action("look"))

    def play_by_rule(self, knock_at: float | None) -> None:
        """Play the whole turn by the table's decision rule, knocking from ``knock_at`` (None:
        never). The rule never calls the blind showdown and always shows a 31; a turn already
        under way (a resumed game left after a draw or take) is finished by the rule's put-down.
        """
        if self.pending is not None:
            new, source = self.pending
            rules = self.game.rules.round_rules()
            self.put_down(_core.choose_put_down(self.hand, new, source == "pile", rules))
            return
        self.game.play_rule_turn(knock_at)
