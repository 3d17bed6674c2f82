//! The Oracle: every option of the advised player, evaluated over consistent deals by the
//! Monte Carlo engine, with the knock-threshold sweep and its confirmation (`oracle.md`).

use std::time::Instant;

use montecarlo::{
    collect, evaluate, margin, stats, CollectSettings, Collected, EvalSettings, Evaluation, Runner,
    Stop, Tally,
};

use crate::cards::Card;
use crate::error::{Error, Result};
use crate::inference::{Deal, Inference};
use crate::playout::{Choice, Playouts};
use crate::scoring::Score;
pub use crate::settings::Settings;
use crate::settings::{GRACE, MAX_DEALS, MIN_DEALS, MIN_PLAYOUTS};
use crate::view::{StateInput, View};

/// An option as reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Knock,
    Draw,
    /// Take `card` (the top discard) and put down `discard`.
    Take {
        card: Card,
        discard: Card,
    },
    /// Put down `card` after a pending draw.
    Discard {
        card: Card,
    },
    Decline,
}

/// The sweep of one option: figures for every knock threshold (None: never).
#[derive(Clone, Debug, PartialEq)]
pub struct Sweep {
    pub knock_at: Vec<Option<Score>>,
    pub p_safe: Vec<f64>,
    pub lives_lost: Vec<f64>,
}

/// One option's figures.
#[derive(Clone, Debug, PartialEq)]
pub struct OptionReport {
    pub kind: OptionKind,
    pub p_safe: f64,
    pub margin: f64,
    pub lives_lost: f64,
    /// The 95% margin of `lives_lost` (over the same units as `margin`).
    pub lives_lost_margin: f64,
    /// Some(threshold) when the option was swept (Some(None) = never knock).
    pub knock_at: Option<Option<Score>>,
    pub sweep: Option<Sweep>,
    /// The playouts behind the reported figures.
    pub playouts: u64,
}

/// The Oracle's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Advice {
    /// Best first.
    pub options: Vec<OptionReport>,
    /// Options (indices into `options`) statistically tied with the best.
    pub tied: Vec<usize>,
    pub deals: usize,
    pub deals_asked: usize,
    pub playouts: usize,
    pub warnings: Vec<String>,
    /// Each opponent's seat with the score of their hand in every deal the figures were played
    /// over, in the deals' order: the read of that opponent that the answer rests on.
    pub opponent_scores: Vec<(u8, Vec<Score>)>,
}

/// The score of each opponent's hand in each deal.
fn opponent_scores(view: &View, deals: &[Deal]) -> Vec<(u8, Vec<Score>)> {
    let scoring = view.table.rules.scoring;
    view.opponents
        .iter()
        .map(|o| {
            let s = o.seat as usize;
            (
                o.seat,
                deals.iter().map(|d| scoring.score(d.hands[s])).collect(),
            )
        })
        .collect()
}

/// Every score a hand can have under these rules that the table lets a player knock with.
pub fn knock_thresholds(view: &View) -> Vec<Score> {
    let scoring = view.table.rules.scoring;
    let mut seen = [false; 256];
    let cards: Vec<Card> = Card::all().collect();
    for i in 0..52 {
        for j in i + 1..52 {
            for k in j + 1..52 {
                seen[scoring.score([cards[i], cards[j], cards[k]]).halves() as usize] = true;
            }
        }
    }
    (0..=254u8)
        .map(Score)
        .filter(|s| seen[s.halves() as usize] && *s >= view.table.rules.min_knock)
        .collect()
}

/// Your options now.
fn choices(view: &View) -> Vec<Choice> {
    let mut choices = Vec::new();
    if let Some((new, from_pile)) = view.pending {
        choices.extend(view.hand.map(Choice::Discard));
        if !from_pile {
            choices.push(Choice::Discard(new));
        }
    } else {
        if view.may_knock() {
            choices.push(Choice::Knock);
        }
        if view.table.stock_len > 0 {
            choices.push(Choice::Draw);
        }
        if view.may_take() {
            choices.push(Choice::Take);
        }
        if view.table.stock_len == 0 {
            choices.push(Choice::Decline);
        }
    }
    choices
}

/// Evaluate every option of the player whose view `input` is.
///
/// With `max_time`, the whole answer comes within it: consistent deals are collected for at
/// most 40% of the time, and the playouts, played for every option side by side, stop when the
/// time is up (the best estimate reached, with the margin its numbers give). The least work an
/// answer rests on ([`MIN_DEALS`] deals and [`MIN_PLAYOUTS`] playouts per option, or fewer if
/// fewer are asked) is done even when the time is up, the deals for at most [`GRACE`] more.
/// With `target_margin`, deals (and playouts) are added until every option's margin is within
/// it.
pub fn advise(input: &StateInput, settings: &Settings) -> Result<Advice> {
    settings.validate()?;
    let view = View::from_input(input)?;
    let start = Instant::now();
    let deadline = settings.max_time.and_then(|d| start.checked_add(d));
    let grace = deadline.and_then(|d| d.checked_add(GRACE));
    let mut runner = Runner::new(settings.threads, None, settings.cancel.clone());
    let inference = runner.install(|| Inference::within(&view, grace));
    let choices = choices(&view);
    let sim = Playouts::new(&view, knock_thresholds(&view));
    let (mut target, mut playouts) = (settings.deals, settings.playouts);
    loop {
        // Consistent deals, for at most 40% of the time left.
        let now = Instant::now();
        runner.set_deadline(deadline.map(|d| now + d.saturating_duration_since(now).mul_f64(0.4)));
        let collected = collect_deals(&inference, target, settings, grace, &runner)?;
        let deals: &[Deal] = &collected.worlds;
        // Playouts: the sweep until 65% of the time left, the confirmation until the end.
        let now = Instant::now();
        runner.set_deadline(deadline);
        let eval = evaluate(
            &sim,
            deals,
            &choices,
            &EvalSettings {
                playouts,
                seed: settings.seed,
                sweep_deadline: deadline
                    .map(|d| now + d.saturating_duration_since(now).mul_f64(0.65)),
                minimum: MIN_PLAYOUTS.min(playouts),
            },
            &runner,
        );
        if eval.stopped == Some(Stop::Cancelled) {
            return Err(Error::Cancelled);
        }
        let options: Vec<OptionReport> = choices
            .iter()
            .zip(&eval.choices)
            .map(|(choice, r)| {
                let n = collected.effective(r.result.n) as u64;
                report(&sim, &view, choice, r, n)
            })
            .collect();
        let deals_used = effective_deals(&collected, target);
        // More deals for a target margin, while the time allows and deals are not rare.
        let widest = options.iter().map(|o| o.margin).fold(0.0, f64::max);
        if let Some(m) = settings.target_margin {
            if widest > m
                && eval.stopped.is_none()
                && deals_used == target
                && target < MAX_DEALS
                && deadline.is_none_or(|d| Instant::now() < d)
            {
                let grow = (widest / m).powi(2) * 1.05;
                target = ((target as f64 * grow).ceil() as usize).clamp(target + 1, MAX_DEALS);
                playouts = playouts.max(target);
                continue;
            }
        }
        let played = options.iter().map(|o| o.playouts).min().unwrap_or(0) as usize;
        let warnings = warnings(
            &view, &collected, deals_used, &eval, target, playouts, played, widest, settings,
        );
        let playouts = if eval.stopped.is_some() {
            played
        } else {
            playouts
        };
        let mut advice = rank(options, &eval, deals_used, playouts, target, warnings);
        advice.opponent_scores = opponent_scores(&view, deals);
        return Ok(advice);
    }
}

/// Up to `target` consistent deals; until [`MIN_DEALS`] are found the collection may run on to
/// `grace`. None at all is an error: a time limit too short, or a history nothing explains.
fn collect_deals(
    inference: &Inference<'_>,
    target: usize,
    settings: &Settings,
    grace: Option<Instant>,
    runner: &Runner,
) -> Result<Collected<Deal>> {
    let collected = collect(
        inference,
        &CollectSettings {
            target,
            seed: settings.seed,
            minimum: MIN_DEALS.min(target),
            minimum_deadline: grace,
            ..CollectSettings::default()
        },
        runner,
    );
    match collected.stopped {
        Some(Stop::Cancelled) => Err(Error::Cancelled),
        _ if !collected.worlds.is_empty() => Ok(collected),
        Some(Stop::Time) => Err(Error::BadSetting(format!(
            "no consistent deal was found within the time limit (max_time {} s, and {} s more \
             for the least work an answer needs)",
            settings.max_time.map_or(0.0, |d| d.as_secs_f64()),
            GRACE.as_secs_f64()
        ))),
        None => Err(Error::BadState("no consistent deal was found".into())),
    }
}

/// The number of consistent deals the figures rest on: those collected, or where rare deals were
/// importance-weighted and resampled, their effective number (at most the number asked for).
fn effective_deals(collected: &Collected<Deal>, target: usize) -> usize {
    match collected.ess {
        None => collected.worlds.len(),
        Some(_) => (collected.effective(u64::MAX) as usize).min(target),
    }
}

/// A count with thousands separators: 278,016.
fn thousands(n: usize) -> String {
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
fn warnings(
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
    for &i in &collected.fallback_parts {
        warnings.push(format!(
            "no deal explains seat {}'s play by the table's rule, so that opponent was dealt without the consistency test",
            view.opponents[i].seat
        ));
    }
    if collected.stopped == Some(Stop::Time) {
        warnings.push(format!(
            "the time limit was reached while collecting consistent deals: {} of {} collected, so the margins are wider",
            thousands(deals),
            thousands(target)
        ));
    } else if deals < target {
        warnings.push(format!(
            "consistent deals are rare here: only {} of {} were found, so the margins are wider",
            thousands(deals),
            thousands(target)
        ));
    }
    if eval.stopped == Some(Stop::Time) {
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
fn rank(
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
    Advice {
        options,
        tied,
        deals,
        deals_asked,
        playouts,
        warnings,
        opponent_scores: Vec::new(),
    }
}

fn report(
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
    let kind = match *choice {
        Choice::Knock => OptionKind::Knock,
        Choice::Draw => OptionKind::Draw,
        Choice::Take => OptionKind::Take {
            card: view.table.top,
            discard: sim.take_put_down(variant),
        },
        Choice::Discard(card) => OptionKind::Discard { card },
        Choice::Decline => OptionKind::Decline,
    };
    let p = r.result.p();
    let (knock_at, sweep) = if sim.sweeps(choice) {
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
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::round::Source;
    use crate::rules::RoundRules;
    use crate::view::TurnInput;

    fn c(t: &str) -> Card {
        t.parse().unwrap()
    }

    /// The example of oracle.md.
    pub(crate) fn example() -> StateInput {
        let play = |seat, pile: bool, drew: Option<&str>, discard: &str| TurnInput::Play {
            seat,
            from: if pile { Source::Pile } else { Source::Stock },
            drew: drew.map(c),
            discard: c(discard),
            shows: None,
        };
        StateInput {
            rules: RoundRules::default(),
            seats: 4,
            me: 0,
            first: 1,
            upcard: c("7S"),
            hand: [c("AH"), c("9H"), c("4H")],
            turns: vec![
                play(1, false, None, "5C"),
                play(2, true, None, "KD"),
                play(3, false, None, "2D"),
                play(0, false, Some("8S"), "8S"),
                play(1, false, None, "6D"),
                play(2, true, None, "3C"),
                play(3, false, None, "QC"),
            ],
            pending: None,
        }
    }

    #[test]
    fn counts_are_written_with_thousands_separators() {
        assert_eq!(thousands(7), "7");
        assert_eq!(thousands(278_016), "278,016");
        assert_eq!(thousands(3_000_000), "3,000,000");
    }

    #[test]
    fn the_example_is_answered_with_every_option() {
        let settings = Settings {
            deals: 2_000,
            playouts: 10_000,
            seed: 1,
            threads: Some(2),
            // No time limit: these tests are about the numbers (and run unoptimised).
            max_time: None,
            ..Settings::default()
        };
        let a = advise(&example(), &settings).unwrap();
        assert_eq!(a.deals, 2_000);
        assert_eq!(a.options.len(), 3);
        for o in &a.options {
            assert!((0.0..=1.0).contains(&o.p_safe));
            assert!(o.lives_lost >= 0.0);
            if o.kind != OptionKind::Knock {
                assert!(o.knock_at.is_some());
            }
        }
        assert!(a.options[0].p_safe >= a.options[1].p_safe - a.options[0].margin * 3.0);
    }

    #[test]
    fn no_time_at_all_still_answers_from_the_minimum() {
        let settings = Settings {
            deals: 10_000,
            playouts: 50_000,
            seed: 2,
            threads: Some(2),
            max_time: Some(std::time::Duration::from_nanos(1)),
            ..Settings::default()
        };
        let start = Instant::now();
        let a = advise(&example(), &settings).unwrap();
        assert!(start.elapsed() < GRACE + std::time::Duration::from_millis(1_500));
        assert!(a.deals >= 1);
        assert!(
            (MIN_PLAYOUTS..50_000).contains(&a.playouts),
            "{}",
            a.playouts
        );
        for o in &a.options {
            assert!(o.playouts >= MIN_PLAYOUTS as u64);
            assert!(o.margin.is_finite() && o.margin <= 1.0);
        }
        assert!(a.warnings.iter().any(|w| w.contains("time limit")));
    }

    #[test]
    fn settings_past_their_bounds_are_refused_before_any_work() {
        for s in [
            Settings {
                deals: 1_000_000_000_000,
                ..Settings::default()
            },
            Settings {
                threads: Some(1_000_000),
                ..Settings::default()
            },
            Settings {
                max_time: Some(std::time::Duration::from_secs(1 << 40)),
                ..Settings::default()
            },
        ] {
            assert!(matches!(advise(&example(), &s), Err(Error::BadSetting(_))));
        }
    }

    #[test]
    fn same_seed_same_answer_whatever_the_threads() {
        let s1 = Settings {
            deals: 500,
            playouts: 2_000,
            seed: 4,
            threads: Some(1),
            max_time: None,
            ..Settings::default()
        };
        let s2 = Settings {
            threads: Some(2),
            ..s1.clone()
        };
        assert_eq!(
            advise(&example(), &s1).unwrap(),
            advise(&example(), &s2).unwrap()
        );
    }
}
