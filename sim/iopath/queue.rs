//! Requests into the path: the enqueue-time checks, splitting into pieces and IOs, merging
//! adjacent reads of one `Submit`, and moving waiting IOs into the drive as staging space
//! and queue slots free up.

use super::{IoPath, PieceState, RequestState, NO_PIECE};
use sfsim_models::mdu::{Job, Stages};
use sfsim_models::nvme::{self, IoStatus, Request, RequestError, Source, STREAM_ALIGNMENT};
use sfsim_models::units::{Bytes, Time};

impl IoPath {
    /// Checks the request against the DirectStorage rules and queues it at `now` (its own
    /// `Submit`: it is never merged with another request's reads).
    pub fn enqueue(&mut self, now: Time, request: Request, tag: u64) -> Result<(), RequestError> {
        // `enqueue_all` of one request, without its loops and error mapping (a title
        // enqueues one request at a time, hundreds per tick).
        self.check(&request)?;
        let submitted = self.queue_request(now, request, tag, self.waiting.len());
        self.after_queue(now, submitted);
        Ok(())
    }

    /// Queues `requests` at `now` as one `Submit` of the DirectStorage queue: reads whose
    /// file ranges follow each other (see `NvmeConfig::merge_adjacent`) become one IO at the
    /// drive, each request still its own MDU job. Every request is checked first; on an
    /// error nothing is queued and the error names the request's index.
    pub fn enqueue_all(&mut self, now: Time, requests: &[(Request, u64)]) -> Result<(), (usize, RequestError)> {
        for (i, (request, _)) in requests.iter().enumerate() {
            self.check(request).map_err(|e| (i, e))?;
        }
        let batch_start = self.waiting.len();
        let mut submitted = false;
        for &(request, tag) in requests {
            submitted |= self.queue_request(now, request, tag, batch_start);
        }
        self.after_queue(now, submitted);
        Ok(())
    }

    /// The enqueue-time rules, and that each IO of the request fits the staging buffer.
    #[inline(always)]
    fn check(&self, request: &Request) -> Result<(), RequestError> {
        request.validate()?;
        let from_file = matches!(request.source, Source::File { .. });
        let capacity = self.staging.capacity();
        if request.source_size.0 <= self.max_io.0.max(1) {
            // One piece (most requests): the whole request's staging need, as the loop
            // below would find it.
            let needed = Bytes(if from_file { request.source_size.0 } else { 0 } + request.intermediate_size.0);
            if needed > capacity {
                return Err(RequestError::StagingTooSmall { needed, capacity });
            }
            return Ok(());
        }
        for piece in request.pieces(self.max_io) {
            let needed = Bytes(staging_need(from_file, &piece));
            if needed > self.staging.capacity() {
                return Err(RequestError::StagingTooSmall { needed, capacity: self.staging.capacity() });
            }
        }
        Ok(())
    }

    /// After a `Submit` was queued (`submitted`: a job went straight to the MDU).
    fn after_queue(&mut self, now: Time, mut submitted: bool) {
        // Requests queued behind IOs that could not move cannot move either: the pump runs
        // only when one reached the front of a waiting list (or something freed up).
        if self.pump_due {
            self.pump(now);
            submitted = true;
        }
        if submitted {
            self.refresh_wake();
        }
    }

    /// Queues one request's pieces; true when one went straight to the MDU.
    #[inline(always)]
    fn queue_request(&mut self, now: Time, request: Request, tag: u64, batch_start: usize) -> bool {
        let pieces = request.pieces(self.max_io);
        let id = self.requests.insert(RequestState {
            tag,
            enqueued: now,
            issued: None,
            read: now,
            source_size: request.source_size,
            destination_size: request.destination_size,
            pieces_left: pieces.len() as u32,
            status: IoStatus::Ok,
        });
        self.in_flight_requests += 1;
        let file_offset = match request.source {
            Source::File { offset } => Some(offset),
            Source::Memory => None,
        };
        let mut submitted = false;
        for piece in pieces {
            let job = Job {
                id: 0,
                input: piece.source_bytes,
                output: piece.destination_bytes,
                stages: Stages::from(request.options),
                fill: request.fill,
            };
            let start = file_offset.map(|o| o + piece.source_offset);
            // The piece is built with its slab id (its job's id, and its own IO's last
            // piece until merged into another IO, where `io_last` is not read).
            let pid = self.pieces.vacant_id();
            let state = PieceState {
                request: id,
                job: Job { id: u64::from(pid), ..job },
                staging: staging_need(start.is_some(), &piece),
                file_end: start.map_or(0, |o| o + piece.source_bytes.0),
                next_in_io: NO_PIECE,
                io_bytes: piece.source_bytes.0,
                io_last: pid,
            };
            let inserted = self.pieces.insert(state);
            debug_assert_eq!(inserted, pid);
            match start {
                Some(start) => {
                    if !self.merge_into_last_io(pid, start, batch_start) {
                        self.pump_due |= self.waiting.is_empty();
                        self.waiting.push_back(pid);
                    }
                }
                None if state.staging == 0 => {
                    self.mdu.submit(now, Job { id: u64::from(pid), ..job });
                    submitted = true;
                }
                None => {
                    self.pump_due |= self.waiting_memory.is_empty();
                    self.waiting_memory.push_back(pid);
                }
            }
        }
        submitted
    }

    /// Appends file piece `pid` (starting at `start`) to the last waiting IO when that IO
    /// was queued in this submission, its bytes end where the piece starts (up to the
    /// 16-byte stream alignment) and the merged IO stays within `max_io`.
    fn merge_into_last_io(&mut self, pid: u32, start: u64, batch_start: usize) -> bool {
        if !self.merge_adjacent || self.waiting.len() <= batch_start {
            return false;
        }
        let Some(&head) = self.waiting.back() else { return false };
        let bytes = self.pieces.get_mut(pid).io_bytes;
        let (last, io_bytes) = {
            let h = self.pieces.get_mut(head);
            (h.io_last, h.io_bytes)
        };
        let end = self.pieces.get_mut(last).file_end;
        let adjacent = start >= end && start - end < STREAM_ALIGNMENT;
        if !adjacent || io_bytes + bytes > self.max_io.0 {
            return false;
        }
        self.pieces.get_mut(last).next_in_io = pid;
        let h = self.pieces.get_mut(head);
        h.io_last = pid;
        h.io_bytes += bytes;
        self.merged_reads += 1;
        true
    }

    /// `SetStagingBuffer` at `now` (after [`process`](Self::process) up to `now`).
    pub fn set_staging(&mut self, now: Time, size: Bytes) {
        self.staging.resize(size);
        self.pump(now);
        self.refresh_wake();
    }

    /// Moves waiting IOs into the device while staging space and a queue slot are free,
    /// and memory jobs to the MDU while their intermediate's staging space is.
    pub(super) fn pump(&mut self, now: Time) {
        self.pump_due = false;
        while let Some(&pid) = self.waiting_memory.front() {
            let piece = *self.pieces.get_mut(pid);
            if !self.staging.try_alloc(Bytes(piece.staging)) {
                break;
            }
            self.waiting_memory.pop_front();
            self.mdu.submit(now, piece.job);
        }
        while let Some(&head) = self.waiting.front() {
            // A full drive queue is the usual stop: asked first, before the IO's pieces
            // are walked.
            if !self.accepting {
                break;
            }
            let (io_bytes, staging) = self.io_totals(head);
            if !self.staging.try_alloc(Bytes(staging)) {
                break;
            }
            self.waiting.pop_front();
            // Field by field: the pieces were often written just before (their enqueue),
            // and a whole-record copy of them stalled on store forwarding in profiles.
            let mut pid = head;
            while pid != NO_PIECE {
                let piece = self.pieces.get_mut(pid);
                let (request, next) = (piece.request, piece.next_in_io);
                self.requests.get_mut(request).issued.get_or_insert(now);
                pid = next;
            }
            self.device.submit(now, u64::from(head), Bytes(io_bytes));
            self.accepting = self.device.can_accept();
        }
        let backlog = !self.waiting.is_empty();
        if self.backlog_told != Some(backlog) {
            self.backlog_told = Some(backlog);
            self.device.set_backlog(now, backlog);
            self.accepting = self.device.can_accept();
        }
    }

    /// An IO's source bytes and the staging bytes its pieces hold.
    fn io_totals(&mut self, head: u32) -> (u64, u64) {
        let io_bytes = self.pieces.get_mut(head).io_bytes;
        let mut staging = 0;
        let mut pid = head;
        while pid != NO_PIECE {
            let piece = self.pieces.get_mut(pid);
            staging += piece.staging;
            pid = piece.next_in_io;
        }
        (io_bytes, staging)
    }
}

/// Staging bytes a piece holds: its compressed bytes when read from a file, plus its share
/// of the zlib → BCPack intermediate, reserved with them so a job never waits for it.
fn staging_need(from_file: bool, piece: &nvme::Piece) -> u64 {
    let compressed = if from_file { piece.source_bytes.0 } else { 0 };
    compressed + piece.intermediate_bytes.0
}
