"""Whole games played by the table's rule at every seat, checked event by event against the
rules (hypothesis over seeds, seat counts, lives and the loss options).

For every game: it finishes; the cards are the 52 of the pack at every moment (tracked from the
stacked deck and the turn events, and compared with the core's round between turns); every turn
is the table's decision rule and is legal; every round ends the way the rules say and every life
lost is the one the loss rules charge (an independent Python reference); washes, elimination,
placing and the deal passing left follow the rules; there is exactly one winner and the places
are a permutation.
"""

from __future__ import annotations

import os
import random
from typing import Any

from helpers import ref_losses, ref_put_down, ref_start, rule_scorer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from thirtyone import Action, Event, Game, Rules, SeatView, TablePolicy

EXAMPLES = int(os.environ.get("THIRTYONE_PROPERTY_EXAMPLES", "200"))


class Table:
    """The test's own model of the game, advanced by the events and checked against them."""

    def __init__(self, game: Game, rules: Rules, decks: list[list[str]]) -> None:
        self.game = game
        self.rules = rules
        self.decks = decks  # every pack handed to the game, the current one last
        self.score = rule_scorer(rules.round_rules())
        self.n_seats = rules.seats
        self.lives = [rules.lives] * rules.seats
        self.out: set[int] = set()
        self.dealer = game.dealer
        self.expected: dict[str, Any] | None = None
        self.pending_outs: list[tuple[int, int]] = []
        self.rounds = 0
        self.washes = 0
        self.over = False

    # -- the deal ---------------------------------------------------------------------------------

    def deal(self, d: dict[str, Any]) -> None:
        assert not self.over and self.pending_outs == []
        order = [
            s
            for k in range(1, self.n_seats + 1)
            if (s := (self.dealer + k) % self.n_seats) not in self.out
        ]
        assert d["dealer"] == self.dealer
        assert d["seats"] == order and d["first"] == order[0]
        n = len(order)
        deck = self.decks[-1]
        self.order = order
        self.hands = [[deck[k * n + i] for k in range(3)] for i in range(n)]
        self.pile: list[tuple[str, int | None]] = [(deck[3 * n], None)]
        self.stock = list(deck[3 * n + 1 :])
        assert d["upcard"] == deck[3 * n]
        self.to_move = 0
        self.put_downs: list[set[str]] = [set() for _ in range(n)]
        self.knocker: int | None = None
        self.finals = 0
        self.end: tuple[str, int | None] | None = None
        if any(self.score(h) >= 31 for h in self.hands):
            self.end = ("dealt_31", None)
        self.check_cards()

    def check_cards(self) -> None:
        """52 distinct cards: the hands, the discard pile and the stock; and the core agrees."""
        cards = [c for h in self.hands for c in h] + [c for c, _ in self.pile] + self.stock
        assert len(cards) == 52 and len(set(cards)) == 52
        r = self.game.round
        assert r is not None
        for i, h in enumerate(self.hands):
            assert sorted(r.hand(i)) == sorted(h)
        assert r.top == self.pile[-1][0]
        assert r.stock_len == len(self.stock)
        assert r.is_over == (self.end is not None)

    # -- turns ------------------------------------------------------------------------------------

    def expect_turn(self, turn: Any) -> None:
        """Called by the checking player before it plays: what the rule says it will do."""
        assert self.end is None, "a turn after the round ended"
        me = self.to_move
        assert turn.pending.round_seat == me and turn.seat == self.order[me]
        hand = self.hands[me]
        top, _ = self.pile[-1]
        # Nobody takes back a card they put down themselves this round.
        may_take = top not in self.put_downs[me]
        may_knock = self.knocker is None and len(self.stock) > 0
        start = ref_start(
            hand, top if may_take else None, may_knock, not self.stock, 27, self.score
        )
        exp: dict[str, Any] = {"seat": self.order[me], "action": start}
        if start in ("draw", "take"):
            new = self.stock[0] if start == "draw" else top
            card, _ = ref_put_down(hand, new, start == "take", self.score)
            exp["drew" if start == "draw" else "card"] = new
            exp["discard"] = card
            kept = [c for c in [*hand, new] if c != card]
            exp["showed_31"] = self.score(kept) >= 31
        self.expected = exp

    def turn(self, d: dict[str, Any]) -> None:
        assert d == self.expected, (d, self.expected)
        self.expected = None
        me = self.to_move
        action = d["action"]
        if action == "knock":
            assert self.knocker is None and self.stock
            self.knocker = me
        elif action == "decline":
            assert not self.stock
            self.end = ("stock_out", me)
        else:
            if action == "draw":
                new = self.stock.pop(0)
                assert d["drew"] == new
            else:
                new, _ = self.pile.pop()
                assert d["card"] == new and new not in self.put_downs[me]
                assert d["discard"] != new  # no put-back
            put = d["discard"]
            self.put_downs[me].add(put)
            hand = [*self.hands[me], new]
            hand.remove(put)
            self.hands[me] = hand
            self.pile.append((put, me))
            if self.score(hand) >= 31:
                assert d["showed_31"]
                self.end = ("thirty_one", me)
        if self.end is None:
            if self.knocker is not None and action != "knock":
                self.finals += 1
                if self.finals == len(self.order) - 1:
                    # the last final turn was the knocker's right-hand neighbour's
                    assert me == (self.knocker - 1) % len(self.order)
                    self.end = ("showdown", None)
            if self.end is None:
                self.to_move = (me + 1) % len(self.order)
        self.check_cards()

    # -- the end of a round -----------------------------------------------------------------------

    def round_over(self, kind: str, d: dict[str, Any]) -> None:
        assert self.end is not None
        end, by = self.end
        order = self.order
        assert d["end"] == end
        assert d["by"] == (order[by] if by is not None else None)
        assert d["knocker"] == (order[self.knocker] if self.knocker is not None else None)
        assert d["hands"] == {s: self.game.round.hand(i) for i, s in enumerate(order)}  # type: ignore[union-attr]
        assert {s: sorted(h) for s, h in d["hands"].items()} == {
            s: sorted(self.hands[i]) for i, s in enumerate(order)
        }
        scores = [self.score(h) for h in self.hands]
        assert d["scores"] == {s: scores[i] for i, s in enumerate(order)}
        lost = ref_losses(
            scores, end, by, self.knocker, self.rules.knock_penalty, self.rules.knocker_tie
        )
        assert d["losses"] == {s: lost[i] for i, s in enumerate(order)}
        wash = all(self.lives[s] - lost[i] <= 0 for i, s in enumerate(order))
        assert (kind == "wash") == wash
        if wash:
            self.washes += 1
            return
        self.rounds += 1
        for i, s in enumerate(order):
            self.lives[s] -= lost[i]
        assert d["lives"] == self.lives
        # who goes out, and their places: the lower hand the lower place; equal hands in seat
        # order from the dealer's left, the earlier seat the lower place
        going = sorted(
            (i for i, s in enumerate(order) if self.lives[s] <= 0), key=lambda i: (scores[i], i)
        )
        place = self.n_seats - len(self.out)
        for i in going:
            self.pending_outs.append((order[i], place))
            place -= 1
        self.out.update(order[i] for i in going)
        # the deal passes left, skipping players who are out
        self.dealer = next(
            s
            for k in range(1, self.n_seats + 1)
            if (s := (self.dealer + k) % self.n_seats) not in self.out
        )

    def on_event(self, e: Event) -> None:
        d = e.data
        if e.kind == "deal":
            self.deal(d)
        elif e.kind == "mid_turn":  # a step of the turn under way (told whole by its turn event)
            assert d["seat"] == self.order[self.to_move] and d["step"] in ("look", "draw", "take")
        elif e.kind == "turn":
            self.turn(d)
        elif e.kind in ("round_end", "wash"):
            self.round_over(e.kind, d)
        elif e.kind == "out":
            assert self.pending_outs and (d["seat"], d["place"]) == self.pending_outs.pop(0)
        elif e.kind == "game_over":
            assert self.pending_outs == []
            alive = [s for s in range(self.n_seats) if s not in self.out]
            assert alive == [d["winner"]]
            self.over = True
        else:
            raise AssertionError(f"unknown event {e.kind}")


class CheckingPlayer(TablePolicy):
    """The table's policy, deciding step by step, telling the model beforehand what the rule
    says at the start of each turn."""

    def __init__(self, table: list[Table]) -> None:
        super().__init__()
        self.table = table

    def decide(self, view: SeatView) -> Action:
        if view.phase == "start":
            self.table[0].expect_turn(view)
        return super().decide(view)


def play_checked_game(seed: int, rules: Rules) -> tuple[Game, Table]:
    rng = random.Random(seed)
    decks: list[list[str]] = []

    def packs() -> Any:
        from helpers import PACK

        while True:
            deck = list(PACK)
            rng.shuffle(deck)
            decks.append(deck)
            yield deck

    holder: list[Table] = []
    players = [CheckingPlayer(holder) for _ in range(rules.seats)]
    game = Game(rules, players, seed=seed, decks=packs())
    table = Table(game, rules, decks)
    holder.append(table)
    game.add_listener(table.on_event)
    while not game.over:
        game.play_round()
        assert game.round_number < 2000, "the game does not finish"
    return game, table


rule_sets = st.builds(
    dict,
    seats=st.integers(2, 9),
    lives=st.sampled_from([1, 2, 3, 3, 4]),
    knock_penalty=st.sampled_from([2, 2, 1]),
    knocker_tie=st.sampled_from(
        ["knocker_pays", "knocker_pays", "others_pay", "only_knocker", "cadillac"]
    ),
    three_of_a_kind=st.sampled_from(["none", "none", "30", "30.5"]),
    three_aces=st.sampled_from(["none", "none", "33"]),
    runs=st.sampled_from([False, False, True]),
)


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(seed=st.integers(0, 2**32 - 1), options=rule_sets)
def test_autoplay_games_follow_the_rules(seed: int, options: dict[str, Any]) -> None:
    rules = Rules().replace(**options)
    game, table = play_checked_game(seed, rules)
    n = rules.seats
    assert table.over and game.over
    # exactly one winner, and the places are a permutation of 1..n
    assert [e.kind for e in game.events].count("game_over") == 1
    assert game.winner is not None and game.places[game.winner] == 1
    assert sorted(game.places.values()) == list(range(1, n + 1))
    assert sorted(game.placing()) == list(range(n))
    # lives: the winner has some left, everybody else none
    assert all((game.lives[s] > 0) == (s == game.winner) for s in range(n))
    # every life lost is one the rules charged
    spent = sum(sum(e.data["losses"].values()) for e in game.events if e.kind == "round_end")
    assert spent == sum(rules.lives - lv for lv in game.lives)


def test_standard_games_from_the_default_constructor_finish() -> None:
    # Game's own shuffling (no stacked decks): seeds reproduce the same game.
    for seed in range(20):
        a = Game(Rules(), seed=seed)
        b = Game(Rules(), seed=seed)
        assert a.play() == b.play()
        assert [e.data for e in a.events] == [e.data for e in b.events]
        assert sorted(a.places.values()) == [1, 2, 3, 4]
