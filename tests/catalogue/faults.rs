//! The fault-injection section (`hardware.faults`) and the engine's retry parameters out
//! of range: each error names the field, the value and the valid range.

use super::Case;

const IO: &str = "{repo}/scenarios/io/quick.ron";
const STREAM: &str = "{repo}/scenarios/stream/faults.ron";

pub fn cases() -> Vec<Case> {
    vec![
        Case::new(
            "fault rate below 0",
            &["run", IO, "--set", "hardware.faults.io_error_rate=-0.1"],
            &["hardware.faults.io_error_rate", "-0.1 is out of range", "expected 0..=1"],
        ),
        Case::new(
            "fault rate above 1",
            &["run", IO, "--set", "hardware.faults.corrupt_rate=1.5"],
            &["hardware.faults.corrupt_rate", "1.5 is out of range", "expected 0..=1"],
        ),
        Case::new("fault rate NaN", &["run", "nan.ron"], &["nan.ron:2:", "hardware.faults.timeout_rate", "NaN is out of range", "0..=1"])
            .file(
                "nan.ron",
                "Scenario(name: \"nan\", duration: \"100ms\", workload: Io(()),\n    hardware: (faults: (timeout_rate: NaN)))\n",
            ),
        Case::new(
            "spike rate above 1",
            &["run", IO, "--set", "hardware.faults.latency_spikes=(rate: 2.0, extra: \"5ms\")"],
            &["hardware.faults.latency_spikes.rate", "2 is out of range", "expected 0..=1"],
        ),
        Case::new(
            "outcome rates over 1 together",
            &["run", IO, "--set", "hardware.faults.io_error_rate=0.6", "--set", "hardware.faults.timeout_rate=0.6"],
            &["hardware.faults.corrupt_rate", "io_error_rate + timeout_rate + corrupt_rate = 1.2", "expected ≤ 1"],
        ),
        Case::new(
            "timeout zero",
            &["run", IO, "--set", "hardware.faults.timeout=0s"],
            &["hardware.faults.timeout", "0s is out of range", "expected (0s, 10s]"],
        ),
        Case::new(
            "spike of no time",
            &["run", IO, "--set", "hardware.faults.latency_spikes=(rate: 0.1, extra: \"0s\")"],
            &["hardware.faults.latency_spikes.extra", "0s is out of range", "expected (0s, 10s]"],
        ),
        Case::new(
            "throttle rate zero",
            &["run", IO, "--set", "hardware.faults.throttle=Some((at: \"1s\", length: \"1s\", rate: \"0MB/s\"))"],
            &["hardware.faults.throttle.rate", "0B/s is out of range", "below hardware.nvme.peak = 2.4GB/s"],
        ),
        Case::new(
            "throttle above peak",
            &["run", IO, "--set", "hardware.faults.throttle=Some((at: \"1s\", length: \"1s\", rate: \"3000MB/s\"))"],
            &["hardware.faults.throttle.rate", "3GB/s is out of range", "below hardware.nvme.peak = 2.4GB/s"],
        ),
        Case::new(
            "throttle of no length",
            &["run", IO, "--set", "hardware.faults.throttle=Some((at: \"1s\", length: \"0s\", rate: \"500MB/s\"))"],
            &["hardware.faults.throttle.length", "0s is out of range", "expected (0s, 1h]"],
        ),
        Case::new(
            "unit lost when only one",
            &["run", IO, "--set", "hardware.mdu.units=1", "--set", "hardware.faults.mdu_unit_lost_at=Some(\"1s\")"],
            &["hardware.faults.mdu_unit_lost_at", "hardware.mdu.units = 1", "expected units ≥ 2"],
        ),
        Case::new(
            "unknown fault",
            &["run", IO, "--set", "hardware.faults.gremlins=1"],
            &["faults has no field \"gremlins\"", "io_error_rate"],
        ),
        Case::new(
            "retry back-off zero",
            &["run", STREAM, "--set", "workload.engine.retry.backoff=0s"],
            &["workload.engine.retry.backoff", "0s is out of range", "expected (0s, 1s]"],
        ),
        Case::new(
            "retry back-off cap below the back-off",
            &["run", STREAM, "--set", "workload.engine.retry.backoff_max=1ms"],
            &["workload.engine.retry.backoff_max", "1ms is out of range", "expected backoff (2ms)..=10s"],
        ),
        Case::new(
            "too many retries",
            &["run", STREAM, "--set", "workload.engine.retry.max_retries=100"],
            &["workload.engine.retry.max_retries", "100 is out of range", "expected 0..=64"],
        ),
    ]
}
