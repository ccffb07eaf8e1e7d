//! The second way a table can be sent: its frequencies exactly (version 1's form). It wins
//! over quantised log weights ([`super::tables`]) on small, peaked tables, where a few
//! Exp-Golomb values at low precision cost less than the level list; the encoder sends
//! whichever is cheaper.
//!
//! Frequencies `f₀..fₙ₋₂` in Exp-Golomb order *k*, a coded 0 followed by an order-0 code
//! of (run − 1) for a run of zeros; `fₙ₋₁ = 2^p − sum`, which must be at least 1.

use super::super::error::BcpackError;
use super::tables::{eg_len, BitReader, BitWriter};

/// Normalises `counts` to sum `2^prec`, every present symbol keeping at least 1, giving or
/// taking the rounding error where it costs least (encoder only).
pub(super) fn normalise_counts(counts: &[u32], prec: u32) -> Option<Vec<u32>> {
    let total: u64 = counts.iter().map(|&c| u64::from(c)).sum();
    let present = counts.iter().filter(|&&c| c > 0).count() as u64;
    let scale = 1u64 << prec;
    if total == 0 || present > scale {
        return None;
    }
    let mut f: Vec<u32> =
        counts.iter().map(|&c| if c == 0 { 0 } else { ((u64::from(c) * scale / total) as u32).max(1) }).collect();
    let mut sum: i64 = f.iter().map(|&x| i64::from(x)).sum();
    while sum != scale as i64 {
        let over = sum > scale as i64;
        let mut best = None;
        let mut best_cost = f64::MAX;
        for (s, &c) in counts.iter().enumerate() {
            if c == 0 || (over && f[s] <= 1) {
                continue;
            }
            let fs = f64::from(f[s]);
            let cost =
                if over { f64::from(c) * (fs / (fs - 1.0)).ln() } else { -f64::from(c) * ((fs + 1.0) / fs).ln() };
            if cost < best_cost {
                best_cost = cost;
                best = Some(s);
            }
        }
        let s = best?;
        if over {
            f[s] -= 1;
            sum -= 1;
        } else {
            f[s] += 1;
            sum += 1;
        }
    }
    Some(f)
}

enum Item {
    Value(u32),
    Zeros(u32),
}

fn items(freqs: &[u32]) -> Vec<Item> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < freqs.len() {
        if freqs[i] == 0 {
            let run = freqs[i..].iter().take_while(|&&f| f == 0).count();
            out.push(Item::Zeros(run as u32));
            i += run;
        } else {
            out.push(Item::Value(freqs[i]));
            i += 1;
        }
    }
    out
}

/// Bits of the frequency list (all but the last symbol) in order `k`.
pub(super) fn list_bits(freq: &[u32], k: u32) -> u32 {
    items(&freq[..freq.len() - 1])
        .iter()
        .map(|i| match *i {
            Item::Value(f) => eg_len(k, f),
            Item::Zeros(run) => eg_len(k, 0) + eg_len(0, run - 1),
        })
        .sum()
}

pub(super) fn write(w: &mut BitWriter, freq: &[u32], k: u32) {
    for item in items(&freq[..freq.len() - 1]) {
        match item {
            Item::Value(f) => w.exp_golomb(k, f),
            Item::Zeros(run) => {
                w.exp_golomb(k, 0);
                w.exp_golomb(0, run - 1);
            }
        }
    }
}

pub(super) fn read(r: &mut BitReader, prec: u32, k: u32, freq: &mut [u32]) -> Result<(), BcpackError> {
    let n = freq.len();
    let scale = 1u32 << prec;
    let mut sum = 0u32;
    let mut s = 0;
    while s < n - 1 {
        let f = r.exp_golomb(k)?;
        if f == 0 {
            let run = r.exp_golomb(0)? as usize + 1;
            if s + run > n - 1 {
                return Err(r.bad("a zero run passes the alphabet's end"));
            }
            freq[s..s + run].fill(0);
            s += run;
            continue;
        }
        sum = sum.saturating_add(f);
        if sum >= scale {
            return Err(r.bad("frequencies exceed the table's precision"));
        }
        freq[s] = f;
        s += 1;
    }
    freq[n - 1] = scale - sum;
    Ok(())
}
