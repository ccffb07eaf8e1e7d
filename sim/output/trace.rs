//! Chrome / Perfetto trace-event JSON writer (the "JSON Object format" of the Trace Event
//! Format), loadable in <https://ui.perfetto.dev> and `chrome://tracing`.
//!
//! Every timestamp is SIMULATED time: a [`Time`] in picoseconds is written as the format's
//! microseconds with full precision (`Time(1)` → `0.000001`, `Time(1_500_000)` → `1.5`), so a
//! trace of a 250 ms run spans 250 000 µs on the timeline whatever the host took to run it.
//!
//! Events are stored compactly (interned names and categories, args pre-serialized into a
//! shared buffer; at most 48 bytes per event plus out-of-line args) and written in insertion
//! order by [`Trace::write_json`], which streams and gives byte-identical output for identical
//! input.
//!
//! ```
//! use sfsim::output::trace::Trace;
//! use sfsim::models::units::Time;
//! let mut t = Trace::new();
//! t.name_process(1, "NVMe");
//! t.name_thread(1, 0, "queue 0");
//! t.complete(1, 0, "read", "io", Time::from_us(3), Time(1_500_000), &[("bytes", 65536.into())]);
//! t.counter(1, "staging", Time::from_us(3), &[("used", 0.25)]);
//! let mut out = Vec::new();
//! t.write_json(&mut out).unwrap();
//! let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
//! assert_eq!(v["traceEvents"][2]["dur"], serde_json::json!(1.5));
//! ```
//!
//! Perfetto draws complete events on one (pid, tid) track as a stack: events on the same
//! track should nest properly (or not overlap); put concurrent activities on separate tids.

use std::collections::HashMap;
use std::io::{self, Write};

use super::decimal::push_us;
use sfsim_models::units::Time;

/// Default cap on the number of (non-metadata) events kept.
pub const DEFAULT_LIMIT: usize = 2_000_000;

/// Sentinel for "no args".
const NO_ARGS: u32 = u32::MAX;

/// One stored event. Strings are indices into [`Trace::strings`]; variable-length payloads
/// (args, counter series) are indices into segment tables.
#[derive(Debug, Clone, Copy)]
enum Event {
    ProcessName { pid: u32, name: u32 },
    ThreadName { pid: u32, tid: u32, name: u32 },
    Complete { pid: u32, tid: u32, name: u32, cat: u32, start: u64, dur: u64, args: u32 },
    Instant { pid: u32, tid: u32, name: u32, cat: u32, at: u64 },
    Counter { pid: u32, name: u32, at: u64, series: u32 },
}

/// A trace being recorded: events in insertion order.
#[derive(Debug, Clone)]
pub struct Trace {
    events: Vec<Event>,
    /// Interned strings, stored already JSON-encoded (with quotes and escapes).
    strings: Vec<Box<str>>,
    string_ids: HashMap<Box<str>, u32>,
    /// Pre-serialized args bodies (`"k":v,"k2":v2`), concatenated; segment `i` is
    /// `args_buf[args_ends[i-1]..args_ends[i]]`.
    args_buf: String,
    args_ends: Vec<usize>,
    /// Counter series (interned series name, value), concatenated; segment `i` is
    /// `series[series_ends[i-1]..series_ends[i]]`.
    series: Vec<(u32, f64)>,
    series_ends: Vec<usize>,
    /// Non-metadata events kept (the limit applies to these).
    kept: usize,
    limit: usize,
    dropped: u64,
}

impl Default for Trace {
    fn default() -> Self {
        Self::new()
    }
}

impl Trace {
    pub fn new() -> Self {
        Trace {
            events: Vec::new(),
            strings: Vec::new(),
            string_ids: HashMap::new(),
            args_buf: String::new(),
            args_ends: Vec::new(),
            series: Vec::new(),
            series_ends: Vec::new(),
            kept: 0,
            limit: DEFAULT_LIMIT,
            dropped: 0,
        }
    }

    /// Names a process track (`"ph":"M"`, `process_name`), e.g. `(1, "NVMe")`.
    /// Metadata events are always kept (they do not count against the limit).
    pub fn name_process(&mut self, pid: u32, name: &str) {
        let name = self.intern(name);
        self.events.push(Event::ProcessName { pid, name });
    }

    /// Names a thread track (`"ph":"M"`, `thread_name`), e.g. `(2, 0, "MDU unit 0")`.
    /// Metadata events are always kept (they do not count against the limit).
    pub fn name_thread(&mut self, pid: u32, tid: u32, name: &str) {
        let name = self.intern(name);
        self.events.push(Event::ThreadName { pid, tid, name });
    }

    /// A complete event (`"ph":"X"`) from `start` lasting `dur`, with optional args
    /// (written in the given order; keys should be distinct).
    #[allow(clippy::too_many_arguments)]
    pub fn complete(
        &mut self,
        pid: u32,
        tid: u32,
        name: &str,
        cat: &str,
        start: Time,
        dur: Time,
        args: &[(&str, serde_json::Value)],
    ) {
        if !self.admit() {
            return;
        }
        let name = self.intern(name);
        let cat = self.intern(cat);
        let args = if args.is_empty() {
            NO_ARGS
        } else {
            for (i, (key, value)) in args.iter().enumerate() {
                if i > 0 {
                    self.args_buf.push(',');
                }
                push_json_str(&mut self.args_buf, key);
                self.args_buf.push(':');
                // Serializing a Value into a String cannot fail.
                self.args_buf.push_str(&value.to_string());
            }
            self.args_ends.push(self.args_buf.len());
            (self.args_ends.len() - 1) as u32
        };
        self.events.push(Event::Complete { pid, tid, name, cat, start: start.0, dur: dur.0, args });
    }

    /// An instant event (`"ph":"i"`, thread scope).
    pub fn instant(&mut self, pid: u32, tid: u32, name: &str, cat: &str, at: Time) {
        if !self.admit() {
            return;
        }
        let name = self.intern(name);
        let cat = self.intern(cat);
        self.events.push(Event::Instant { pid, tid, name, cat, at: at.0 });
    }

    /// A counter sample (`"ph":"C"`): values of the series of counter `name` on process `pid`
    /// at `at`. Non-finite values are written as `null`.
    pub fn counter(&mut self, pid: u32, name: &str, at: Time, values: &[(&str, f64)]) {
        if !self.admit() {
            return;
        }
        let name = self.intern(name);
        for &(series, value) in values {
            let series = self.intern(series);
            self.series.push((series, value));
        }
        self.series_ends.push(self.series.len());
        let series = (self.series_ends.len() - 1) as u32;
        self.events.push(Event::Counter { pid, name, at: at.0, series });
    }

    /// Number of events kept, metadata included.
    pub fn len(&self) -> usize {
        self.events.len()
    }

    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    /// Caps the number of (non-metadata) events kept (default [`DEFAULT_LIMIT`]). Events
    /// recorded once the cap is reached are counted in [`Trace::dropped`] and the output's
    /// `otherData` says so. Lowering the cap below the number already kept drops nothing
    /// retroactively; it only stops further events.
    pub fn set_limit(&mut self, max_events: usize) {
        self.limit = max_events;
    }

    /// Counts `n` events that were never recorded because the trace was already full
    /// (a caller that stopped keeping them past the limit): they count as dropped.
    pub fn count_dropped(&mut self, n: u64) {
        debug_assert!(n == 0 || self.kept >= self.limit, "events left out before the trace was full");
        self.dropped += n;
    }

    /// Events refused because the limit was reached.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Writes `{"traceEvents":[...],"displayTimeUnit":"ns","otherData":{...}}`, one event per
    /// line, streaming through a buffer. The output is deterministic: identical recordings
    /// give byte-identical files.
    pub fn write_json<W: Write>(&self, w: W) -> io::Result<()> {
        let mut w = io::BufWriter::with_capacity(1 << 16, w);
        w.write_all(b"{\"traceEvents\":[")?;
        let mut ts = String::with_capacity(32);
        for (i, event) in self.events.iter().enumerate() {
            w.write_all(if i == 0 { b"\n" } else { b",\n" })?;
            match *event {
                Event::ProcessName { pid, name } => {
                    write!(
                        w,
                        "{{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":{pid},\"tid\":0,\"args\":{{\"name\":{}}}}}",
                        self.str(name)
                    )?;
                }
                Event::ThreadName { pid, tid, name } => {
                    write!(
                        w,
                        "{{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":{pid},\"tid\":{tid},\"args\":{{\"name\":{}}}}}",
                        self.str(name)
                    )?;
                }
                Event::Complete { pid, tid, name, cat, start, dur, args } => {
                    ts.clear();
                    push_us(&mut ts, start);
                    write!(
                        w,
                        "{{\"name\":{},\"cat\":{},\"ph\":\"X\",\"ts\":{ts},\"dur\":",
                        self.str(name),
                        self.str(cat)
                    )?;
                    ts.clear();
                    push_us(&mut ts, dur);
                    write!(w, "{ts},\"pid\":{pid},\"tid\":{tid}")?;
                    if args != NO_ARGS {
                        let i = args as usize;
                        let begin = if i == 0 { 0 } else { self.args_ends[i - 1] };
                        w.write_all(b",\"args\":{")?;
                        w.write_all(&self.args_buf.as_bytes()[begin..self.args_ends[i]])?;
                        w.write_all(b"}")?;
                    }
                    w.write_all(b"}")?;
                }
                Event::Instant { pid, tid, name, cat, at } => {
                    ts.clear();
                    push_us(&mut ts, at);
                    write!(
                        w,
                        "{{\"name\":{},\"cat\":{},\"ph\":\"i\",\"s\":\"t\",\"ts\":{ts},\"pid\":{pid},\"tid\":{tid}}}",
                        self.str(name),
                        self.str(cat)
                    )?;
                }
                Event::Counter { pid, name, at, series } => {
                    ts.clear();
                    push_us(&mut ts, at);
                    write!(w, "{{\"name\":{},\"ph\":\"C\",\"ts\":{ts},\"pid\":{pid},\"args\":{{", self.str(name))?;
                    let i = series as usize;
                    let begin = if i == 0 { 0 } else { self.series_ends[i - 1] };
                    for (j, &(key, value)) in self.series[begin..self.series_ends[i]].iter().enumerate() {
                        if j > 0 {
                            w.write_all(b",")?;
                        }
                        write!(w, "{}:", self.str(key))?;
                        // serde_json writes non-finite floats as `null`.
                        serde_json::to_writer(&mut w, &value)?;
                    }
                    w.write_all(b"}}")?;
                }
            }
        }
        w.write_all(if self.events.is_empty() { b"],\n" } else { b"\n],\n" })?;
        write!(
            w,
            "\"displayTimeUnit\":\"ns\",\n\"otherData\":{{\"generator\":\"sfsim\",\"clock\":\"simulated\",\
             \"event_limit\":{},\"dropped_events\":{}",
            self.limit, self.dropped
        )?;
        if self.dropped > 0 {
            write!(
                w,
                ",\"note\":\"event limit of {} reached: {} later events were dropped\"",
                self.limit, self.dropped
            )?;
        }
        w.write_all(b"}}\n")?;
        w.flush()
    }

    /// Counts a non-metadata event against the limit; false if it must be dropped.
    fn admit(&mut self) -> bool {
        if self.kept >= self.limit {
            self.dropped += 1;
            false
        } else {
            self.kept += 1;
            true
        }
    }

    fn intern(&mut self, s: &str) -> u32 {
        if let Some(&id) = self.string_ids.get(s) {
            return id;
        }
        let id = u32::try_from(self.strings.len()).expect("more than 2^32 distinct trace strings");
        let mut encoded = String::with_capacity(s.len() + 2);
        push_json_str(&mut encoded, s);
        self.strings.push(encoded.into_boxed_str());
        self.string_ids.insert(s.into(), id);
        id
    }

    fn str(&self, id: u32) -> &str {
        &self.strings[id as usize]
    }
}

/// Appends `s` as a JSON string literal (quotes and escapes included).
fn push_json_str(out: &mut String, s: &str) {
    // Serializing a &str into a String cannot fail.
    out.push_str(&serde_json::to_string(s).expect("string serialization"));
}

/// Picoseconds as exact microseconds text, as written in `ts` / `dur`.
pub fn format_us(t: Time) -> String {
    let mut s = String::new();
    push_us(&mut s, t.0);
    s
}

#[cfg(test)]
#[path = "trace_tests.rs"]
mod tests;
