"""Play a round from the current position to its end (rules.md + DECISIONS.md).

Everyone but you plays the table's rule (knock at 27). You play the option being evaluated now,
and the table's rule with 27 replaced by ``knock_at`` on your later turns (None = never knock).

Round mechanics:
- a knock (only while nobody has knocked and the stock is not empty) gives every other player
  exactly one more turn, in order, ending with the knocker's right-hand neighbour (seat - 1);
  then the showdown;
- a hand of 31 or more after a put-down is shown at once: the round ends and everybody else
  loses one life, the knocker included, also during the final turns;
- with the stock empty a player takes the top discard (if the rule takes it) or declines; a
  decline ends the round: the knock's showdown if somebody knocked, else the lowest hand (each
  of the lowest) loses one life.
"""

from .rules import COMPUTER_KNOCK_AT, SHOWN_AT, Rules, best_putdown, decide, score
from .sampler import Deal
from .state import Position


def losses_31_shown(shower: int, seats: int) -> dict[int, int]:
    return {s: 0 if s == shower else 1 for s in range(seats)}


def losses_stock_out(scores: dict[int, float]) -> dict[int, int]:
    low = min(scores.values())
    return {s: 1 if v == low else 0 for s, v in scores.items()}


def losses_knock_showdown(scores: dict[int, float], knocker: int, rules: Rules) -> dict[int, int]:
    low = min(scores.values())
    lowest = [s for s, v in scores.items() if v == low]
    losses = {s: 0 for s in scores}
    if knocker not in lowest:
        for s in lowest:
            losses[s] = 1
    elif lowest == [knocker]:
        losses[knocker] = rules.knock_penalty
    else:  # the knocker tied for lowest with others
        others = [s for s in lowest if s != knocker]
        if rules.knocker_tie == "knocker_pays":
            losses[knocker] = rules.knock_penalty
            for s in others:
                losses[s] = 1
        elif rules.knocker_tie == "others_pay":
            for s in others:
                losses[s] = 1
        elif rules.knocker_tie == "only_knocker":
            losses[knocker] = rules.knock_penalty
        elif rules.knocker_tie == "cadillac":
            losses[knocker] = 2
        else:
            raise ValueError(f"unknown knocker_tie {rules.knocker_tie!r}")
    return losses


def play_out(
    pos: Position,
    deal: Deal,
    stock: list[str],
    option: str,
    put_down: str | None,
    knock_at: float | None,
    log: list[tuple[int, str, str | None, str | None]] | None = None,
) -> dict[int, int]:
    """Lives lost by every seat when the round is played out with this stock order.

    ``stock[0]`` is the top of the stock. ``option`` is "knock", "draw", "take" (with
    ``put_down``) or "discard:XX" (after a pending draw); it is assumed legal. If ``log`` is
    given, every turn is appended to it as (seat, action, card gained, card put down).
    """
    rules, seats, me = pos.rules, pos.seats, pos.me
    hands = {me: list(pos.hand)}
    for seat in pos.opponents:
        hands[seat] = list(deal.hands[seat])
    top = pos.top
    put_down_by = {s: set(cards) for s, cards in pos.put_down_by.items()}
    stock = list(stock)
    knocker = pos.knocker
    seat = me
    first_move = True

    while True:
        hand = hands[seat]
        gained: str | None = None
        if first_move:
            first_move = False
            if option == "knock":
                action, put = "knock", None
            elif option == "draw":
                action, put = "draw", None
            elif option == "take":
                action, put = "take", put_down
            else:  # "discard:XX" after a pending draw
                assert pos.pending is not None
                action, put = "pending", option.split(":", 1)[1]
                gained = pos.pending[1] if pos.pending[0] == "stock" else top
        else:
            action, put = decide(
                hand,
                top,
                may_take=top not in put_down_by[seat],
                knock_allowed=knocker is None and len(stock) > 0,
                stock_empty=len(stock) == 0,
                knock_at=knock_at if seat == me else COMPUTER_KNOCK_AT,
                rules=rules,
            )

        if action == "knock":
            knocker = seat
            if log is not None:
                log.append((seat, "knock", None, None))
        elif action == "decline":
            if log is not None:
                log.append((seat, "decline", None, None))
            scores = {s: score(h, rules) for s, h in hands.items()}
            if knocker is not None:
                return losses_knock_showdown(scores, knocker, rules)
            return losses_stock_out(scores)
        else:
            if action == "take":
                gained = top
            elif action == "draw":
                gained = stock.pop(0)
                put, _ = best_putdown([*hand, gained], rules, drawn=gained)
            assert gained is not None and put is not None
            four = [*hand, gained]
            four.remove(put)
            hands[seat] = four
            top = put
            put_down_by[seat].add(put)
            if log is not None:
                log.append((seat, action, gained, put))
            if score(four, rules) >= SHOWN_AT:
                return losses_31_shown(seat, seats)

        if knocker is not None and action != "knock" and seat == (knocker - 1) % seats:
            scores = {s: score(h, rules) for s, h in hands.items()}
            return losses_knock_showdown(scores, knocker, rules)
        seat = (seat + 1) % seats
