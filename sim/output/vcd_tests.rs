//! Tests of `vcd.rs`.

use super::*;
use std::collections::HashSet;

fn render(vcd: &Vcd) -> String {
    let mut out = Vec::new();
    vcd.write(&mut out).unwrap();
    String::from_utf8(out).unwrap()
}

fn small() -> Vcd {
    let mut vcd = Vcd::new(1);
    let depth = vcd.signal("nvme", "queue_depth", 8).unwrap();
    let busy = vcd.signal("nvme", "busy", 1).unwrap();
    let unit0 = vcd.signal("iopath.mdu", "unit0_busy", 1).unwrap();
    let bytes = vcd.signal("iopath", "bytes", 64).unwrap();
    vcd.change(Time(0), depth, 2).unwrap(); // initial value
    vcd.change(Time(10), depth, 3).unwrap();
    vcd.change(Time(10), busy, 1).unwrap();
    vcd.change(Time(10), busy, 1).unwrap(); // repeat: skipped
    vcd.change(Time(20), depth, 3).unwrap(); // repeat: skipped (no #20 section)
    vcd.change(Time(30), unit0, 1).unwrap();
    vcd.change(Time(30), bytes, u64::MAX).unwrap();
    vcd.change(Time(40), busy, 0).unwrap();
    vcd.change(Time(40), depth, 0).unwrap();
    vcd.set_end(Time(100)).unwrap();
    vcd
}

#[test]
fn vcd_small_dump_matches_exactly() {
    let expected = "\
$version sfsim $end
$timescale 1 ps $end
$scope module nvme $end
$var wire 8 ! queue_depth $end
$var wire 1 \" busy $end
$upscope $end
$scope module iopath $end
$var wire 64 $ bytes $end
$scope module mdu $end
$var wire 1 # unit0_busy $end
$upscope $end
$upscope $end
$enddefinitions $end
#0
$dumpvars
b10 !
0\"
0#
b0 $
$end
#10
b11 !
1\"
#30
1#
b1111111111111111111111111111111111111111111111111111111111111111 $
#40
0\"
b0 !
#100
";
    assert_eq!(render(&small()), expected);
}

#[test]
fn vcd_timescales_and_rounding() {
    let mut vcd = Vcd::new(1000);
    let s = vcd.signal("top", "s", 4).unwrap();
    vcd.change(Time(999), s, 1).unwrap(); // tick 0: initial value
    vcd.change(Time(1500), s, 2).unwrap(); // tick 1
    vcd.change(Time(1999), s, 3).unwrap(); // tick 1 again: collapses to the last value
    vcd.change(Time::from_us(1), s, 4).unwrap(); // tick 1000
    let text = render(&vcd);
    assert!(text.contains("$timescale 1 ns $end\n"));
    assert!(text.ends_with("$dumpvars\nb1 !\n$end\n#1\nb11 !\n#1000\nb100 !\n"), "{text}");
    assert!(render(&Vcd::new(1_000_000)).contains("$timescale 1 us $end\n"));
    assert_eq!(Vcd::try_new(7).unwrap_err(), VcdError::Timescale(7));
    assert!(Vcd::try_new(0).is_err());
}

#[test]
fn vcd_same_tick_change_back_is_cancelled() {
    let mut vcd = Vcd::new(1000);
    let s = vcd.signal("top", "s", 1).unwrap();
    vcd.change(Time(1000), s, 1).unwrap();
    vcd.change(Time(1200), s, 0).unwrap(); // back to 0 within tick 1: nothing at #1
    vcd.change(Time(1300), s, 1).unwrap(); // and up again: one change
    vcd.change(Time(5000), s, 0).unwrap();
    let text = render(&vcd);
    assert!(text.ends_with("$end\n#1\n1!\n#5\n0!\n"), "{text}");

    let mut vcd = Vcd::new(1000);
    let s = vcd.signal("top", "s", 1).unwrap();
    vcd.change(Time(1000), s, 1).unwrap();
    vcd.change(Time(1200), s, 0).unwrap();
    let text = render(&vcd);
    assert!(text.ends_with("$dumpvars\n0!\n$end\n"), "{text}");
}

#[test]
fn vcd_errors() {
    let mut vcd = Vcd::new(1);
    assert!(matches!(vcd.signal("a", "w0", 0), Err(VcdError::Width { width: 0, .. })));
    assert!(matches!(vcd.signal("a", "w65", 65), Err(VcdError::Width { width: 65, .. })));
    assert!(matches!(vcd.signal("a", "has space", 1), Err(VcdError::Name { what: "signal", .. })));
    assert!(matches!(vcd.signal("a", "", 1), Err(VcdError::Name { .. })));
    assert!(matches!(vcd.signal("a", "$end", 1), Err(VcdError::Name { .. })));
    assert!(matches!(vcd.signal("a", "tab\t", 1), Err(VcdError::Name { .. })));
    assert!(matches!(vcd.signal("a", "é", 1), Err(VcdError::Name { .. })));
    assert!(matches!(vcd.signal("", "x", 1), Err(VcdError::Name { what: "scope", .. })));
    assert!(matches!(vcd.signal("a..b", "x", 1), Err(VcdError::Name { what: "scope", .. })));
    assert!(matches!(vcd.signal("a b", "x", 1), Err(VcdError::Name { what: "scope", .. })));
    assert_eq!(vcd.signal_count(), 0);

    let x = vcd.signal("a.b", "x", 3).unwrap();
    assert_eq!(vcd.signal("a.b", "x", 3), Err(VcdError::Duplicate("a.b.x".into())));
    vcd.signal("a", "x", 3).unwrap(); // same name, other scope: fine
    let e = vcd.change(Time(5), x, 8).unwrap_err();
    assert_eq!(e, VcdError::Overflow { signal: "a.b.x".into(), value: 8, width: 3 });
    assert!(e.to_string().contains("does not fit in the 3-bit signal `a.b.x`"), "{e}");
    vcd.change(Time(5), x, 7).unwrap();
    let e = vcd.change(Time(4), x, 1).unwrap_err();
    assert_eq!(e, VcdError::TimeOrder { signal: "a.b.x".into(), at: Time(4), last: Time(5) });
    vcd.change(Time(5), x, 1).unwrap(); // equal time is fine
    assert_eq!(vcd.set_end(Time(4)), Err(VcdError::EndBeforeLastChange { at: Time(4), last: Time(5) }));
    assert_eq!(vcd.change(Time(6), SignalId(99), 0), Err(VcdError::UnknownSignal(99)));
}

#[test]
fn vcd_id_codes_are_unique_and_printable() {
    assert_eq!(id_code(0), "!");
    assert_eq!(id_code(93), "~");
    assert_eq!(id_code(94).len(), 2);
    let n = 94 * 94 + 94 + 10;
    let codes: HashSet<String> = (0..n).map(id_code).collect();
    assert_eq!(codes.len(), n as usize);
    assert!(codes.iter().all(|c| c.bytes().all(|b| (33..=126).contains(&b))));
}

#[test]
fn vcd_many_signals_get_multichar_codes() {
    let mut vcd = Vcd::new(1);
    let ids: Vec<SignalId> = (0..200).map(|i| vcd.signal("top", &format!("s{i}"), 1).unwrap()).collect();
    vcd.change(Time(1), ids[199], 1).unwrap();
    let text = render(&vcd);
    let code = id_code(199);
    assert_eq!(code.len(), 2);
    assert!(text.contains(&format!("$var wire 1 {code} s199 $end\n")));
    assert!(text.ends_with(&format!("#1\n1{code}\n")));
}

#[test]
fn vcd_output_is_deterministic() {
    assert_eq!(render(&small()), render(&small()));
    assert_eq!(render(&small().clone()), render(&small()));
}
