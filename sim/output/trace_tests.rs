//! Tests of `trace.rs`.

use super::*;
use serde_json::{json, Value};

fn render(t: &Trace) -> Vec<u8> {
    let mut out = Vec::new();
    t.write_json(&mut out).unwrap();
    out
}

fn parse(t: &Trace) -> Value {
    serde_json::from_slice(&render(t)).expect("valid JSON")
}

fn sample() -> Trace {
    let mut t = Trace::new();
    t.name_process(1, "NVMe");
    t.name_thread(1, 0, "queue \"0\"");
    t.name_process(2, "MDU");
    t.name_thread(2, 0, "MDU unit 0");
    t.complete(1, 0, "read", "io", Time(1), Time(1_500_000), &[("bytes", json!(65536)), ("lba", json!("0x10"))]);
    t.complete(2, 0, "zlib", "mdu", Time(2_000_000), Time(999_999), &[]);
    t.instant(1, 0, "doorbell", "io", Time(123_456_789));
    t.counter(1, "staging", Time(5), &[("used", 0.25), ("free", 0.75)]);
    t.counter(1, "bad", Time(6), &[("nan", f64::NAN)]);
    t
}

#[test]
fn trace_event_is_compact() {
    assert!(std::mem::size_of::<Event>() <= 48, "{}", std::mem::size_of::<Event>());
}

#[test]
fn trace_us_conversion_is_exact() {
    assert_eq!(format_us(Time(0)), "0");
    assert_eq!(format_us(Time(1)), "0.000001");
    assert_eq!(format_us(Time(1_500_000)), "1.5");
    assert_eq!(format_us(Time(2_000_000)), "2");
    assert_eq!(format_us(Time(123_456_789)), "123.456789");
    assert_eq!(format_us(Time(250_000_000_000_000)), "250000000");
    assert_eq!(format_us(Time(u64::MAX)), "18446744073709.551615");
}

#[test]
fn trace_output_parses_with_expected_fields() {
    let v = parse(&sample());
    let ev = v["traceEvents"].as_array().unwrap();
    assert_eq!(ev.len(), 9);
    assert_eq!(v["displayTimeUnit"], "ns");
    assert_eq!(v["otherData"]["dropped_events"], 0);
    assert!(v["otherData"].get("note").is_none());

    assert_eq!(ev[0], json!({"name":"process_name","ph":"M","pid":1,"tid":0,"args":{"name":"NVMe"}}));
    assert_eq!(ev[1], json!({"name":"thread_name","ph":"M","pid":1,"tid":0,"args":{"name":"queue \"0\""}}));
    assert_eq!(ev[3]["args"]["name"], "MDU unit 0");

    let x = &ev[4];
    assert_eq!(x["ph"], "X");
    assert_eq!(x["name"], "read");
    assert_eq!(x["cat"], "io");
    assert_eq!(x["ts"], json!(0.000001));
    assert_eq!(x["dur"], json!(1.5));
    assert_eq!(x["args"], json!({"bytes":65536,"lba":"0x10"}));
    assert_eq!(ev[5]["ts"], json!(2));
    assert_eq!(ev[5]["dur"], json!(0.999999));
    assert!(ev[5].get("args").is_none());

    assert_eq!(ev[6], json!({"name":"doorbell","cat":"io","ph":"i","s":"t","ts":123.456789,"pid":1,"tid":0}));
    assert_eq!(ev[7], json!({"name":"staging","ph":"C","ts":0.000005,"pid":1,"args":{"used":0.25,"free":0.75}}));
    assert_eq!(ev[8]["args"]["nan"], Value::Null);
}

#[test]
fn trace_raw_text_has_exact_decimals() {
    let text = String::from_utf8(render(&sample())).unwrap();
    assert!(text.contains("\"ts\":0.000001,\"dur\":1.5,"), "{text}");
    assert!(text.contains("\"ts\":2,\"dur\":0.999999,"), "{text}");
    assert!(text.contains("\"args\":{\"nan\":null}"), "{text}");
}

#[test]
fn trace_empty_is_valid() {
    let t = Trace::new();
    assert!(t.is_empty());
    let v = parse(&t);
    assert_eq!(v["traceEvents"], json!([]));
}

#[test]
fn trace_limit_drops_and_notes() {
    let mut t = Trace::new();
    t.set_limit(2);
    t.name_process(1, "p");
    for i in 0..5 {
        t.instant(1, 0, "e", "c", Time(i));
    }
    t.complete(1, 0, "x", "c", Time(0), Time(1), &[("a", json!(1))]);
    t.counter(1, "n", Time(0), &[("v", 1.0)]);
    t.name_thread(1, 0, "t"); // metadata is always kept
    assert_eq!(t.len(), 4);
    assert_eq!(t.dropped(), 5);
    let v = parse(&t);
    assert_eq!(v["traceEvents"].as_array().unwrap().len(), 4);
    assert_eq!(v["otherData"]["dropped_events"], 5);
    assert_eq!(v["otherData"]["event_limit"], 2);
    assert!(v["otherData"]["note"].as_str().unwrap().contains("5 later events were dropped"));
}

#[test]
fn trace_output_is_deterministic() {
    let a = render(&sample());
    let b = render(&sample());
    assert_eq!(a, b);
    // A clone renders identically too.
    assert_eq!(render(&sample().clone()), a);
}

#[test]
fn trace_interns_strings() {
    let mut t = Trace::new();
    for i in 0..1000 {
        t.complete(1, 0, "read", "io", Time(i), Time(1), &[]);
    }
    assert_eq!(t.strings.len(), 2);
    assert_eq!(t.len(), 1000);
}
