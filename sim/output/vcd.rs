//! Value Change Dump (IEEE 1364-2005 §18) writer for integer signals sampled in SIMULATED
//! time, viewable in GTKWave or Surfer.
//!
//! Signals are declared up front (or at any time) inside a scope (`"nvme"`, or nested with
//! dots: `"iopath.nvme"`), then changes are recorded in non-decreasing time order. Changes to
//! the value a signal already has are skipped; several changes of one signal within one tick
//! collapse to the last. Every signal starts at 0 in `$dumpvars`; changes at tick 0 set the
//! initial value instead. [`Vcd::write`] output is deterministic (no `$date`).
//!
//! ```
//! use sfsim::output::vcd::Vcd;
//! use sfsim::models::units::Time;
//! let mut vcd = Vcd::new(1000); // 1 ns per tick
//! let depth = vcd.signal("nvme", "queue_depth", 8).unwrap();
//! let busy = vcd.signal("nvme", "busy", 1).unwrap();
//! vcd.change(Time::from_ns(5), depth, 3).unwrap();
//! vcd.change(Time::from_ns(5), busy, 1).unwrap();
//! let mut out = Vec::new();
//! vcd.write(&mut out).unwrap();
//! assert!(String::from_utf8(out).unwrap().ends_with("#5\nb11 !\n1\"\n"));
//! ```

use std::io::{self, Write};

use sfsim_models::units::Time;

/// Identifier of a declared signal, returned by [`Vcd::signal`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SignalId(u32);

/// Errors declaring signals or recording changes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VcdError {
    #[error(
        "VCD timescale of {0} ps is not supported: use 1, 10 or 100 times ps, ns, us, ms or s \
         (e.g. 1 = 1 ps, 1000 = 1 ns, 1000000 = 1 us)"
    )]
    Timescale(u64),
    #[error("VCD signal `{signal}`: width {width} is out of range (1..=64 bits)")]
    Width { signal: String, width: u32 },
    #[error("VCD {what} name `{name}` is invalid: {reason}")]
    Name { what: &'static str, name: String, reason: &'static str },
    #[error("VCD signal `{0}` is declared twice")]
    Duplicate(String),
    #[error("VCD signal id {0} was not declared in this dump")]
    UnknownSignal(u32),
    #[error("VCD change of `{signal}` at {at} is earlier than the previous change at {last}: times must not decrease")]
    TimeOrder { signal: String, at: Time, last: Time },
    #[error("VCD end time {at} is earlier than the last change at {last}")]
    EndBeforeLastChange { at: Time, last: Time },
    #[error("VCD value {value} ({value:#x}) does not fit in the {width}-bit signal `{signal}`")]
    Overflow { signal: String, value: u64, width: u32 },
}

/// Marks a change cancelled by a later change within the same tick.
const TOMBSTONE: u32 = u32::MAX;

#[derive(Debug, Clone)]
struct Scope {
    name: String,
    children: Vec<usize>,
    signals: Vec<u32>,
}

#[derive(Debug, Clone)]
struct Signal {
    scope: usize,
    name: String,
    width: u32,
    /// Value in `$dumpvars` (0 unless changed at tick 0).
    initial: u64,
    /// Value after the last recorded change.
    current: u64,
    /// Value before the last recorded change (for collapsing same-tick changes).
    prev: u64,
    /// Index into `changes` of the last recorded change, if any and not cancelled.
    last_change: Option<usize>,
}

#[derive(Debug, Clone, Copy)]
struct Change {
    tick: u64,
    value: u64,
    id: u32,
}

/// A value change dump being recorded.
#[derive(Debug, Clone)]
pub struct Vcd {
    timescale_ps: u64,
    timescale_text: &'static str,
    /// All scopes; `roots` are the top-level ones, in declaration order.
    scopes: Vec<Scope>,
    roots: Vec<usize>,
    signals: Vec<Signal>,
    changes: Vec<Change>,
    /// Time (ps) of the last `change` call, for the ordering check.
    last_at: Option<u64>,
    /// Optional end time (ticks), written as a final `#t`.
    end_tick: Option<u64>,
}

const TIMESCALES: [(u64, &str); 15] = [
    (1, "1 ps"),
    (10, "10 ps"),
    (100, "100 ps"),
    (1_000, "1 ns"),
    (10_000, "10 ns"),
    (100_000, "100 ns"),
    (1_000_000, "1 us"),
    (10_000_000, "10 us"),
    (100_000_000, "100 us"),
    (1_000_000_000, "1 ms"),
    (10_000_000_000, "10 ms"),
    (100_000_000_000, "100 ms"),
    (1_000_000_000_000, "1 s"),
    (10_000_000_000_000, "10 s"),
    (100_000_000_000_000, "100 s"),
];

impl Vcd {
    /// A dump with `timescale_ps` picoseconds per tick: 1 = `1 ps` (the natural choice, as
    /// [`Time`] is in ps), 1000 = `1 ns`, 1_000_000 = `1 us`; any of 1, 10, 100 × ps, ns, us,
    /// ms, s is accepted. Times are rounded down to whole ticks.
    ///
    /// # Panics
    /// On any other timescale; use [`Vcd::try_new`] to get an error instead.
    pub fn new(timescale_ps: u64) -> Self {
        match Self::try_new(timescale_ps) {
            Ok(vcd) => vcd,
            Err(e) => panic!("{e}"),
        }
    }

    /// [`Vcd::new`], returning an error for an unsupported timescale.
    pub fn try_new(timescale_ps: u64) -> Result<Self, VcdError> {
        let &(_, timescale_text) =
            TIMESCALES.iter().find(|(ps, _)| *ps == timescale_ps).ok_or(VcdError::Timescale(timescale_ps))?;
        Ok(Vcd {
            timescale_ps,
            timescale_text,
            scopes: Vec::new(),
            roots: Vec::new(),
            signals: Vec::new(),
            changes: Vec::new(),
            last_at: None,
            end_tick: None,
        })
    }

    /// Declares a `width`-bit signal (1..=64) named `name` inside `scope` (dot-separated for
    /// nesting, e.g. `"nvme"` or `"iopath.mdu0"`). Names and scope parts must be non-empty
    /// printable ASCII without spaces, not starting with `$`; a scope part may not contain `.`.
    pub fn signal(&mut self, scope: &str, name: &str, width: u32) -> Result<SignalId, VcdError> {
        check_name("scope", scope, scope)?;
        for part in scope.split('.') {
            check_name("scope", scope, part)?;
        }
        check_name("signal", name, name)?;
        let full = format!("{scope}.{name}");
        if !(1..=64).contains(&width) {
            return Err(VcdError::Width { signal: full, width });
        }
        let scope_index = self.scope_index(scope);
        if self.scopes[scope_index].signals.iter().any(|&s| self.signals[s as usize].name == name) {
            return Err(VcdError::Duplicate(full));
        }
        let id = u32::try_from(self.signals.len()).ok().filter(|&id| id != TOMBSTONE).expect("too many VCD signals");
        self.signals.push(Signal {
            scope: scope_index,
            name: name.to_string(),
            width,
            initial: 0,
            current: 0,
            prev: 0,
            last_change: None,
        });
        self.scopes[scope_index].signals.push(id);
        Ok(SignalId(id))
    }

    /// Records that signal `id` takes `value` at `at`. Equal consecutive values are skipped;
    /// `at` must not be earlier than the previous call's; `value` must fit the signal's width.
    pub fn change(&mut self, at: Time, id: SignalId, value: u64) -> Result<(), VcdError> {
        let index = id.0 as usize;
        let Some(sig) = self.signals.get(index) else {
            return Err(VcdError::UnknownSignal(id.0));
        };
        if sig.width < 64 && value >> sig.width != 0 {
            return Err(VcdError::Overflow { signal: self.full_name(index), value, width: sig.width });
        }
        if let Some(last) = self.last_at {
            if at.0 < last {
                return Err(VcdError::TimeOrder { signal: self.full_name(index), at, last: Time(last) });
            }
        }
        self.last_at = Some(at.0);
        let tick = at.0 / self.timescale_ps;
        let sig = &mut self.signals[index];
        if tick == 0 {
            sig.initial = value;
            sig.current = value;
            return Ok(());
        }
        if value == sig.current {
            return Ok(());
        }
        match sig.last_change {
            Some(ci) if self.changes[ci].tick == tick => {
                if value == sig.prev {
                    // Back to the value before this tick: the change is cancelled.
                    self.changes[ci].id = TOMBSTONE;
                    sig.last_change = None;
                } else {
                    self.changes[ci].value = value;
                }
            }
            _ => {
                sig.prev = sig.current;
                sig.last_change = Some(self.changes.len());
                self.changes.push(Change { tick, value, id: id.0 });
            }
        }
        sig.current = value;
        Ok(())
    }

    /// Marks the end of the dump at `at` (a final `#t` with no changes, so viewers show the
    /// last values up to there). Must not be earlier than the last change.
    pub fn set_end(&mut self, at: Time) -> Result<(), VcdError> {
        if let Some(last) = self.last_at {
            if at.0 < last {
                return Err(VcdError::EndBeforeLastChange { at, last: Time(last) });
            }
        }
        self.end_tick = Some(at.0 / self.timescale_ps);
        Ok(())
    }

    /// Number of declared signals.
    pub fn signal_count(&self) -> usize {
        self.signals.len()
    }

    /// Writes the dump: header, scopes and `$var`s, `$dumpvars` at `#0`, then one `#t`
    /// section per tick with changes. Deterministic byte output.
    pub fn write<W: Write>(&self, w: W) -> io::Result<()> {
        let mut w = io::BufWriter::with_capacity(1 << 16, w);
        let codes: Vec<String> = (0..self.signals.len() as u32).map(id_code).collect();
        writeln!(w, "$version sfsim $end")?;
        writeln!(w, "$timescale {} $end", self.timescale_text)?;
        // Depth-first over the scope tree with an explicit stack: (scope, children visited).
        for &root in &self.roots {
            let mut stack = vec![(root, 0usize)];
            self.open_scope(&mut w, root, &codes)?;
            while let Some((scope, next)) = stack.last_mut() {
                let children = &self.scopes[*scope].children;
                if let Some(&child) = children.get(*next) {
                    *next += 1;
                    self.open_scope(&mut w, child, &codes)?;
                    stack.push((child, 0));
                } else {
                    writeln!(w, "$upscope $end")?;
                    stack.pop();
                }
            }
        }
        writeln!(w, "$enddefinitions $end")?;
        writeln!(w, "#0")?;
        writeln!(w, "$dumpvars")?;
        for (i, sig) in self.signals.iter().enumerate() {
            write_value(&mut w, sig.width, sig.initial, &codes[i])?;
        }
        writeln!(w, "$end")?;
        let mut last_tick = 0;
        for change in &self.changes {
            if change.id == TOMBSTONE {
                continue;
            }
            if change.tick != last_tick {
                writeln!(w, "#{}", change.tick)?;
                last_tick = change.tick;
            }
            let i = change.id as usize;
            write_value(&mut w, self.signals[i].width, change.value, &codes[i])?;
        }
        if let Some(end) = self.end_tick {
            if end > last_tick {
                writeln!(w, "#{end}")?;
            }
        }
        w.flush()
    }

    fn open_scope<W: Write>(&self, w: &mut W, scope: usize, codes: &[String]) -> io::Result<()> {
        let s = &self.scopes[scope];
        writeln!(w, "$scope module {} $end", s.name)?;
        for &id in &s.signals {
            let sig = &self.signals[id as usize];
            writeln!(w, "$var wire {} {} {} $end", sig.width, codes[id as usize], sig.name)?;
        }
        Ok(())
    }

    /// Finds or creates the scope path `a.b.c`, returning the innermost scope's index.
    fn scope_index(&mut self, path: &str) -> usize {
        let mut parent: Option<usize> = None;
        for part in path.split('.') {
            let siblings = match parent {
                Some(p) => &self.scopes[p].children,
                None => &self.roots,
            };
            let found = siblings.iter().copied().find(|&s| self.scopes[s].name == part);
            let index = match found {
                Some(s) => s,
                None => {
                    let s = self.scopes.len();
                    self.scopes.push(Scope { name: part.to_string(), children: Vec::new(), signals: Vec::new() });
                    match parent {
                        Some(p) => self.scopes[p].children.push(s),
                        None => self.roots.push(s),
                    }
                    s
                }
            };
            parent = Some(index);
        }
        parent.expect("scope path has at least one part")
    }

    fn full_name(&self, index: usize) -> String {
        let sig = &self.signals[index];
        // Rebuild the dotted scope path by searching the tree (errors only; small trees).
        let mut path = Vec::new();
        let mut target = sig.scope;
        'outer: loop {
            path.push(self.scopes[target].name.as_str());
            if self.roots.contains(&target) {
                break;
            }
            for (i, s) in self.scopes.iter().enumerate() {
                if s.children.contains(&target) {
                    target = i;
                    continue 'outer;
                }
            }
            break;
        }
        path.reverse();
        format!("{}.{}", path.join("."), sig.name)
    }
}

/// Validates a signal name or scope part: non-empty printable ASCII (33..=126), no `$` first.
fn check_name(what: &'static str, whole: &str, part: &str) -> Result<(), VcdError> {
    let err = |reason| Err(VcdError::Name { what, name: whole.to_string(), reason });
    if part.is_empty() {
        return err(if what == "scope" { "empty (or empty part between dots)" } else { "empty" });
    }
    if !part.bytes().all(|b| (33..=126).contains(&b)) {
        return err("only printable ASCII without spaces is allowed");
    }
    if part.starts_with('$') {
        return err("must not start with `$`");
    }
    Ok(())
}

/// The identifier code of signal `n`: bijective base 94 over the printable ASCII 33..=126
/// (`!`..`~`, then `!!`, `"!`, ...).
fn id_code(mut n: u32) -> String {
    let mut code = String::new();
    loop {
        code.push(char::from(33 + (n % 94) as u8));
        n /= 94;
        if n == 0 {
            break;
        }
        n -= 1;
    }
    code
}

fn write_value<W: Write>(w: &mut W, width: u32, value: u64, code: &str) -> io::Result<()> {
    if width == 1 {
        writeln!(w, "{value}{code}")
    } else {
        writeln!(w, "b{value:b} {code}")
    }
}

#[cfg(test)]
#[path = "vcd_tests.rs"]
mod tests;
