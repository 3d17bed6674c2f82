"""One game of Thirty-One as a session that any front-end drives by pushing actions.

:class:`Session` holds a game from its first deal to its end: the seats' lives, the dealer, the
rounds (each one the Rust core's :class:`thirtyone._core.Round`, which keeps the round's record),
the places, and the game's one journal of actions. Its transitions:

- :meth:`Session.pending` says whose decision it is and what is legal (:class:`Pending`);
- :meth:`Session.act` applies a decision of the seat to move and returns the events it caused,
  with the computer seats' moves up to the next decision of a seat without a policy (a person);
- :meth:`Session.apply` applies one action and nothing more, :meth:`Session.deal` deals the next
  round: the steps :meth:`act` is made of, for a driver that runs every seat itself.

Computer seats are :class:`Policy` objects (``decide(view) -> Action``) that own no loop.
Listeners (a save, the record, a narrator) see every :class:`Event` as it happens.
"""

from __future__ import annotations

import contextlib
import random
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from thirtyone import _core
from thirtyone._core import Action
from thirtyone.errors import IllegalMoveError, RuleError, StateError
from thirtyone.game.cards import parse_cards, shuffled_pack
from thirtyone.game.rules import Rules
from thirtyone.game.seats import (
    Pending,
    Policy,
    SeatView,
    TablePolicy,
    checked_listener,
    game_seed,
    model_of,
    model_wanted,
    name_wanted,
    not_an_action,
    not_looked,
    per_seat,
    policy_wanted,
)
from thirtyone.names import what_it_is

__all__ = ["Event", "Game", "Pending", "Policy", "SeatView", "Session", "TablePolicy"]


@dataclass(frozen=True)
class Event:
    """One thing that happened. ``kind`` is one of:

    - ``deal``: ``dealer``, ``first`` (game seats), ``upcard``, ``seats`` (dealt in, turn order);
    - ``turn``: ``seat``, ``action`` (``knock``/``draw``/``take``/``decline``/``blind``: the
      blind showdown called), ``card`` (the card taken from the pile; a stock draw is hidden from
      the others but recorded as ``drew``), ``discard``, ``showed_31``, and ``hid_31`` when the
      player kept a 31 hidden (known only to them);
    - ``round_end``: ``end`` (``dealt_31``, ``thirty_one``, ``showdown``, ``stock_out``,
      ``blind``), ``by`` (who showed 31, declined or called the blind showdown), ``dealt`` (after
      a dealt 31: the seats dealt it, who alone lose nothing), ``knocker``, ``hands``, ``scores``
      (what each hand counted: a hidden 31 counts 30), ``losses`` (lives, or letters under Gin
      lives), ``lives`` (after the round; all game seats; with the county 0 is on the county and
      below 0 is out), ``hidden_31`` (the seats that held a hidden 31) when there were any, and
      ``shown_31`` (the seats that showed a 31 after the knock, each of which cost every other
      hand 1, at a table where the round then goes on) when there were any;
    - ``mid_turn``: ``seat`` has taken a step of their turn that cannot be taken back, ``step``
      (``look``: looked at the cards at a blind table; ``draw``; ``take``); the card is not
      given. Listeners see it (saved games are written then); :attr:`Session.events` does not
      keep it, since the ``turn`` event that ends the turn tells the whole turn.
    - ``wash``: the round would have left nobody in the game; nothing is lost, it is dealt again;
    - ``county``: ``seat`` has lost their last life and plays on on the county;
    - ``out``: ``seat`` and ``place``;
    - ``game_over``: ``winner``, ``placing`` (game seats, first place first), and under ranked
      placing ``points`` (by game seat: 3, 2, 1 for the first three places, 0 for the rest).
    """

    kind: str
    round: int
    data: dict[str, Any] = field(default_factory=dict)


class Session:
    """A game of Thirty-One (see the module's doc).

    ``policies``: one per seat, the computer seats' :class:`Policy` and None for a seat whose
    actions are pushed (a person); none given: every seat is pushed. ``seed`` makes the dealer
    draw and every deal reproducible. ``names``: one per seat (default ``Seat 1``, …).
    ``decks`` (for tests and replays) supplies the packs to deal, one per round, in order; after
    it runs out, packs are shuffled as usual.
    """

    def __init__(
        self,
        rules: Rules | None = None,
        policies: Sequence[Policy | None] | None = None,
        *,
        seed: int | None = None,
        names: Sequence[str] | None = None,
        on_event: Callable[[Event], None] | None = None,
        decks: Iterable[Sequence[str]] | None = None,
        models: Sequence[str] | None = None,
    ) -> None:
        self.rules = rules or Rules.standard()
        if not isinstance(self.rules, Rules):
            raise RuleError(
                'rules must be a thirtyone.Rules, such as Rules.preset("scat") or '
                f"Rules.from_spec({{...}}), not {what_it_is(rules)}"
            )
        n = self.rules.seats
        self.policies: list[Policy | None] = per_seat(policies, n, "policies", policy_wanted)
        if not self.policies:
            self.policies = [None] * n
        #: How the Oracle reads each game seat (``models`` of :meth:`view`): as given, else
        #: each seat's policy's (:func:`model_of`; a seat without one: the table's rule).
        self.models = per_seat(models, n, "models", model_wanted) or [
            model_of(p) for p in self.policies
        ]
        self.names = per_seat(names, n, "names", name_wanted) or [f"Seat {i + 1}" for i in range(n)]
        self.rng = random.Random(game_seed(seed))
        self.lives = [self.rules.lives] * n
        self.dealer = self.rng.randrange(n)
        self.round_number = 0
        self.events: list[Event] = []
        #: Every action applied to a round, in order (``["draw"]``, ``["put", "AH"]``, …): with
        #: the seed, enough to replay the game exactly (see :mod:`thirtyone.store.saves`).
        self.journal: list[Action] = []
        #: The game seats dealt in the current (or last) round, in turn order (round seat i is
        #: ``seats[i]``), and the rounds dealt so far (washes included).
        self.seats: list[int] = []
        self.rounds_dealt = 0
        self.places: dict[int, int] = {}
        self.winner: int | None = None
        self._round: _core.Round | None = None
        self._listeners = [] if on_event is None else [checked_listener(on_event, "on_event")]
        self._decks: Iterator[Sequence[str]] | None = None
        if decks is not None:
            try:
                self._decks = iter(decks)
            except TypeError:
                raise StateError(
                    f"decks must be packs to deal, one per round, not {what_it_is(decks)}"
                ) from None
        self._told: list[Event] | None = None  # the events of the step under way
        #: The last round dealt was a wash (it must be dealt again).
        self.washed = False
        #: The id of the save that keeps this game (set by the save's writer), by which the
        #: record of games records it once; None: no save keeps it.
        self.game_id: str | None = None

    # -- state ----------------------------------------------------------------------------------

    @property
    def active(self) -> list[int]:
        """Game seats still in the game, in seat order."""
        return [s for s in range(self.rules.seats) if s not in self.places]

    @property
    def over(self) -> bool:
        """Whether the game is over: one player is left (:attr:`winner`)."""
        return self.winner is not None

    @property
    def round(self) -> _core.Round | None:
        """A copy of the current (or last) round, hidden cards included: for views, displays
        and tests. Changing it changes nothing in the game."""
        return None if self._round is None else self._round.copy()

    @property
    def turns_played(self) -> int:
        """Turns played so far in the current (or last) round (0 before the first deal)."""
        return 0 if self._round is None else self._round.turns_played

    @property
    def pending(self) -> Pending | None:
        """The decision the game waits for; None before a round is dealt, between rounds (see
        :meth:`deal`) and once the game is over."""
        round_ = self._round
        if round_ is None or round_.is_over:
            return None
        r = round_.to_move
        phase = round_.phase
        return Pending(self.seats[r], r, phase, tuple(round_.legal_actions()))

    def seat_view(self) -> SeatView:
        """What the seat to move sees (raises :class:`IllegalMoveError` with no decision). At the
        blind call (phase ``blind``) nobody has looked at a card: the view holds no hand (an
        empty ``hand``, ``score`` 0) and its :meth:`~SeatView.state` raises
        :class:`StateError`."""
        pending = self.pending
        if pending is None or self._round is None:
            raise IllegalMoveError("no decision is pending")
        round_, r = self._round, pending.round_seat
        seats = self.seats
        looked = pending.phase != "blind"
        return SeatView(
            pending,
            tuple(round_.hand(r)) if looked else (),
            round_.score(r) if looked else 0.0,
            round_.top,
            round_.pending,
            round_.stock_len,
            round_.may_knock(),
            self.rules,
            pile=tuple(round_.pile()),
            knocker=round_.knocker,
            names=tuple(self.names[s] for s in seats),
            rounds_dealt=self.rounds_dealt,
            round_number=self.round_number,
            turns_played=round_.turns_played,
            _state=(lambda: self.view(pending.seat)) if looked else not_looked,
        )

    def why_not(self, action: Action) -> str | None:
        """Why the seat to move may not take ``action`` now, in the rules' words (None: it
        may)."""
        if self._round is None or self._round.is_over:
            return self._no_round()
        if not isinstance(action, Action):
            return not_an_action(action)
        return self._round.why_not(action)

    def _no_round(self) -> str:
        """Why no decision is pending: the game is over, or no round is under way."""
        return "the game is over" if self.over else "no round is under way"

    def _game_seat(self, seat: object) -> int:
        """``seat`` checked as one of the game's seats (0 to one less than the players): a
        whole number, not a bool (which Python counts as 0 or 1). Raises :class:`StateError`
        naming it (an index past the end was an ``IndexError``, and -1 read the last seat)."""
        n = len(self.names)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            shown = seat if isinstance(seat, int) and not isinstance(seat, bool) else None
            said = what_it_is(seat) if shown is None else str(shown)
            raise StateError(f"seat must be a whole number from 0 to {n - 1}, not {said}")
        return seat

    def who(self, seat: int) -> str:
        """Game seat ``seat`` in a message: ``seat 2 (Cy)``, or ``seat 3`` where its name is
        the default one (``Seat 4``)."""
        name = self.names[self._game_seat(seat)]
        return f"seat {seat}" if name == f"Seat {seat + 1}" else f"seat {seat} ({name})"

    def on_county(self, seat: int) -> bool:
        """Whether ``seat`` has lost their last life and plays on on the county."""
        return seat not in self.places and self.rules.on_county(self.lives[self._game_seat(seat)])

    def standing(self, seat: int) -> str:
        """``seat``'s lives in words (``2 lives``, ``on the county``, ``G I``, ``middle of the
        bus``, ``out``)."""
        return self.rules.standing(self.lives[self._game_seat(seat)])

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
        """The current round as game seat ``seat`` sees it (default: the player to move), in the
        Oracle's input format (``oracle.md``): ``thirtyone.advise(session.view())``. Seats are
        renumbered to the players still in the game, in turn order. When an opponent is not a
        player of the table's rule, ``models`` says how each seat plays (:attr:`models`). With no
        decision pending (the game over, or between rounds) it raises :class:`StateError`. At the
        blind call it holds the hands as dealt, which nobody has looked at yet: what the seat
        decides with then is :meth:`seat_view` (no hand), and ``advise(session)`` is refused."""
        round_ = self._round
        if round_ is None or round_.is_over:  # (lives settled: no longer the round's)
            raise StateError(f"{self._no_round()}: no decision is pending")
        seats = self.seats
        if seat is None:
            seat = seats[round_.to_move]
        if self._game_seat(seat) not in seats:
            raise StateError(f"seat {seat} is not in this round")
        rules = {"preset": "standard", **self.rules.to_dict()}
        state = round_.view(seats.index(seat), rules, [self.lives[s] for s in seats])
        models: list[str | None] = [self.models[s] for s in seats]
        models[seats.index(seat)] = None
        if any(m not in (None, "table") for m in models):
            state["models"] = models
        return state

    def add_listener(self, listener: Callable[[Event], None]) -> None:
        """Call ``listener`` with every :class:`Event` from now on, as it happens (``mid_turn``
        events too, which :attr:`events` does not keep)."""
        self._listeners.append(checked_listener(listener, "a listener"))

    def _emit(self, kind: str, **data: Any) -> None:
        event = Event(kind, self.round_number, data)
        if kind != "mid_turn":  # told again, whole, by the turn event: not kept in the record
            self.events.append(event)
        if self._told is not None:
            self._told.append(event)
        for listener in self._listeners:
            listener(event)

    # -- transitions ----------------------------------------------------------------------------

    def act(self, action: Action) -> list[Event]:
        """Apply ``action`` for the seat to move, then play the computer seats (dealing the
        next rounds as they come) until a seat without a policy must decide or the game is over.
        Returns every event, in order. An illegal action raises :class:`IllegalMoveError` with
        the rules' reason and changes nothing."""
        told = self.apply(action)
        return told + self.advance()

    def advance(self) -> list[Event]:
        """Deal when no round is under way, and play the computer seats, until a seat without a
        policy must decide or the game is over. Returns the events."""
        told: list[Event] = []
        while not self.over:
            if self._round is None or self._round.is_over:
                told += self.deal()
                continue
            played = self.play_policy()
            if played is None:
                break
            told += played
        return told

    def play_policy(self) -> list[Event] | None:
        """Play one decision of the seat to move by its policy (a table policy's whole turn in
        one step) and return its events; None when the seat has no policy (a driver's seat)."""
        round_ = self._round
        assert round_ is not None
        seat = self.seats[round_.to_move]
        policy = self.policies[seat]
        if policy is None:
            return None
        if type(policy) is TablePolicy and round_.phase != "put_down":
            return self.play_rule_turn(policy.knock_at)  # the same turn, in one step
        action = policy.decide(self.seat_view())
        if not isinstance(action, Action):
            raise IllegalMoveError(
                f"{self.who(seat)}: its policy's decide returned {what_it_is(action)}, "
                "not an Action"
            )
        return self.apply(action)

    def to_move(self) -> Iterator[int]:
        """For a driver that plays every seat itself: deals each round as it comes and yields the
        game seat to move, until the game is over. The driver plays (:meth:`apply`,
        :meth:`play_rule_turn`) before asking for the next."""
        while not self.over:
            pending = self.pending
            if pending is None:
                self.deal()
            else:
                yield pending.seat

    def deal(self) -> list[Event]:
        """Deal the next round (again after a wash). Returns its events."""
        if self.over:
            raise IllegalMoveError("the game is over")
        if self._round is not None and not self._round.is_over:
            raise IllegalMoveError("a round is under way")
        with self._telling() as told:
            self.round_number += 1
            seats = self.rules.turn_order(self.lives, self.dealer)
            deck = self._next_deck()
            round_ = self._round = _core.Round(self.rules.round_rules(), len(seats), 0, deck)
            self.seats, self.rounds_dealt = seats, self.rounds_dealt + 1
            self._emit("deal", dealer=self.dealer, first=seats[0], upcard=round_.top, seats=seats)
            if round_.is_over:  # a dealt 31
                self._settle(round_)
        return told

    def apply(self, action: Action) -> list[Event]:
        """Apply one action of the seat to move, and nothing more (no computer seat plays, no
        round is dealt). Returns its events."""
        round_ = self._round
        if round_ is None or round_.is_over:
            raise IllegalMoveError(self._no_round())
        if not isinstance(action, Action):
            raise IllegalMoveError(not_an_action(action))
        seat = self.seats[round_.to_move]
        try:
            round_.apply(action)
        except IllegalMoveError as e:  # (the core names the round's seat: say the game's)
            raise IllegalMoveError(f"{self.who(seat)}: {_ROUND_SEAT.sub('', str(e))}") from None
        with self._telling() as told:
            if action.kind in ("put", "hide"):
                # Journalled as the card put down, in the core's spelling.
                self.journal.append(Action(action.kind, round_.top))
            else:
                self.journal.append(action)
            if action.kind in ("draw", "take", "look"):
                self._emit("mid_turn", seat=seat, step=action.kind)
            else:
                self._tell_turn(round_, seat)
            if round_.is_over:
                self._settle(round_)
        return told

    def replay(
        self,
        journal: Iterable[Action],
        before: Callable[[Session, Action], None] | None = None,
    ) -> None:
        """Apply a journal's actions in order (:attr:`journal` of a game with the same rules and
        seed: a saved game), dealing each round as it comes and playing no policy: the game is
        then exactly where that one was, in the middle of a turn if the journal ends there. An
        action that cannot be played raises :class:`IllegalMoveError` naming it by number.
        ``before(session, action)``, when given, is called before each action is applied (the
        seat to move and what it sees are then the decision's: a review notes it there)."""
        if isinstance(journal, str | bytes) or not isinstance(journal, Iterable):
            raise IllegalMoveError(
                f"a journal is a list of thirtyone.Action, not {what_it_is(journal)}"
            )
        actions = list(journal)
        for number, action in enumerate(actions, 1):
            if not isinstance(action, Action):
                raise IllegalMoveError(
                    f"action {number} of {len(actions)}: {not_an_action(action)}"
                )
            where = f"action {number} of {len(actions)} ({action.kind} {action.card or ''}".strip()
            # Deal until a round waits for a decision: a round dealt over at once (a dealt 31)
            # took no action of the journal, and may have ended the game.
            while not self.over and (self._round is None or self._round.is_over):
                self.deal()
            if self.over:
                raise IllegalMoveError(f"{where}): the game is over")
            if before is not None:
                before(self, action)
            try:
                self.apply(action)
            except IllegalMoveError as e:
                raise IllegalMoveError(f"{where}): {e}") from None

    def play_rule_turn(self, knock_at: float | None) -> list[Event]:
        """Play the whole turn of the seat to move by the table's decision rule in one step of
        the core, knocking from ``knock_at`` (None: never). At a blind table it looks first."""
        round_ = self._round
        if round_ is None or round_.is_over:
            raise IllegalMoveError("no round is under way")
        told: list[Event] = []
        if round_.phase == "blind":
            told += self.apply(Action("look"))
            if round_.is_over:
                return told
        seat = self.seats[round_.to_move]
        with self._telling() as step:
            played = round_.play_rule_turn(knock_at)
            if played is not None:
                if played.discard is None:
                    self.journal.append(Action(played.action))
                else:
                    self.journal += [Action(played.action), Action("put", played.discard)]
                self._tell_turn(round_, seat)
            if round_.is_over:
                self._settle(round_)
        return told + step

    # -- the steps' parts ------------------------------------------------------------------------

    @contextlib.contextmanager
    def _telling(self) -> Iterator[list[Event]]:
        """Within: the events emitted are also collected in the list given (one step's)."""
        told: list[Event] = []
        self._told = told
        try:
            yield told
        finally:
            self._told = None

    def _tell_turn(self, round_: _core.Round, seat: int) -> None:
        """Tell the whole turn just played, as the core recorded it."""
        played = round_.turns[-1]
        data: dict[str, Any] = {"seat": seat, "action": played.action}
        if played.card is not None:
            data["card" if played.action == "take" else "drew"] = played.card
        if played.discard is not None:
            data["discard"] = played.discard
            data["showed_31"] = played.showed_31
        if played.hid_31:
            data["hid_31"] = True
        self._emit("turn", **data)

    def _next_deck(self) -> list[str]:
        if self._decks is not None:
            deck = next(self._decks, None)
            if deck is not None:
                return parse_cards(deck, what="deck")
            self._decks = None
        return shuffled_pack(self.rng)

    def _settle(self, round_: _core.Round) -> None:
        """Apply the round's losses: a wash (dealt again), or lives, the county, places, the
        game's end, and the deal passing left."""
        seats = self.seats
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
        if end == "dealt_31":  # (no one seat ends it: every hand dealt 31 is shown at once)
            data["dealt"] = [s for s, lost in zip(seats, losses, strict=True) if lost == 0]
        if hidden:
            data["hidden_31"] = hidden
        # (Shown after a knock where the round goes on: the showdown's losses hold its 1s.)
        shown = [seats[i] for i in range(len(seats)) if round_.showed_31(i)]
        if end == "showdown" and shown:
            data["shown_31"] = shown
        rules = self.rules
        wash, after, out = _core.settle(
            [self.lives[s] for s in seats],
            losses,
            scores,
            0,
            rules.county,  # (0 played first)
        )
        self.washed = wash
        if wash:
            self._emit("wash", **data)
            return
        county_before = {s for s in seats if rules.on_county(self.lives[s])}
        for i, s in enumerate(seats):
            self.lives[s] = after[i]
        data["lives"] = list(self.lives)
        self._emit("round_end", **data)
        for s in seats:
            if rules.on_county(self.lives[s]) and s not in county_before:
                self._emit("county", seat=s)
        self._place(seats, out)
        if not self.over:  # the deal passes left (it stays where it is once the game is over)
            self.dealer = self.rules.next_dealer(self.lives, self.dealer)

    def _place(self, seats: list[int], out: list[int]) -> None:
        """Players out this round (the core orders them): the lower hand takes the lower place;
        equal hands in seat order from the dealer's left (the earlier one takes the lower
        place). The last one left wins."""
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


#: The round's seat that the core's refusals start with (``seat 3: ``).
_ROUND_SEAT = re.compile(r"^seat \d+: ")


class Game(Session):
    """A session every seat of which is a computer (default: the table's rule at every seat),
    played to its end by :meth:`play`: ``thirtyone.Game(rules, seed=7).play()``."""

    def __init__(
        self,
        rules: Rules | None = None,
        policies: Sequence[Policy] | None = None,
        *,
        seed: int | None = None,
        names: Sequence[str] | None = None,
        on_event: Callable[[Event], None] | None = None,
        decks: Iterable[Sequence[str]] | None = None,
    ) -> None:
        rules = rules or Rules.standard()
        if policies is None and isinstance(rules, Rules):  # (other rules: refused by Session)
            policies = [TablePolicy()] * rules.seats
        super().__init__(rules, policies, seed=seed, names=names, on_event=on_event, decks=decks)

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
            while self.pending is not None:
                if self.play_policy() is None:
                    raise IllegalMoveError("a seat without a policy must decide: push it")
            if not self.washed:
                break
