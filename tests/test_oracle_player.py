"""The Oracle at the table: :class:`thirtyone.OraclePlayer` plays the Oracle's best option at its
first turn of a round and the simulated policy for the rest of it."""

from __future__ import annotations

import pytest
from thirtyone import Action, Game, OraclePlayer, Rules, SeatView, TablePolicy, advise
from thirtyone.game.session import Event

TINY = {"deals": 50, "playouts": 200, "threads": 1, "max_time": None}


def tiny(name: str, seed: int = 1) -> OraclePlayer:
    return OraclePlayer(name, seed=seed, **TINY)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "spec",
    [
        {"preset": "standard"},
        {"preset": "scat"},
        {"preset": "gin-lives"},
        {"preset": "ride-the-bus"},
        {"preset": "standard", "first_turn_knock": "blind", "may_hide_31": True},
    ],
)
def test_plays_legal_whole_games(spec: dict[str, object]) -> None:
    rules = Rules.from_spec({**spec, "seats": 3})
    oracle = tiny("Oracle")
    game = Game(rules, [oracle, TablePolicy(), tiny("B", 2)], seed=11)
    winner = game.play()
    assert game.over and winner in (0, 1, 2)
    assert sorted(game.places.values()) == [1, 2, 3]
    assert oracle.fallbacks == 0 and oracle.advice is not None


class FirstTurnCheck:
    """Wraps an OraclePlayer: at its first decision, asks the Oracle independently (same seed)
    and records the best option; then records every action the player chose that turn."""

    def __init__(self, player: OraclePlayer) -> None:
        self.player = player
        self.expected: list[tuple[str, str | None]] = []
        self.played: list[Action] = []

    def decide(self, view: SeatView) -> Action:
        if not self.expected:
            best = advise(view.state(), seed=self.player.query_seed(view), **TINY).best  # type: ignore[arg-type]
            self.expected.append((best.option, best.discard))
        action = self.player.decide(view)
        if len(self.played) < 2 and (not self.played or self.played[0].kind in ("draw", "take")):
            self.played.append(action)
        return action


def test_first_decision_is_the_advised_best() -> None:
    for seed in range(6):
        check = FirstTurnCheck(tiny("O", seed))
        game = Game(
            Rules.standard().replace(seats=3),
            [TablePolicy(), check, TablePolicy()],
            seed=seed,
        )
        game.play_round()
        if not check.expected:
            continue  # the round ended before its turn
        (option, discard), played = check.expected[0], check.played
        assert played[0].kind == option
        if option == "take":  # then the advised put-down
            assert played[1] == Action("put", discard)


def test_asks_at_every_one_of_its_turns_and_again_after_a_draw() -> None:
    """One query at the start of each turn it plays, and one more for the put-down after each
    draw from the stock (none for a turn the round's end cut short)."""
    oracle = tiny("O", 5)
    asked: list[tuple[int, bool]] = []
    real = oracle.query_seed

    def counting(view: SeatView) -> int:
        asked.append((view.round_number, view.drawn is not None))
        return real(view)

    oracle.query_seed = counting  # type: ignore[method-assign]
    turns: list[tuple[int, bool]] = []

    def seen(event: Event) -> None:
        if event.kind == "turn" and event.data["seat"] == 0:
            turns.append((event.round, False))
            if event.data["action"] == "draw":
                turns.append((event.round, True))

    game = Game(Rules.standard().replace(seats=2), [oracle, TablePolicy()], seed=4)
    game.add_listener(seen)
    game.play()
    assert any(drew for _, drew in turns)
    assert sorted(asked) == sorted(turns)


class PutDownCheck:
    """Wraps an OraclePlayer: at each put-down after a draw from the stock, asks the Oracle
    independently (same seed, same objective) and checks that the player puts down the card of
    its best option."""

    def __init__(self, player: OraclePlayer) -> None:
        self.player = player
        self.checked = 0

    def decide(self, view: SeatView) -> Action:
        action = self.player.decide(view)
        if view.drawn is not None and view.drawn[1] == "stock":
            found = advise(
                view.state(), seed=self.player.query_seed(view), objective="game", **TINY
            )  # type: ignore[arg-type]
            best = found.best_game or found.best
            assert action == Action("put", best.discard)
            self.checked += 1
        return action


def test_after_a_draw_it_puts_down_the_oracles_best_card() -> None:
    check = PutDownCheck(OraclePlayer("O", seed=2, objective="game", **TINY))  # type: ignore[arg-type]
    game = Game(Rules.standard().replace(seats=3), [check, TablePolicy(), TablePolicy()], seed=8)
    game.play()
    assert check.checked >= 3


def test_same_seed_same_game() -> None:
    def final(seed: int) -> list[tuple[str, str | None]]:
        game = Game(
            Rules.standard(),
            [tiny("O", seed), *(TablePolicy() for i in range(3))],
            seed=9,
        )
        game.play()
        return [(a.kind, a.card) for a in game.journal]

    assert final(3) == final(3)


def test_expert_budget() -> None:
    expert = OraclePlayer.expert("Eve", seed=1)
    assert (expert.deals, expert.playouts, expert.max_time) == (300, 1_000, 1.0)
