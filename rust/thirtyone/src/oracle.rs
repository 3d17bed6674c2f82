//! The Oracle: every option of the advised player, evaluated over consistent deals by the
//! Monte Carlo engine, with the knock-threshold sweep and its confirmation (`oracle.md`).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use montecarlo::{collect, evaluate, margin, stats, CollectSettings, Runner, Stop, Tally};

use crate::cards::Card;
use crate::error::{Error, Result};
use crate::inference::{Deal, Inference};
use crate::playout::{Choice, Playouts};
use crate::scoring::Score;
use crate::view::{StateInput, View};

/// How hard the Oracle works.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Consistent deals to collect (at most).
    pub deals: usize,
    /// Playouts per option (and as many again to confirm a sweep's best).
    pub playouts: usize,
    pub seed: u64,
    /// Threads (None: one per core).
    pub threads: Option<usize>,
    /// Time allowed for collecting consistent deals.
    pub max_time: Option<Duration>,
    /// Set from another thread to stop the work (Ctrl-C).
    pub cancel: Arc<AtomicBool>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            deals: 10_000,
            playouts: 50_000,
            seed: 0,
            threads: None,
            max_time: Some(Duration::from_secs(5)),
            cancel: Arc::new(AtomicBool::new(false)),
        }
    }
}

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
}

/// Every score a hand can have under these rules that the table lets a player knock with.
pub fn knock_thresholds(view: &View) -> Vec<Score> {
    let scoring = view.rules.scoring;
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
        .filter(|s| seen[s.halves() as usize] && *s >= view.rules.min_knock)
        .collect()
}

/// Evaluate every option of the player whose view `input` is.
pub fn advise(input: &StateInput, settings: &Settings) -> Result<Advice> {
    let view = View::from_input(input)?;
    if settings.deals == 0 || settings.playouts == 0 {
        return Err(Error::BadState(
            "deals and playouts must be at least 1".into(),
        ));
    }
    let start = Instant::now();
    let mut runner = Runner::new(
        settings.threads,
        settings.max_time.map(|d| start + d),
        settings.cancel.clone(),
    );
    let mut warnings = Vec::new();

    // Consistent deals.
    let inference = Inference::new(&view);
    let collected = collect(
        &inference,
        &CollectSettings {
            target: settings.deals,
            seed: settings.seed,
            ..CollectSettings::default()
        },
        &runner,
    );
    if collected.stopped == Some(Stop::Cancelled) {
        return Err(Error::Cancelled);
    }
    for &i in &collected.fallback_parts {
        warnings.push(format!(
            "no deal explains seat {}'s play by the table's rule, so that opponent was dealt without the consistency test",
            view.opponents[i].seat
        ));
    }
    let deals: Vec<Deal> = collected.worlds;
    if deals.is_empty() {
        return Err(Error::BadState(if collected.stopped == Some(Stop::Time) {
            "no consistent deal was found within the time limit".into()
        } else {
            "no consistent deal was found".into()
        }));
    }
    if collected.stopped == Some(Stop::Time) {
        warnings.push(format!(
            "the time limit was reached while collecting consistent deals: {} of {} collected",
            deals.len(),
            settings.deals
        ));
    } else if deals.len() < settings.deals {
        warnings.push(format!(
            "consistent deals are rare here: only {} of {} were found, so the margins are wider",
            deals.len(),
            settings.deals
        ));
    }

    // Options.
    let mut choices = Vec::new();
    if let Some((new, from_pile)) = view.pending {
        for c in view.hand {
            choices.push(Choice::Discard(c));
        }
        if !from_pile {
            choices.push(Choice::Discard(new));
        }
    } else {
        if view.may_knock() {
            choices.push(Choice::Knock);
        }
        if view.stock_len > 0 {
            choices.push(Choice::Draw);
        }
        if view.may_take() {
            choices.push(Choice::Take);
        }
        if view.stock_len == 0 {
            choices.push(Choice::Decline);
        }
    }

    // Playouts: no time limit (their number is fixed), but Ctrl-C still stops them.
    runner.set_deadline(None);
    let sim = Playouts::new(&view, knock_thresholds(&view));
    let eval = evaluate(
        &sim,
        &deals,
        &choices,
        settings.playouts,
        settings.seed,
        &runner,
    );
    if eval.stopped == Some(Stop::Cancelled) {
        return Err(Error::Cancelled);
    }
    let n_used = deals.len().min(settings.playouts) as u64;
    let options: Vec<OptionReport> = choices
        .iter()
        .zip(&eval.choices)
        .map(|(choice, r)| report(&sim, &view, choice, r, n_used))
        .collect();
    // Best first, then by p_safe (ties: lower lives lost, then the natural order).
    let tallies: Vec<Tally> = eval.choices.iter().map(|r| r.result).collect();
    let mut order: Vec<usize> = (0..options.len()).collect();
    order.sort_by(|&a, &b| stats::compare(&tallies[b], &tallies[a]).then(a.cmp(&b)));
    let mut slots: Vec<Option<OptionReport>> = options.into_iter().map(Some).collect();
    let options: Vec<OptionReport> = order.iter().filter_map(|&i| slots[i].take()).collect();
    let tied = (1..options.len())
        .filter(|&i| stats::tied(options[0].p_safe, options[0].margin, options[i].p_safe))
        .collect();
    Ok(Advice {
        options,
        tied,
        deals: deals.len(),
        deals_asked: settings.deals,
        playouts: settings.playouts,
        warnings,
    })
}

fn report(
    sim: &Playouts<'_>,
    view: &View,
    choice: &Choice,
    r: &montecarlo::ChoiceResult,
    n: u64,
) -> OptionReport {
    let per = sim.per_variant(choice);
    let variant = r.policy / per;
    let kind = match *choice {
        Choice::Knock => OptionKind::Knock,
        Choice::Draw => OptionKind::Draw,
        Choice::Take => OptionKind::Take {
            card: view.top,
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
    fn the_example_is_answered_with_every_option() {
        let settings = Settings {
            deals: 2_000,
            playouts: 10_000,
            seed: 1,
            threads: Some(2),
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
    fn same_seed_same_answer_whatever_the_threads() {
        let s1 = Settings {
            deals: 500,
            playouts: 2_000,
            seed: 4,
            threads: Some(1),
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
