//! N seeded games on T threads, each played by [`play`]: the one loop
//! behind the arena, batch playouts and self-play (the arena with a
//! recorder), and the checks every run makes before its first game.
//!
//! Game `k` of a run is its table dealt (and its cards drawn) from seed
//! `seed + k`, so results never depend on the thread count or on which
//! thread played which game.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use crate::action::Action;
use crate::agents::player::{decision_rng, Agent, Explore, Player, Stats};
use crate::error::Error;
use crate::limits::MAX_THREADS;
use crate::setup::Setup;
use crate::state::{State, MAX_PLAYERS};

/// A game as [`play`] left it.
#[derive(Clone, Debug)]
pub struct Played {
    /// The last state: over, unless `stop` cut the game short.
    pub state: State,
    /// Every decision of the players in order (not the solo Dragon's moves, which `apply` replays).
    pub actions: Vec<Action>,
    /// Per seat: decisions taken.
    pub decisions: [u32; MAX_PLAYERS],
    /// Per seat: seconds spent choosing them.
    pub seconds: [f64; MAX_PLAYERS],
}

/// Play the game of `setup` to the end, seat `i` deciding with
/// `players[i]` by the seed rule ([`decision_rng`]); `record(state, seat,
/// action, stats)` sees every decision before it is played, after it is
/// timed. With `timed`, the seconds of each seat's decisions are measured
/// (two clock reads a decision: a random game's decisions cost about as
/// much). When `stop` becomes true the game is abandoned (and returned
/// unfinished). An error is a setup's or an evaluator's.
pub fn play<E: Explore>(players: &mut [Player<E>], setup: &Setup, stop: &AtomicBool, timed: bool, mut record: impl FnMut(&State, usize, Action, &Stats)) -> Result<Played, Error> {
    let mut s = setup.state()?;
    let mut out = Played { state: s, actions: Vec::new(), decisions: [0; MAX_PLAYERS], seconds: [0.0; MAX_PLAYERS] };
    while !s.is_over() && !stop.load(Ordering::Relaxed) {
        let seat = s.current_player();
        let player = players.get_mut(seat).ok_or_else(|| Error::Setup(format!("no player for seat {seat}")))?;
        let mut rng = decision_rng(setup.seed, seat, out.decisions[seat]);
        let start = timed.then(Instant::now);
        let (a, stats) = player.decide(&s, &out.actions, &mut rng, Some(stop))?;
        out.seconds[seat] += start.map_or(0.0, |t| t.elapsed().as_secs_f64());
        out.decisions[seat] += 1;
        let Some(a) = a else { break };
        record(&s, seat, a, &stats);
        s.apply_unchecked(a);
        out.actions.push(a);
    }
    out.state = s;
    Ok(out)
}

/// The table of a run of `games` games on `threads` threads, checked: the
/// thread count, every game's seed (`seed + k` must not pass 2^64 - 1), the
/// table itself, no explicit deal; its layout resolved once, not per game.
pub fn table(setup: &Setup, games: usize, threads: usize) -> Result<Setup, Error> {
    if !(1..=MAX_THREADS).contains(&threads) {
        return Err(Error::Setup(format!("threads must be 1 to {MAX_THREADS}; got {threads}")));
    }
    check_seeds(setup.seed, games)?;
    setup.validate()?;
    if setup.deal.is_some() {
        return Err(Error::Setup("a run deals each game from its seed; an explicit deal is not allowed".into()));
    }
    Ok(Setup { layout: Some(setup.layout()), ..setup.clone() })
}

/// Game `k` of a run is dealt from `seed + k`: every one must fit in 64 bits.
pub fn check_seeds(seed: u64, games: usize) -> Result<(), Error> {
    match seed.checked_add(games.saturating_sub(1) as u64) {
        Some(_) => Ok(()),
        None => Err(Error::Setup(format!("game seeds seed + k must stay below 2**64; seed {seed} with {games} games does not"))),
    }
}

/// Every agent can play a table of `players` (a network made for solo
/// games refuses rivals, the planner too) and none reads the covered tiles
/// where rivals play: what every run checks once, before its first game.
pub fn check_seats<'a>(agents: impl IntoIterator<Item = &'a Agent>, players: usize) -> Result<(), Error> {
    let mut hidden = Vec::new();
    for agent in agents {
        agent.check_players(players).map_err(Error::Setup)?;
        hidden.push(agent.reads_hidden());
    }
    crate::agents::check_table(&hidden, players, false)
}

/// Play every game of `out` (game `k` into `out[k]`) on `threads` threads
/// with `play(k, table of game k)` (which calls [`play`]), handing out `chunk` games at a time (1
/// balances long games; more saves the handing out for short ones). `done`
/// counts finished games. `play` returns `Ok(None)` for a game cut short by
/// `stop`, which ends the run after the games in hand; the first error stops
/// every thread and is returned. Slots of games not played stay `None`.
pub fn games<T: Send, E: Send>(
    table: &Setup,
    out: &mut [Option<T>],
    chunk: usize,
    threads: usize,
    done: Option<&AtomicUsize>,
    stop: &AtomicBool,
    play: impl Fn(usize, &Setup) -> Result<Option<T>, E> + Sync,
) -> Result<(), E> {
    let chunk = chunk.max(1);
    let chunks = Mutex::new(out.chunks_mut(chunk).enumerate());
    let failed: Mutex<Option<E>> = Mutex::new(None);
    let quit = || stop.load(Ordering::Relaxed) || failed.lock().map(|f| f.is_some()).unwrap_or(true);
    let worker = || {
        let mut game = table.clone();
        while !quit() {
            let Some((c, part)) = chunks.lock().ok().and_then(|mut it| it.next()) else { return };
            for (i, slot) in part.iter_mut().enumerate() {
                let k = c * chunk + i;
                game.seed = table.seed + k as u64;
                match play(k, &game) {
                    Ok(Some(g)) if !stop.load(Ordering::Relaxed) => *slot = Some(g),
                    // Cut short: the game may be unfinished, leave it out.
                    Ok(_) => return,
                    Err(e) => {
                        if let Ok(mut f) = failed.lock() {
                            f.get_or_insert(e);
                        }
                        return;
                    }
                }
                if let Some(d) = done {
                    d.fetch_add(1, Ordering::Relaxed);
                }
                if quit() {
                    return;
                }
            }
        }
    };
    std::thread::scope(|scope| {
        let mut handles = Vec::new();
        for _ in 0..threads.clamp(1, out_len(chunk, &chunks)) {
            let w = &worker;
            // A thread the system refuses (too many already) is one fewer to share the games.
            match std::thread::Builder::new().spawn_scoped(scope, move || w()) {
                Ok(h) => handles.push(h),
                Err(_) => break,
            }
        }
        if handles.is_empty() {
            worker();
        }
        // A panic in a worker is a bug: pass it on (the bindings turn it into an exception).
        for h in handles {
            h.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
        }
    });
    match failed.into_inner().ok().flatten() {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Chunks left to hand out (no more threads than that are started).
fn out_len<I: ExactSizeIterator>(_chunk: usize, chunks: &Mutex<I>) -> usize {
    chunks.lock().map(|it| it.len()).unwrap_or(1).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_land_in_order_whatever_the_threads() {
        let table = table(&Setup::new(2, 40), 37, 3).unwrap();
        let stop = AtomicBool::new(false);
        let run = |threads, chunk| {
            let mut out = vec![None; 37];
            let done = AtomicUsize::new(0);
            games(&table, &mut out, chunk, threads, Some(&done), &stop, |k, t| Ok::<_, ()>(Some((k, t.seed)))).unwrap();
            assert_eq!(done.load(Ordering::Relaxed), 37);
            out
        };
        let one = run(1, 1);
        assert!(one.iter().enumerate().all(|(k, g)| *g == Some((k, 40 + k as u64))));
        assert_eq!(run(3, 1), one);
        assert_eq!(run(2, 8), one);
    }

    #[test]
    fn the_first_error_stops_the_run_and_checks_come_first() {
        let table = table(&Setup::new(1, 0), 100, 2).unwrap();
        let stop = AtomicBool::new(false);
        let mut out: Vec<Option<usize>> = vec![None; 100];
        let e = games(&table, &mut out, 1, 2, None, &stop, |k, _| if k == 10 { Err(k) } else { Ok(Some(k)) });
        assert_eq!(e, Err(10));
        assert!(out.iter().flatten().count() < 100);
        assert!(super::table(&Setup::new(2, u64::MAX), 2, 1).is_err());
        assert!(super::table(&Setup::new(2, u64::MAX), 1, 1).is_ok());
        assert!(super::table(&Setup::new(2, 0), 1, 0).is_err());
        assert!(super::table(&Setup::new(2, 0), 1, MAX_THREADS + 1).is_err());
    }
}
