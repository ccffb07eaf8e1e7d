//! The title model of an IO workload: every `cadence` it enqueues requests until
//! `in_flight` source bytes are outstanding (SPEC §1's "enqueue every 16.7 ms, keep 64 MiB
//! in flight"). The IO workload runs one alone; the streaming workload runs any number
//! beside the engine (`background`), sharing its drive, staging buffer and MDU; the
//! content-pool workload runs one over a fixed list (the streams of real containers).

use super::io::{IoWorkload, RunError, SourceKind};
use crate::iopath::{Completed, IoPath};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sfsim_models::nvme::{Request, Source, STREAM_ALIGNMENT};
use sfsim_models::units::{Bytes, Time};

/// Where a title's requests come from.
pub enum Requests<'a> {
    /// Sizes, ratios and file layout drawn from a seeded RNG by an IO workload's settings;
    /// never runs out.
    Synthetic { cfg: &'a IoWorkload, rng: Box<ChaCha8Rng>, next_offset: u64 },
    /// `list[order[i]]` for i = 0, 1, …, `passes` times over; then it runs out.
    List { list: Vec<Request>, order: Vec<usize>, passes: u32, next: u64 },
}

impl Requests<'_> {
    /// The next request, or `None` once a list has been read `passes` times.
    // Inlined, with `synthetic`, so the request is built where the title keeps it: read
    // back from a returned copy it stalled on store forwarding.
    #[inline(always)]
    fn next(&mut self) -> Option<Request> {
        match self {
            Requests::Synthetic { cfg, rng, next_offset } => Some(synthetic(cfg, rng, next_offset)),
            Requests::List { list, order, passes, next } => {
                let n = order.len() as u64;
                if n == 0 || *next >= n * u64::from(*passes) {
                    return None;
                }
                let request = list[order[(*next % n) as usize]];
                *next += 1;
                Some(request)
            }
        }
    }
}

/// One title's request stream and what it has outstanding.
pub struct Title<'a> {
    requests: Requests<'a>,
    /// Source bytes the title keeps in flight.
    limit: u64,
    /// The next request to enqueue; `None` once the requests ran out.
    pending: Option<Request>,
    in_flight: u64,
    enqueued: u64,
    /// Added to each request's index to make its IO-path tag.
    tag_base: u64,
}

impl<'a> Title<'a> {
    /// A title seeded with `seed`, its file streams laid out from `file_base` on, its tags
    /// `tag_base + index`.
    pub fn new(cfg: &'a IoWorkload, seed: u64, file_base: u64, tag_base: u64) -> Self {
        let requests =
            Requests::Synthetic { cfg, rng: Box::new(ChaCha8Rng::seed_from_u64(seed)), next_offset: file_base };
        Title::with_requests(requests, cfg.in_flight, tag_base)
    }

    /// A title enqueuing `requests` at each tick until `in_flight` source bytes are out (at
    /// least one request, however large), its tags `tag_base + index`.
    pub fn with_requests(mut requests: Requests<'a>, in_flight: Bytes, tag_base: u64) -> Self {
        let pending = requests.next();
        Title { requests, limit: in_flight.0, pending, in_flight: 0, enqueued: 0, tag_base }
    }

    /// Requests enqueued so far.
    pub fn enqueued(&self) -> u64 {
        self.enqueued
    }

    /// Whether every request was enqueued (a list source ran out).
    pub fn exhausted(&self) -> bool {
        self.pending.is_none()
    }

    /// Whether every request was enqueued and has completed.
    pub fn finished(&self) -> bool {
        self.pending.is_none() && self.in_flight == 0
    }

    /// Whether an IO-path tag is one of this title's.
    pub fn owns(&self, tag: u64) -> bool {
        (self.tag_base..self.tag_base + self.enqueued).contains(&tag)
    }

    /// The cadence's enqueue at `now`: requests until `in_flight` source bytes are out.
    pub fn tick(&mut self, now: Time, path: &mut IoPath) -> Result<(), RunError> {
        while let Some(request) = self.pending {
            if self.in_flight != 0 && self.in_flight + request.source_size.0 > self.limit {
                break;
            }
            self.in_flight += request.source_size.0;
            let index = self.enqueued;
            path.enqueue(now, request, self.tag_base + index).map_err(|source| RunError::Request { index, source })?;
            self.enqueued += 1;
            self.pending = self.requests.next();
        }
        Ok(())
    }

    /// One of its requests completed.
    pub fn completed(&mut self, c: &Completed) {
        self.in_flight -= c.source_size.0;
    }
}

/// The next synthetic request: size, ratio and file layout from the seeded RNG.
#[inline(always)]
fn synthetic(cfg: &IoWorkload, rng: &mut ChaCha8Rng, next_offset: &mut u64) -> Request {
    let uncompressed = cfg.stream.sample(rng);
    let compressed = if cfg.options.decompresses() {
        let jitter = 1.0 + cfg.ratio_spread * (2.0 * rng.gen::<f64>() - 1.0);
        // `as` truncates toward zero and saturates, which for this positive quotient is the
        // floor — without the libm call `f64::floor` makes on baseline x86-64.
        Bytes(((uncompressed.0 as f64 / (cfg.ratio * jitter)) as u64).max(1))
    } else {
        uncompressed
    };
    let intermediate = if cfg.options.zlib && cfg.options.bcpack() {
        let mean = ((compressed.0 as f64) * (uncompressed.0 as f64)).sqrt() as u64;
        Bytes(mean.clamp(compressed.0 + 1, uncompressed.0.saturating_sub(1).max(compressed.0 + 1)))
    } else {
        Bytes::ZERO
    };
    let source = match cfg.source {
        SourceKind::File => {
            let offset = *next_offset;
            *next_offset = (offset + compressed.0).next_multiple_of(STREAM_ALIGNMENT);
            Source::File { offset }
        }
        SourceKind::Memory => Source::Memory,
    };
    Request {
        source,
        source_size: compressed,
        intermediate_size: intermediate,
        destination_size: uncompressed,
        options: cfg.options,
        fill: cfg.fill,
    }
}
