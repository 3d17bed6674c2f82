//! The weighted posterior against brute force: every history the card facts allow enumerated,
//! weighed by the model's definition (the table's rule at each knock score, each other legal
//! move a slip), and summed by the hand it ends in.

use std::collections::HashMap;

use super::super::count::Filter;
use super::*;
use crate::hand::decision::{choose_put_down, choose_start};
use crate::inference::test_positions::{each_small_opponent, position, position_knocking_at};
use crate::model::{FinalTurn, Model, KNOCK_SCORES};
use crate::round::knock_limits_allow;
use crate::view::{OppAct, StateInput, TurnInput};

/// A walk budget no test position reaches (the walks here are checked, not timed).
const WALK: u64 = 1 << 18;

/// Each hand's weight per knock score, by brute force: the ordered fillings of the slots (3
/// dealt, then the draws), every known put-down in a slot it could have come from.
fn brute_force(view: &View, o: &Opponent, p: &Params) -> HashMap<u64, Weights> {
    let unseen: Vec<Card> = view.unseen.iter().collect();
    let n_slots = 3 + o.stock_draws as usize;
    let mut out = HashMap::new();
    let mut slots = vec![None; n_slots];
    place(view, o, p, &unseen, 0, &mut slots, &mut out);
    out
}

/// Place the known put-downs from the `k`-th, then fill the rest.
fn place(
    view: &View,
    o: &Opponent,
    p: &Params,
    unseen: &[Card],
    k: usize,
    slots: &mut Vec<Option<Card>>,
    out: &mut HashMap<u64, Weights>,
) {
    if let Some(&(card, avail)) = o.hidden_discards.get(k) {
        for s in 0..usize::from(avail) {
            if slots[s].is_none() {
                slots[s] = Some(card);
                place(view, o, p, unseen, k + 1, slots, out);
                slots[s] = None;
            }
        }
        return;
    }
    fill(view, o, p, unseen, slots, out);
}

/// Fill the empty slots with distinct unseen cards in every order, and weigh each history.
fn fill(
    view: &View,
    o: &Opponent,
    p: &Params,
    unseen: &[Card],
    slots: &mut Vec<Option<Card>>,
    out: &mut HashMap<u64, Weights>,
) {
    let Some(empty) = slots.iter().position(Option::is_none) else {
        let cards: Vec<Card> = slots.iter().map(|c| c.unwrap()).collect();
        let fresh: u64 = cards
            .iter()
            .filter(|c| view.unseen.contains(**c) && !o.hidden_discards.iter().any(|d| d.0 == **c))
            .fold(0, |b, c| b | 1u64 << c.index());
        let w = weigh(view, o, p, &cards);
        let e = out.entry(fresh).or_insert([0.0; KNOCK_SCORES]);
        for (t, x) in e.iter_mut().zip(w) {
            *t += x;
        }
        return;
    };
    for &c in unseen {
        if slots.contains(&Some(c)) || o.hidden_discards.iter().any(|d| d.0 == c) {
            continue;
        }
        slots[empty] = Some(c);
        fill(view, o, p, unseen, slots, out);
        slots[empty] = None;
    }
}

/// One history's weight per knock score, straight from the model's definition.
fn weigh(view: &View, o: &Opponent, p: &Params, slots: &[Card]) -> Weights {
    let rules = &view.public.rules;
    let scoring = &rules.scoring;
    let mut hand = [slots[0], slots[1], slots[2]];
    if scoring.score(hand).is_blitz() {
        return [0.0; KNOCK_SCORES];
    }
    let chance = |rules_move: bool, legal: usize| {
        if legal == 1 {
            1.0
        } else if rules_move {
            1.0 - p.slip
        } else {
            p.slip / (legal - 1) as f64
        }
    };
    let mut w = p.prior;
    for t in &o.turns {
        let may_knock = t.knock_open && knock_limits_allow(rules, hand);
        let top = t.may_take.then_some(t.top);
        let mut moves = vec![if t.stock_empty {
            Start::Decline
        } else {
            Start::Draw
        }];
        moves.extend(t.may_take.then_some(Start::Take));
        moves.extend(may_knock.then_some(Start::Knock));
        let (made, new, from_pile, discard, shows) = match t.act {
            OppAct::Knock => (Start::Knock, None, false, None, None),
            OppAct::Take { discard, shows } => {
                (Start::Take, Some(t.top), true, Some(discard), shows)
            }
            OppAct::Draw {
                draw,
                discard,
                shows,
            } => (
                Start::Draw,
                Some(slots[3 + draw as usize]),
                false,
                Some(discard),
                shows,
            ),
        };
        if (made == Start::Knock && !may_knock) || (made == Start::Take && !t.may_take) {
            return [0.0; KNOCK_SCORES];
        }
        let last = p.final_turn.filter(|_| t.final_turn);
        // A knock read by the model's curve: the same chance at every knock score.
        let curve = p.knocks.filter(|_| made == Start::Knock);
        // Where the rule takes: the hand's score now and after its take.
        let take = (
            scoring.score(hand),
            choose_put_down(scoring, hand, t.top, true).score,
        );
        // Before a knock with stock left, a take leaving less than the model's threshold is
        // declined: the model draws there.
        let declines = !t.final_turn && !t.stock_empty && p.take_from.is_some_and(|l| take.1 < l);
        for (i, x) in w.iter_mut().enumerate() {
            let rule = choose_start(scoring, hand, top, may_knock, t.stock_empty, knock_score(i));
            let rule = if rule == Start::Take && declines {
                Start::Draw
            } else {
                rule
            };
            *x *= match (last, curve) {
                (Some(f), _) => final_start(&f, made, rule, t.may_take, take),
                (None, Some(k)) => {
                    let yours = scoring.score(view.hand);
                    k.chance(view.public.seats, t.lap, scoring.score(hand), yours)
                }
                (None, None) => start_by_definition(p, made, rule, &moves),
            };
        }
        let (Some(new), Some(discard)) = (new, discard) else {
            continue;
        };
        let mut four = vec![hand[0], hand[1], hand[2], new];
        let Some(at) = four.iter().position(|&c| c == discard) else {
            return [0.0; KNOCK_SCORES];
        };
        if from_pile && at == 3 {
            return [0.0; KNOCK_SCORES];
        }
        let rule = choose_put_down(scoring, hand, new, from_pile);
        let c = match last {
            Some(f) => final_put_down(&f, scoring, &four, from_pile, at, rule.score),
            None => chance(rule.card == discard, if from_pile { 3 } else { 4 }),
        };
        four.remove(at);
        hand = [four[0], four[1], four[2]];
        let blitz = scoring.score(hand).is_blitz();
        let fits = match shows {
            None => !blitz,
            Some(s) => blitz && same_cards(hand, s),
        };
        if !fits {
            return [0.0; KNOCK_SCORES];
        }
        w = w.map(|x| x * c);
    }
    w
}

/// A start's chance by the model's definition: the legal `moves` listed, each given its chance
/// when the rule makes `rule`.
fn start_by_definition(p: &Params, made: Start, rule: Start, moves: &[Start]) -> f64 {
    let knock_legal = moves.contains(&Start::Knock);
    let others: Vec<Start> = moves
        .iter()
        .copied()
        .filter(|&m| m != Start::Knock)
        .collect();
    if rule == Start::Knock {
        return if made == Start::Knock {
            1.0 - p.slip
        } else {
            p.slip / others.len() as f64
        };
    }
    let alternatives = others.len() - 1;
    match made {
        Start::Knock => p.knock_slip,
        m if m == rule => {
            1.0 - if alternatives > 0 { p.slip } else { 0.0 }
                - if knock_legal { p.knock_slip } else { 0.0 }
        }
        _ => p.slip / alternatives as f64,
    }
}

/// A final turn's start by the model's definition ([`FinalTurn`]): with no take allowed, one
/// move; else the rule's move and the other, by the model's chances.
fn final_start(
    f: &FinalTurn,
    made: Start,
    rule: Start,
    may_take: bool,
    take: (Score, Score),
) -> f64 {
    match (may_take, rule == Start::Take, made == Start::Take) {
        (false, _, _) => 1.0,
        (true, true, true) => f.take.chance(take.0, take.1),
        (true, true, false) => 1.0 - f.take.chance(take.0, take.1),
        (true, false, true) => f.takes,
        (true, false, false) => 1.0 - f.takes,
    }
}

/// A final turn's put-down of `four[at]` by the model's definition: the legal cards that keep
/// `best` (the rule's kept score) or more share `1 - below`, the others `below`.
fn final_put_down(
    f: &FinalTurn,
    scoring: &crate::hand::Scoring,
    four: &[Card],
    from_pile: bool,
    at: usize,
    best: Score,
) -> f64 {
    let legal: Vec<usize> = (0..4).filter(|&i| !(from_pile && i == 3)).collect();
    let keeps = |i: usize| {
        let kept: Vec<Card> = (0..4).filter(|&j| j != i).map(|j| four[j]).collect();
        scoring.score([kept[0], kept[1], kept[2]]) >= best
    };
    let as_much = legal.iter().filter(|&&i| keeps(i)).count();
    if as_much == legal.len() {
        1.0 / legal.len() as f64
    } else if keeps(at) {
        (1.0 - f.below) / as_much as f64
    } else {
        f.below / (legal.len() - as_much) as f64
    }
}

fn normalised(by_hand: impl Iterator<Item = (u64, Weights)>) -> HashMap<u64, Weights> {
    let all: Vec<(u64, Weights)> = by_hand.filter(|e| e.1.iter().sum::<f64>() > 0.0).collect();
    let total: f64 = all.iter().map(|e| e.1.iter().sum::<f64>()).sum();
    all.into_iter()
        .map(|(k, w)| (k, w.map(|x| x / total)))
        .collect()
}

/// Small enough to enumerate (in a debug build): at most this many fillings.
fn small(view: &View, o: &Opponent) -> bool {
    let n = view.unseen.len() as u64;
    let hidden = o.hidden_now() as u32;
    !o.turns.is_empty()
        && o.shown_hand.is_none()
        && n.pow(hidden) * 8u64.pow(o.hidden_discards.len() as u32) < 2_000_000
}

/// Walk each small opponent of each position and check its weights against brute force;
/// returns how many opponents were checked (and how many of them had played a final turn).
fn walk_against_brute_force(inputs: &[(u64, StateInput)], p: &'static Params) -> (usize, usize) {
    let (mut checked, mut finals) = (0, 0);
    for (seed, input) in inputs {
        let view = View::from_input(input).unwrap();
        let unseen: Vec<Card> = view.unseen.iter().collect();
        for o in view.opponents.iter().filter(|o| small(&view, o)) {
            let cancel = AtomicBool::new(false);
            let walked = Counter::walk(&view, o, &unseen, &cancel, Likelihood::new(&view, p, WALK))
                .expect("within the budget");
            let walked = normalised(walked.into_iter().map(|(k, _, w)| (k, w)));
            let brute = normalised(brute_force(&view, o, p).into_iter());
            assert_eq!(walked.len(), brute.len(), "seed {seed}, seat {}", o.seat);
            for (k, w) in &brute {
                let v = walked.get(k).expect("the same hands");
                for (a, b) in w.iter().zip(v) {
                    assert!(
                        (a - b).abs() <= 1e-12 + 1e-9 * a.abs(),
                        "seed {seed}: {a} against {b}"
                    );
                }
            }
            checked += 1;
            finals += usize::from(o.turns.iter().any(|t| t.final_turn));
        }
    }
    (checked, finals)
}

#[test]
fn the_walk_weighs_every_history_as_brute_force_does() {
    let p = Model::Person.params().unwrap();
    let inputs: Vec<(u64, StateInput)> = [
        (1, 3, 4),
        (2, 4, 6),
        (3, 2, 5),
        (5, 3, 7),
        (8, 4, 9),
        (13, 2, 8),
    ]
    .into_iter()
    .filter_map(|(seed, seats, turns)| Some((seed, position(seed, seats, turns)?)))
    .collect();
    let (checked, _) = walk_against_brute_force(&inputs, p);
    assert!(checked >= 6, "only {checked} opponents checked");
}

/// The expert's final turns, after a knock, weighed by chances of their own: rounds whose
/// players knock from 20, so that a knock comes early and small opponents play final turns.
#[test]
fn the_walk_weighs_final_turns_as_brute_force_does() {
    let p = Model::Expert.params().unwrap();
    assert!(p.final_turn.is_some());
    let inputs: Vec<(u64, StateInput)> = (1..400)
        .filter_map(|seed| {
            let input = position_knocking_at(seed, 4, 6, Score::from_points(20))?;
            let knocked = input
                .turns
                .iter()
                .position(|t| matches!(t, TurnInput::Knock { .. }));
            // A knock with a final turn played after it.
            knocked.filter(|&k| k + 2 < input.turns.len())?;
            Some((seed, input))
        })
        .take(12)
        .collect();
    let (checked, finals) = walk_against_brute_force(&inputs, p);
    assert!(
        finals >= 4,
        "only {finals} of {checked} opponents played a final turn"
    );
}

/// The expert at four seats takes a discard before a knock only where it leaves 16 or more:
/// the walk weighs the rule's other takes as slips and the draws there as the model's move, as
/// brute force does; and on these positions that threshold changes some opponent's weights.
#[test]
fn the_walk_weighs_the_experts_takes_by_its_threshold_as_brute_force_does() {
    let p = Model::Expert.params_at(4).unwrap();
    assert_eq!(p.take_from, Some(Score::from_points(16)));
    let rule_takes: &'static Params = Box::leak(Box::new(Params {
        take_from: None,
        ..*p
    }));
    let inputs: Vec<(u64, StateInput)> = (1..24)
        .filter_map(|seed| Some((seed, position(seed, 4, 4 + (seed % 5) as usize)?)))
        .collect();
    let (checked, _) = walk_against_brute_force(&inputs, p);
    assert!(checked >= 12, "only {checked} opponents checked");
    let mut moved = 0;
    for (_, input) in &inputs {
        let view = View::from_input(input).unwrap();
        let unseen: Vec<Card> = view.unseen.iter().collect();
        let cancel = AtomicBool::new(false);
        for o in view.opponents.iter().filter(|o| small(&view, o)) {
            let [a, b] = [p, rule_takes].map(|params| {
                let walk = Counter::walk(
                    &view,
                    o,
                    &unseen,
                    &cancel,
                    Likelihood::new(&view, params, WALK),
                );
                normalised(walk.unwrap().into_iter().map(|(k, _, w)| (k, w)))
            });
            moved += usize::from(a != b);
        }
    }
    assert!(
        moved >= 3,
        "the threshold moved only {moved} opponents' weights"
    );
}

fn sorted(h: [Card; 3]) -> u64 {
    h.into_iter().collect::<CardSet>().bits()
}

/// The table's rule, a filter, is the model's limit without slips at the knock score 27: the
/// histories the model weighs above nothing are the table's, each weighing 1.
#[test]
fn without_slips_at_the_tables_knock_score_the_weights_are_the_tables_count() {
    let mut prior = [0.0; KNOCK_SCORES];
    prior[27 - usize::from(crate::model::LOWEST_KNOCK)] = 1.0;
    let strict: &'static Params = Box::leak(Box::new(Params {
        prior,
        slip: 1e-300,
        knock_slip: 1e-300,
        final_turn: None,
        lap_pull: 0.0,
        knocks: None,
        take_from: None,
    }));
    let mut checked = 0;
    for (seed, seats, turns) in [(2, 4, 6), (4, 3, 6), (6, 2, 6), (9, 4, 10)] {
        let Some(input) = position(seed, seats, turns) else {
            continue;
        };
        let view = View::from_input(&input).unwrap();
        let unseen: Vec<Card> = view.unseen.iter().collect();
        for o in view.opponents.iter().filter(|o| !o.turns.is_empty()) {
            let cancel = AtomicBool::new(false);
            let filter = Filter { view: &view };
            let table = Counter::walk(&view, o, &unseen, &cancel, filter).unwrap();
            let model = Likelihood::new(&view, strict, WALK);
            let Some(walked) = Counter::walk(&view, o, &unseen, &cancel, model) else {
                continue; // over the weighed walk's budget
            };
            let weighed: Vec<(u64, u64, f64)> = walked
                .into_iter()
                .map(|(k, h, w)| (k, sorted(h), w.iter().sum::<f64>()))
                .filter(|e| e.2 > 1e-100)
                .collect();
            let table: Vec<(u64, u64, f64)> = table
                .into_iter()
                .map(|(k, h, n)| (k, sorted(h), n as f64))
                .collect();
            let extra: Vec<_> = weighed.iter().filter(|e| !table.contains(e)).collect();
            let missing: Vec<_> = table.iter().filter(|e| !weighed.contains(e)).collect();
            assert!(
                extra.is_empty() && missing.is_empty(),
                "seed {seed}, seat {}: {} weighed, {} counted; extra {:?}; missing {:?}",
                o.seat,
                weighed.len(),
                table.len(),
                &extra[..extra.len().min(4)],
                &missing[..missing.len().min(4)]
            );
            checked += 1;
        }
    }
    assert!(checked >= 6, "only {checked}");
}

/// A query's effort follows its deals: two particles a deal in whole units of 1,024, from
/// 1,024 to [`PARTICLES`], and eight walk steps a deal in whole units of 2,048, at most 65,536
/// (the walks of the pool's days: two steps for each of its four histories a deal).
#[test]
fn the_effort_follows_the_deals() {
    for (deals, particles, walk) in [
        (1, 1024, 2048),
        (300, 1024, 4096),
        (1_000, 2048, 8192),
        (2_000, 4096, 16_384),
        (3_000, 6144, 24_576),
        (8_192, PARTICLES, 65_536),
        (10_000, PARTICLES, 65_536),
        (usize::MAX, PARTICLES, 65_536),
    ] {
        let e = Effort::for_deals(deals);
        assert_eq!((e.particles, e.walk), (particles, walk), "{deals} deals");
    }
}

/// The particles are the same on any number of threads: the same weights, to the last bit, on
/// one thread and on two.
#[test]
fn the_particles_are_the_same_on_any_number_of_threads() {
    let p = Model::Expert.params().unwrap();
    let input = (1..60).find_map(|s| position(s, 4, 9)).unwrap();
    let view = View::from_input(&input).unwrap();
    let unseen: Vec<Card> = view.unseen.iter().collect();
    let cancel = AtomicBool::new(false);
    for o in view.opponents.iter().filter(|o| !o.turns.is_empty()) {
        let on = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let ev = Likelihood::new(&view, p, 0);
            pool.install(|| particles(&view, o, &unseen, &cancel, &ev, 2048))
        };
        let (one, two) = (on(1), on(2));
        assert!(!one.is_empty());
        assert_eq!(one.len(), two.len());
        for (a, b) in one.iter().zip(&two) {
            assert_eq!((a.0, a.1), (b.0, b.1));
            assert!(a
                .2
                .iter()
                .zip(&b.2)
                .all(|(x, y)| x.to_bits() == y.to_bits()));
        }
    }
}

/// The facts' walk ends where the likelihood's does: at every budget both fit or neither does
/// (the least budget that fits, found by bisection for the likelihood, is the facts' too), so
/// that asking the facts first never changes which read an opponent gets.
#[test]
fn the_facts_walk_fits_exactly_where_the_weighed_walk_fits() {
    let cancel = AtomicBool::new(false);
    let mut checked = 0;
    each_small_opponent(|view, unseen, o, model, params| {
        let weighed = |budget| {
            let ev = Likelihood::new(view, params, budget);
            Counter::walk(view, o, unseen, &cancel, ev).is_some()
        };
        let facts = |budget| {
            let ev = Facts { view, budget };
            Counter::walk(view, o, unseen, &cancel, ev).is_some()
        };
        let (mut low, mut high) = (0u64, 1u64 << 22);
        if !weighed(high) {
            return;
        }
        while high - low > 1 {
            let mid = (low + high) / 2;
            if weighed(mid) {
                high = mid;
            } else {
                low = mid;
            }
        }
        assert!(facts(high) && !facts(low), "{model:?}, seat {}", o.seat);
        checked += 1;
    });
    assert!(checked >= 8, "only {checked}");
}
