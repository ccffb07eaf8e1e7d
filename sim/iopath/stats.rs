//! The IO path's stats: names, units and descriptions are API (scripts and regression
//! baselines read them), and so is their order in `stats.json`.

use super::IoPath;
use crate::stats::StatSet;
use sfsim_models::nvme::IoStatus;
use sfsim_models::units::Time;

impl IoPath {
    /// The throughput stats every workload reports, for a run of `duration`:
    /// `nvme.throughput`, `nvme.window_min`, `nvme.window_max`, `mdu.input_throughput`,
    /// `mdu.output_throughput`.
    pub fn push_throughput_stats(&self, s: &mut StatSet, duration: Time) {
        let secs = duration.as_secs_f64();
        let dev = self.device.stats();
        let window = self.device.window();
        let (mdu_in, mdu_out) = self.mdu.unit_stats().iter().fold((0u64, 0u64), |a, u| (a.0 + u.input, a.1 + u.output));
        s.push(
            "nvme.throughput",
            Some(dev.bytes as f64 / 1e6 / secs),
            "MB/s",
            "NVMe bytes read per second, mean over the run",
        );
        s.push(
            "nvme.window_min",
            dev.window_min.map(|b| b.as_mb_f64()),
            "MB",
            format!("least delivered in any full {window} window while IO was queued (null: no such window)"),
        );
        s.push(
            "nvme.window_max",
            dev.window_max.map(|b| b.as_mb_f64()),
            "MB",
            format!("most delivered in any full {window} window while IO was queued"),
        );
        s.push(
            "mdu.input_throughput",
            Some(mdu_in as f64 / 1e9 / secs),
            "GB/s",
            "bytes read by the MDU per second, mean over the run",
        );
        s.push(
            "mdu.output_throughput",
            Some(mdu_out as f64 / 1e9 / secs),
            "GB/s",
            "bytes the MDU wrote to memory per second, mean over the run",
        );
    }

    /// `nvme.ios` and `nvme.merged_reads` (reads that joined the read before them in one IO).
    pub fn push_io_counts(&self, s: &mut StatSet) {
        s.push(
            "nvme.ios",
            Some(self.device.stats().ios as f64),
            "count",
            "IOs submitted to the device (requests split at hardware.nvme.max_io, adjacent reads merged)",
        );
        s.push(
            "nvme.merged_reads",
            Some(self.merged_reads() as f64),
            "count",
            "reads merged into the IO of the adjacent read submitted with them (hardware.nvme.merge_adjacent)",
        );
    }

    /// Every stat of the path for a run of `duration` (an IO run reports them all): the
    /// [throughput stats](Self::push_throughput_stats), then `nvme.ios`, `nvme.busy`,
    /// `nvme.stall_time`, `nvme.stall_refused`, `mdu.jobs`, `mdu.unit<i>.busy` per unit
    /// and `staging.peak`.
    pub fn push_stats(&self, s: &mut StatSet, duration: Time) {
        let secs = duration.as_secs_f64();
        let dev = self.device.stats();
        let units = self.mdu.unit_stats();
        let jobs: u64 = units.iter().map(|u| u.jobs).sum();
        self.push_throughput_stats(s, duration);
        self.push_io_counts(s);
        s.push(
            "nvme.busy",
            Some(dev.busy.as_secs_f64() / secs),
            "fraction",
            "share of the run the device had an IO to move",
        );
        s.push("nvme.stall_time", Some(dev.stalled.as_ms_f64()), "ms", "stall time the guarantee governor granted");
        s.push(
            "nvme.stall_refused",
            Some(dev.stall_refused.as_ms_f64()),
            "ms",
            "stall time the governor refused to keep the guarantee",
        );
        s.push("mdu.jobs", Some(jobs as f64), "count", "MDU jobs completed");
        for (i, u) in units.iter().enumerate() {
            s.push(
                &format!("mdu.unit{i}.busy"),
                Some(u.busy.as_secs_f64() / secs),
                "fraction",
                format!("share of the run MDU unit {i} was working"),
            );
        }
        s.push(
            "staging.peak",
            Some(self.staging.peak().0 as f64 / (1u64 << 20) as f64),
            "MiB",
            "highest staging-buffer occupancy",
        );
        self.push_fault_stats(s, duration);
    }

    /// The fault stats, only when the path injects faults (so runs without keep their
    /// stats.json exactly): `faults.injected.*` per kind, `request.failed.*` per status,
    /// the guarantee's `nvme.guarantee_violations` and `nvme.min_window_rate`,
    /// `nvme.throttle_time` and `mdu.units_lost`.
    pub fn push_fault_stats(&self, s: &mut StatSet, duration: Time) {
        if !self.report_faults {
            return;
        }
        let dev = self.device.stats();
        let f = dev.faults;
        let injected = [
            ("io_error", f.io_error, "IOs the drive failed with a read error"),
            ("timeout", f.timeout, "IOs that hung and were failed after hardware.faults.timeout"),
            ("latency_spike", f.latency_spike, "IOs delayed by hardware.faults.latency_spikes.extra"),
            ("corrupt", f.corrupt, "IOs whose payload arrived corrupt"),
        ];
        for (name, n, what) in injected {
            s.push(&format!("faults.injected.{name}"), Some(n as f64), "count", what);
        }
        for status in [IoStatus::IoError, IoStatus::Timeout, IoStatus::Corrupt] {
            s.push(
                &format!("request.failed.{}", status.name()),
                Some(self.completed_with(status) as f64),
                "count",
                format!("requests that completed with status {} (no usable data)", status.name()),
            );
        }
        let window = self.device.window();
        s.push(
            "nvme.guarantee_violations",
            Some(dev.guarantee_violations as f64),
            "count",
            format!("times the bytes of a full {window} window fell below the guarantee while IO was queued"),
        );
        s.push(
            "nvme.min_window_rate",
            dev.window_min.map(|b| b.as_mb_f64() / window.as_secs_f64()),
            "MB/s",
            format!("the least rate over any full {window} window while IO was queued (null: no such window)"),
        );
        s.push(
            "nvme.throttle_time",
            Some(dev.throttled.as_ms_f64()),
            "ms",
            "channel time lost to hardware.faults.throttle (outside the guarantee governor)",
        );
        s.push(
            "mdu.units_lost",
            Some(f64::from(self.mdu.units_lost(duration))),
            "count",
            "MDU units out of service at the end of the run (hardware.faults.mdu_unit_lost_at)",
        );
    }
}
