//! The path's clock-driven side: drive and MDU advanced to `now`, finished IOs routed to
//! MDU jobs (or, when a fault left them without data, straight to a failed completion),
//! finished jobs to request completions.

use super::{Completed, IoPath, NO_PIECE};
use sfsim_models::nvme::IoStatus;
use sfsim_models::units::{Bytes, Time};

impl IoPath {
    /// When the drive or the MDU changes state next; the owner calls
    /// [`process`](Self::process) at that time. `None`: nothing is in flight.
    pub fn next_wake(&self) -> Option<Time> {
        self.wake
    }

    /// The drive's and the MDU's next event, asked of them (after any change of state).
    pub(super) fn refresh_wake(&mut self) -> Option<Time> {
        (self.device_next, self.mdu_next) = (self.device.next_event(), self.mdu.next_event());
        self.set_wake()
    }

    /// The wake: the earlier of the cached next events.
    #[inline]
    fn set_wake(&mut self) -> Option<Time> {
        self.wake = match (self.device_next, self.mdu_next) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self.wake
    }

    /// Handles everything due at `now`; completed requests are appended to `out`. `now`
    /// never decreases from one call to the next.
    pub fn process(&mut self, now: Time, out: &mut Vec<Completed>) {
        loop {
            // A model is advanced only when it has something due: most events are one
            // model's, and the other's call would do nothing. Likewise only a model the
            // path changed is asked for its next event (its answer can change only then).
            let (mut device_changed, mut mdu_changed) = (false, false);
            if self.mdu_next.is_some_and(|t| t <= now) {
                self.advance_mdu(now, out);
                mdu_changed = true;
            }
            if self.device_next.is_some_and(|t| t <= now) {
                mdu_changed |= self.advance_device(now, out);
                device_changed = true;
            }
            if self.pump_due {
                self.pump(now);
                (device_changed, mdu_changed) = (true, true);
            }
            if device_changed {
                self.device_next = self.device.next_event();
            }
            if mdu_changed {
                self.mdu_next = self.mdu.next_event();
            }
            if self.set_wake().is_none_or(|t| t > now) {
                break;
            }
        }
    }

    /// Finished jobs' pieces done with (completed requests pushed to `out`).
    fn advance_mdu(&mut self, now: Time, out: &mut Vec<Completed>) {
        // The jobs go straight into the log and are read back field by field: copying each
        // just-written record whole stalled on store forwarding in profiles.
        let from = self.job_log.len();
        self.mdu.advance(now, &mut self.job_log);
        let to = self.job_log.len();
        // The staging a finished job frees moves a waiting memory job, or a waiting IO if
        // the drive takes one; else (the drive full: most job ends) the pump would find
        // nothing to do — the backlog flag cannot have changed either.
        self.pump_due |= to > from && (!self.waiting_memory.is_empty() || (!self.waiting.is_empty() && self.accepting));
        for i in from..to {
            let (id, end) = (self.job_log[i].id, self.job_log[i].end);
            self.finish_piece(id as u32, end, out);
        }
    }

    /// Finished IOs' pieces to the MDU (or, without data, done with); true when a job went
    /// to the MDU.
    fn advance_device(&mut self, now: Time, out: &mut Vec<Completed>) -> bool {
        let could_accept = self.accepting;
        self.device.advance(now, &mut self.io_done);
        self.accepting = self.device.can_accept();
        // A finished IO frees staging (when it failed) and a queue slot — which a drive
        // model may also free without reporting the IO yet (a delayed fault report).
        self.pump_due |= !self.io_done.is_empty() || self.accepting != could_accept;
        let mut submitted = false;
        for i in 0..self.io_done.len() {
            let done = self.io_done[i];
            let mut pid = done.id as u32;
            while pid != NO_PIECE {
                let piece = self.pieces.get_mut(pid);
                let (request, job, next_in_io) = (piece.request, piece.job, piece.next_in_io);
                let req = self.requests.get_mut(request);
                req.read = req.read.max(done.time);
                if req.status == IoStatus::Ok {
                    req.status = done.status;
                }
                if done.status.has_data() {
                    // Corrupt data still runs through the MDU: the fault shows only in
                    // what comes out.
                    self.mdu.submit(done.time, job);
                    submitted = true;
                } else {
                    self.finish_piece(pid, done.time, out);
                }
                pid = next_in_io;
            }
        }
        self.io_done.clear();
        submitted
    }

    /// Piece `pid` is done with at `end` (its job ended, or its IO failed); its request's
    /// completion, if that was its last piece, goes straight to `out`.
    #[inline(always)]
    fn finish_piece(&mut self, pid: u32, end: Time, out: &mut Vec<Completed>) {
        let piece = self.pieces.remove(pid);
        self.staging.free(Bytes(piece.staging));
        let req = self.requests.get_mut(piece.request);
        req.pieces_left -= 1;
        if req.pieces_left == 0 {
            let req = self.requests.remove(piece.request);
            self.in_flight_requests -= 1;
            out.push(Completed {
                tag: req.tag,
                enqueued: req.enqueued,
                issued: req.issued.unwrap_or(req.enqueued),
                read: req.read,
                done: end,
                source_size: req.source_size,
                destination_size: req.destination_size,
                status: req.status,
            });
            self.by_status[req.status as usize] += 1;
        }
    }
}
