//! The answer put together: each option's report, the options ranked best first with those
//! statistically tied, the warnings that say what the figures rest on when it is less than
//! was asked, and the game-level figures checked to lie in their range.

use montecarlo::{margin, stats, Collected, Evaluation, Stop, Tally, Unexplained};

use super::advise::{Advice, OptionKind, OptionReport, Sweep};
use super::settings::{Settings, LEAST_ATTEMPTS};
use super::{Choice, Playouts};
use crate::hand::{Card, Score};
use crate::inference::Deal;
use crate::view::View;

/// How far a game-level figure may stray past its range by rounding alone (it is a mean of the
/// table's values, each a weighted mean of values in range).
const ROUNDING: f64 = 1e-9;

/// The game-level figures checked where the answer is built: from 0 to `most` (1 for a chance,
/// the winner's points under ranked placing). A figure past its range by rounding is put back
/// in it. One further off is a bug (the round results the table rests on are checked when
/// read, so none can make it): a debug build stops on it, and a release build leaves every
/// option's game-level figures out, saying so (the returned warning), rather than show a
/// figure that cannot be.
pub(super) fn game_figures_in_range(options: &mut [OptionReport], most: f64) -> Option<String> {
    let wrong = options.iter().find_map(|o| {
        let p = o.p_win?;
        let m = o.p_win_margin.unwrap_or(0.0);
        let fine = (-ROUNDING..=most + ROUNDING).contains(&p) && (0.0..=most).contains(&m);
        (!fine).then_some((p, m))
    });
    if let Some((p, m)) = wrong {
        debug_assert!(false, "a game-level figure {p} ± {m} outside 0 to {most}");
        for o in options.iter_mut() {
            o.p_win = None;
            o.p_win_margin = None;
        }
        return Some(format!(
            "the game-level figures are left out: one came out at {p} (± {m}), outside 0 to \
             {most} (a bug: please report it)"
        ));
    }
    for o in options.iter_mut() {
        if let Some(p) = o.p_win.as_mut() {
            *p = p.clamp(0.0, most);
        }
    }
    None
}

/// A count with thousands separators: 278,016.
pub(super) fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// What the figures rest on, when it is less than was asked.
#[allow(clippy::too_many_arguments)]
pub(super) fn warnings(
    view: &View,
    collected: &Collected<Deal>,
    deals: usize,
    eval: &Evaluation,
    target: usize,
    playouts: usize,
    played: usize,
    widest: f64,
    settings: &Settings,
) -> Vec<String> {
    let mut warnings = Vec::new();
    for (&i, why) in collected.fallback_parts.iter().zip(&collected.fallback_why) {
        let seat = view.opponents[i].seat;
        let what = match why {
            Unexplained::Alone => {
                format!("no deal explains seat {seat}'s play by the table's rule")
            }
            Unexplained::Together => format!(
                "no deal explains seat {seat}'s play by the table's rule together with the plays \
                 of the opponents before them"
            ),
            Unexplained::Rare => format!(
                "no deal that explains seat {seat}'s play by the table's rule together with the \
                 other opponents' plays was found in {} attempts",
                thousands(LEAST_ATTEMPTS as usize)
            ),
        };
        warnings.push(format!(
            "{what}, so that opponent was dealt without the consistency test"
        ));
    }
    // (A limit reached as the last deals came in cut nothing: no warning then.)
    if collected.stopped == Some(Stop::Time) && deals < target {
        warnings.push(format!(
            "the time limit was reached while collecting consistent deals: {} of {} collected, so the margins are wider",
            thousands(deals),
            thousands(target)
        ));
    } else if deals < target {
        warnings.push(format!(
            "consistent deals are rare here: only {} of {} {} found, so the margins are wider",
            thousands(deals),
            thousands(target),
            if deals == 1 { "was" } else { "were" }
        ));
    }
    if eval.stopped == Some(Stop::Time) && played < playouts {
        warnings.push(format!(
            "the time limit was reached: the figures come from {} of {} playouts per option",
            thousands(played),
            thousands(playouts)
        ));
    }
    if let Some(m) = settings.target_margin {
        if widest > m {
            warnings.push(format!(
                "the target margin of ±{m} was not reached: the widest margin is ±{widest:.4}"
            ));
        }
    }
    warnings
}

/// The options best first, then by p_safe (ties: lower lives lost, then the natural order), and
/// those statistically tied with the best.
pub(super) fn rank(
    options: Vec<OptionReport>,
    eval: &montecarlo::Evaluation,
    deals: usize,
    playouts: usize,
    deals_asked: usize,
    warnings: Vec<String>,
) -> Advice {
    let tallies: Vec<Tally> = eval.choices.iter().map(|r| r.result).collect();
    let mut order: Vec<usize> = (0..options.len()).collect();
    order.sort_by(|&a, &b| stats::compare(&tallies[b], &tallies[a]).then(a.cmp(&b)));
    let mut slots: Vec<Option<OptionReport>> = options.into_iter().map(Some).collect();
    let options: Vec<OptionReport> = order.iter().filter_map(|&i| slots[i].take()).collect();
    let tied = (1..options.len())
        .filter(|&i| stats::tied(options[0].p_safe, options[0].margin, options[i].p_safe))
        .collect();
    // The highest p_win; between equal values, the better for the round (the first).
    let best_game = (0..options.len())
        .filter_map(|i| options[i].p_win.map(|p| (i, p)))
        .fold(None, |best: Option<(usize, f64)>, (i, p)| match best {
            Some((_, b)) if b >= p => best,
            _ => Some((i, p)),
        })
        .map(|(i, _)| i);
    Advice {
        options,
        tied,
        deals,
        deals_asked,
        playouts,
        attempts: 0,
        warnings,
        opponent_scores: Vec::new(),
        opponent_knocks: Vec::new(),
        best_game,
        points: false,
    }
}

pub(super) fn report(
    sim: &Playouts<'_>,
    view: &View,
    choice: &Choice,
    r: &montecarlo::ChoiceResult,
    deals: u64,
) -> OptionReport {
    // The margin's n: the (effective) number of consistent deals the figures were played over.
    let n = deals;
    let per = sim.per_variant(choice);
    let variant = r.policy / per;
    let p = r.result.p();
    let kind = match *choice {
        Choice::Knock => OptionKind::Knock,
        Choice::Draw => OptionKind::Draw,
        Choice::Take => {
            let card = view.public.top;
            // When no put-down is ever safe the figures cannot choose one: name the one that
            // keeps the best hand (the first of them in hand order).
            let discard = if p > 0.0 {
                sim.take_put_down(variant)
            } else {
                best_keeping(view, card)
            };
            OptionKind::Take { card, discard }
        }
        Choice::Discard(card) => OptionKind::Discard { card },
        Choice::Decline => OptionKind::Decline,
    };
    // A take or a put-down that leaves a 31 shows it at once: the round ends, no knock follows.
    let shown =
        !matches!(kind, OptionKind::Knock) && keeps(view, &kind).is_some_and(Score::is_blitz);
    let (knock_at, sweep) = if sim.sweeps(choice) && !shown {
        let row = &r.sweep[variant * per..(variant + 1) * per];
        (
            Some(sim.threshold_of(r.policy % per)),
            Some(Sweep {
                knock_at: (0..per).map(|t| sim.threshold_of(t)).collect(),
                p_safe: row.iter().map(Tally::p).collect(),
                lives_lost: row.iter().map(Tally::mean_cost).collect(),
            }),
        )
    } else {
        (None, None)
    };
    OptionReport {
        kind,
        p_safe: p,
        margin: margin(p, n),
        lives_lost: r.result.mean_cost(),
        lives_lost_margin: r.result.cost_margin(n),
        knock_at,
        sweep,
        playouts: r.result.n,
        p_win: sim.valued().then(|| r.result.mean_value()),
        p_win_margin: sim.valued().then(|| r.result.value_margin(n)),
        keeps: keeps(view, &kind),
        // With your 31 kept hidden: a draw keeps it and shows it at the put-down, and a take or
        // a put-down that leaves a 31 keeps one (it is not made there) and shows it.
        shows_hidden_31: view.hid_31[usize::from(view.me)]
            && (matches!(kind, OptionKind::Draw) || shown),
    }
}

/// The score of the hand an option keeps: the hand held for a knock; after a draw or take,
/// the four cards but the one put down. None for a draw (the card is not known yet) and a
/// decline.
pub(super) fn keeps(view: &View, kind: &OptionKind) -> Option<Score> {
    let scoring = view.public.rules.scoring;
    match *kind {
        OptionKind::Knock => Some(scoring.score(view.hand)),
        OptionKind::Take { card, discard } => Some(scoring.score(kept(view.hand, card, discard))),
        OptionKind::Discard { card } => view
            .pending
            .map(|(new, _)| scoring.score(kept(view.hand, new, card))),
        OptionKind::Draw | OptionKind::Decline => None,
    }
}

/// The three cards left of `hand` and `new` once `out` is put down.
pub(super) fn kept(hand: [Card; 3], new: Card, out: Card) -> [Card; 3] {
    let mut four = [hand[0], hand[1], hand[2], new];
    if let Some(i) = four.iter().position(|&c| c == out) {
        four.swap(i, 3);
    }
    [four[0], four[1], four[2]]
}

/// The card of `hand` whose put-down, after taking `taken`, keeps the best hand (the first such
/// card in hand order).
fn best_keeping(view: &View, taken: Card) -> Card {
    let scoring = view.public.rules.scoring;
    let mut best = view.hand[0];
    let mut top = scoring.score(kept(view.hand, taken, best));
    for &card in &view.hand[1..] {
        let score = scoring.score(kept(view.hand, taken, card));
        if score > top {
            (best, top) = (card, score);
        }
    }
    best
}
