//! [`Config::pace`]: a follow decision that stops once its move is settled,
//! and a game that spends what such decisions saved where the plans split.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::pimc::{Config, RootMove};
use super::Budget;

/// The decisions a [`Pace`] spreads what the game saved over (not tuned).
const SPREAD: f64 = 8.0;

/// A paced decision ([`Config::pace`]): its budget in one unit (seconds by
/// the clock, else playouts), `nominal`, and how far it may go while its
/// plans split, `longest` (at most twice `nominal`, within what the game
/// saved so far).
#[derive(Clone, Copy, Debug)]
pub struct Pace {
    /// The decision's budget as configured.
    budget: f64,
    pub nominal: f64,
    pub longest: f64,
    clock: bool,
    started: Instant,
}

impl Pace {
    pub fn new(cfg: &Config, bank: f64, started: Instant) -> Pace {
        let clock = cfg.time_limit.is_some();
        let budget = cfg.time_limit.unwrap_or(cfg.playouts.unwrap_or(1) as f64);
        // What was saved is spent over the next decisions (an eighth of it each, so a game
        // does not end with it), and a decision whose plans split may take the rest, up to
        // twice its budget; a game that spent ahead pays it back, half a budget at most.
        let nominal = if bank >= 0.0 { budget + (bank / SPREAD).min(budget) } else { budget + bank.max(-budget / 2.0) };
        let longest = if bank >= 0.0 { (budget + bank).min(2.0 * budget) } else { nominal };
        Pace { budget, nominal, longest: longest.max(nominal), clock, started }
    }
    /// The budget in the decision's unit after `playouts`.
    pub fn used(&self, playouts: u64) -> f64 {
        if self.clock { self.started.elapsed().as_secs_f64() } else { playouts as f64 }
    }
    /// The game's bank after this decision ran `playouts`: what it saved of its budget (or overspent).
    pub fn bank_after(&self, bank: f64, playouts: u64) -> f64 {
        bank + self.budget - self.used(playouts)
    }
    /// The decision's budget: `longest`, with the count of a playout budget scaled alike.
    pub fn limits<'a>(&self, cfg: &Config, stop: Option<&'a AtomicBool>) -> Budget<'a> {
        // The count follows the budget it was given: `longest` is in units of `budget`.
        let scale = |n: u64| (n as f64 * self.longest / self.budget).ceil() as u64;
        let seconds = self.clock.then_some(self.longest);
        Budget::new(cfg.playouts.map(scale), seconds, self.started, stop)
    }
    /// Whether the move is settled after `used` of the budget and `plans`
    /// plans: the first of most plans leads the runner-up by more plans than
    /// the rest of the horizon would bring at the pace so far, so no more
    /// plans can change it. The horizon is `nominal`, then, past it, `longest`.
    pub fn settled<M>(&self, root: &[RootMove<M>], plans: u32, used: f64) -> bool {
        let horizon = if used < self.nominal { self.nominal } else { self.longest };
        if used >= horizon {
            return true;
        }
        let (mut lead, mut second) = (0u32, 0u32);
        for r in root {
            if r.tried > lead {
                (lead, second) = (r.tried, lead);
            } else if r.tried > second {
                second = r.tried;
            }
        }
        used > 0.0 && f64::from(lead - second) > f64::from(plans) * (horizon - used) / used
    }
}

