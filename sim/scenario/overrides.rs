//! `--set path=value`: changes one field of a parsed scenario. The scenario goes through
//! serde's data model (enum variants become one-key maps, which a path walks through
//! without naming them), so every field a scenario file can write can be overridden and
//! the same deserializer checks the result.

use super::{ron_value, Scenario, ScenarioError};
use serde_json::Value;
use std::fmt;
use std::str::FromStr;

/// One `path=value` override, e.g. `workload.in_flight=16MiB`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Override {
    pub path: String,
    pub value: String,
}

impl fmt::Display for Override {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.path, self.value)
    }
}

impl FromStr for Override {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let (path, value) = s
            .split_once('=')
            .ok_or_else(|| format!("{s:?} is not of the form path=value (e.g. workload.in_flight=16MiB)"))?;
        let path = path.trim();
        if path.is_empty() || path.split('.').any(str::is_empty) {
            return Err(format!("{s:?}: the path must be dotted field names (e.g. hardware.mdu.setup)"));
        }
        Ok(Override { path: path.to_string(), value: value.trim().to_string() })
    }
}

impl Override {
    pub(super) fn apply(&self, scenario: &Scenario) -> Result<Scenario, ScenarioError> {
        let err = |message: String| ScenarioError::Override { arg: self.to_string(), message };
        let mut tree = serde_json::to_value(scenario).map_err(|e| err(e.to_string()))?;
        // An optional field left out of the serialized scenario while unset (so that adding
        // one changes no resolved config): added here, and kept only if serde knows it.
        let absent = walk(&mut tree, &self.path).err().filter(|_| add_absent_field(&mut tree, &self.path));
        let slot = walk(&mut tree, &self.path).map_err(err)?;
        let before = slot.clone();
        let value = parse_like(slot, &self.value);
        // `None` is an optional field's "nothing" or a variant named None (`stalls: None`).
        let fallback = (value == Value::Null).then(|| Value::String(self.value.clone()));
        *slot = value;
        let parsed = match (serde_json::from_value::<Scenario>(tree.clone()), fallback) {
            (Err(_), Some(name)) => {
                *walk(&mut tree, &self.path).map_err(err)? = name;
                serde_json::from_value(tree)
            }
            (result, _) => result,
        };
        if let (Some(no_such_field), Err(e)) = (absent, &parsed) {
            if e.to_string().contains("unknown field") {
                return Err(err(no_such_field));
            }
        }
        // serde says what type it wanted; the field's current value shows the shape to write.
        let mut changed: Scenario = parsed.map_err(|e| {
            err(format!("{e}; {} holds {} now (write the new value the same way)", self.path, shape_of(&before)))
        })?;
        changed.base_dir = scenario.base_dir.clone();
        Ok(changed)
    }
}

/// The current value as a user would write it in `--set`, shortened.
fn shape_of(value: &Value) -> String {
    let text = match value {
        Value::String(s) => s.clone(),
        Value::Null => "None (an optional field: write None or a value)".to_string(),
        other => other.to_string(),
    };
    if text.chars().count() > 120 {
        format!("{}…", text.chars().take(120).collect::<String>())
    } else {
        text
    }
}

/// Finds the value at `path`, stepping through enum-variant wrappers (`{"Io": {...}}`).
fn walk<'a>(root: &'a mut Value, path: &str) -> Result<&'a mut Value, String> {
    // Resolve the full key list on a shared borrow first, then take one mutable path.
    let mut keys: Vec<String> = Vec::new();
    let mut node: &Value = root;
    let mut walked = String::new();
    for segment in path.split('.') {
        loop {
            let Value::Object(map) = node else {
                return Err(format!("{walked} is a value, not a section; it has no field {segment:?}"));
            };
            if let Some(next) = map.get(segment) {
                keys.push(segment.to_string());
                node = next;
                break;
            }
            // An enum variant is a single-key map around its content: step inside it.
            match single_variant(map) {
                Some((variant, inner)) => {
                    keys.push(variant.clone());
                    node = inner;
                }
                None => {
                    let known: Vec<&str> = map.keys().map(String::as_str).collect();
                    let at = if walked.is_empty() { "the scenario".to_string() } else { walked.clone() };
                    return Err(format!("{at} has no field {segment:?}; its fields are: {}", known.join(", ")));
                }
            }
        }
        if !walked.is_empty() {
            walked.push('.');
        }
        walked.push_str(segment);
    }
    let mut slot = root;
    for key in &keys {
        slot = slot.get_mut(key.as_str()).expect("resolved above");
    }
    Ok(slot)
}

/// Adds `path`'s last field, as `null`, to the section the rest of `path` leads to, when
/// that section is a struct without it; whether it did.
fn add_absent_field(root: &mut Value, path: &str) -> bool {
    let Some((section, field)) = path.rsplit_once('.') else {
        return match root {
            Value::Object(map) if !map.contains_key(path) => map.insert(path.to_string(), Value::Null).is_none(),
            _ => false,
        };
    };
    match walk(root, section) {
        Ok(Value::Object(map)) if single_variant(map).is_none() && !map.contains_key(field) => {
            map.insert(field.to_string(), Value::Null);
            true
        }
        _ => false,
    }
}

fn single_variant(map: &serde_json::Map<String, Value>) -> Option<(&String, &Value)> {
    let mut entries = map.iter();
    let (key, value) = entries.next()?;
    let is_variant = entries.next().is_none() && key.starts_with(|c: char| c.is_ascii_uppercase());
    is_variant.then_some((key, value))
}

/// Reads the override text as the same kind of value the field holds now: numbers stay
/// numbers and booleans booleans; quantities with units and enum names are strings.
fn parse_like(current: &Value, text: &str) -> Value {
    // An optional field: `None` clears it, `Some(v)` sets it like `v`.
    if text == "None" {
        return Value::Null;
    }
    if let Some(inner) = text.strip_prefix("Some(").and_then(|t| t.strip_suffix(')')) {
        return parse_like(current, inner.trim());
    }
    let unquoted = text.trim_matches('"');
    if let Value::Object(map) = current {
        // `stream=128KiB` where stream is `Fixed("64KiB")`: keep the variant, set its value.
        if let Some((variant, inner)) = single_variant(map) {
            if !inner.is_object() && !inner.is_array() && !text.starts_with(|c: char| c.is_ascii_uppercase()) {
                let mut wrapped = serde_json::Map::new();
                wrapped.insert(variant.clone(), parse_like(inner, text));
                return Value::Object(wrapped);
            }
        }
    }
    let variant_with_fields = text.starts_with(|c: char| c.is_ascii_uppercase()) && text.ends_with(')');
    match current {
        // A unit variant now (`stalls: None`) may become one with fields.
        Value::String(_) if variant_with_fields => {
            ron_value::parse(text).unwrap_or_else(|_| Value::String(unquoted.to_string()))
        }
        Value::String(_) => Value::String(unquoted.to_string()),
        _ => ron_value::parse(text).unwrap_or_else(|_| Value::String(unquoted.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn load(sets: &[&str]) -> Result<Scenario, ScenarioError> {
        let overrides: Vec<Override> = sets.iter().map(|s| s.parse().unwrap()).collect();
        Scenario::from_text(r#"Scenario(name: "t", workload: Io(()))"#, Path::new("t.ron"), &overrides)
    }

    #[test]
    fn sets_quantities_numbers_and_enum_fields() {
        let s = load(&["workload.in_flight=16MiB", "hardware.nvme.queue_depth=8", "seed=9"]).unwrap();
        let crate::scenario::Workload::Io(io) = &s.workload else { panic!("an Io workload") };
        assert_eq!(io.in_flight.to_string(), "16MiB");
        assert_eq!(s.hardware.nvme.queue_depth, 8);
        assert_eq!(s.seed, 9);
    }

    #[test]
    fn sets_tuples_written_as_ron() {
        let text = r#"Scenario(name: "t", workload: Render(()))"#;
        let o: Override = "workload.render.resolution=(640, 360)".parse().unwrap();
        let s = Scenario::from_text(text, Path::new("t.ron"), &[o]).unwrap();
        let crate::scenario::Workload::Render(r) = &s.workload else { panic!("a Render workload") };
        assert_eq!(r.render.resolution, (640, 360));
    }

    #[test]
    fn sets_enum_variants_with_fields_written_as_ron() {
        use crate::engine::EvictionKind;
        use sfsim_models::units::Time;
        let text = r#"Scenario(name: "t", workload: Stream(()))"#;
        let eviction = |value: &str| {
            let o: Override = format!("workload.engine.eviction={value}").parse().unwrap();
            let s = Scenario::from_text(text, Path::new("t.ron"), &[o]).unwrap();
            let crate::scenario::Workload::Stream(w) = &s.workload else { panic!("a Stream workload") };
            w.engine.eviction
        };
        assert_eq!(
            eviction("RefCount(frames: 30)"),
            EvictionKind::RefCount { frames: 30, seen_horizon: Time::from_secs(1) }
        );
        assert_eq!(eviction(r#"Standby(after: "100ms")"#), EvictionKind::Standby { after: Time::from_ms(100) });
        let o: Override = "workload.stream=Fixed(\"128KiB\")".parse().unwrap();
        let s = Scenario::from_text(r#"Scenario(name: "t", workload: Io(()))"#, Path::new("t.ron"), &[o]).unwrap();
        let crate::scenario::Workload::Io(io) = &s.workload else { panic!("an Io workload") };
        assert_eq!(io.stream, crate::workload::io::StreamSize::Fixed(sfsim_models::units::Bytes::kib(128)));
    }

    #[test]
    fn sets_unit_variants_inside_values_and_optional_fields() {
        let text = r#"Scenario(name: "t", workload: Stream(()))"#;
        let stream = |sets: &[&str]| {
            let overrides: Vec<Override> = sets.iter().map(|s| s.parse().unwrap()).collect();
            let s = Scenario::from_text(text, Path::new("t.ron"), &overrides).unwrap();
            let crate::scenario::Workload::Stream(w) = s.workload else { panic!("a Stream workload") };
            *w
        };
        let w = stream(&["workload.content=Synthetic((layout: SetInterleaved, seed: 3))"]);
        let crate::engine::ContentConfig::Synthetic(c) = w.content else { panic!("synthetic") };
        assert_eq!((c.layout, c.seed), (crate::engine::FileLayout::SetInterleaved, 3));
        use sfsim_models::units::Time;
        let w = stream(&["workload.engine.gpu.feedback_budget=Some(\"2ms\")"]);
        assert_eq!(w.engine.gpu.feedback_budget, Some(Time::from_ms(2)));
        let w = stream(&["workload.engine.gpu.feedback_budget=2ms", "workload.engine.gpu.feedback_budget=None"]);
        assert_eq!(w.engine.gpu.feedback_budget, None);
        // A variant named None is still a variant.
        let s = load(&["hardware.nvme.stalls=Periodic(every: \"10ms\", length: \"1ms\")", "hardware.nvme.stalls=None"]);
        assert_eq!(s.unwrap().hardware.nvme.stalls, sfsim_models::nvme::StallProfile::None);
    }

    #[test]
    fn sets_struct_variants_inside_lists() {
        let text = r#"Scenario(name: "t", workload: Stream(()))"#;
        let o: Override =
            "workload.scene.objects=[CubeGrid(count: 8, spacing: 10.0, size: 6.0), Sphere(center: (0.0, 1.0, 2.0), radius: 1.0, set: Some(0))]"
                .parse()
                .unwrap();
        let s = Scenario::from_text(text, Path::new("t.ron"), &[o]).unwrap();
        let crate::scenario::Workload::Stream(w) = s.workload else { panic!("a Stream workload") };
        use crate::scene::ObjectGroup;
        assert_eq!(w.scene.objects[0], ObjectGroup::CubeGrid { count: 8, spacing: 10.0, size: 6.0 });
        assert_eq!(w.scene.objects[1], ObjectGroup::Sphere { center: (0.0, 1.0, 2.0), radius: 1.0, set: Some(0) });
    }

    #[test]
    fn type_errors_show_the_shape_the_field_holds() {
        let e = load(&["seed=abc"]).unwrap_err().to_string();
        assert!(e.contains("expected u64") && e.contains("seed holds 1 now"), "{e}");
        let e = load(&["hardware.nvme.stalls=Periodic(every: 5)"]).unwrap_err().to_string();
        assert!(e.contains("--set hardware.nvme.stalls=") && e.contains("holds None"), "{e}");
    }

    #[test]
    fn bad_overrides_name_the_argument() {
        let e = load(&["workload.in_flite=1MiB"]).unwrap_err().to_string();
        assert!(e.starts_with("--set workload.in_flite=1MiB") && e.contains("in_flight"), "{e}");
        let e = load(&["workload.in_flight=16"]).unwrap_err().to_string();
        assert!(e.contains("no unit"), "{e}");
        let e = load(&["hardware.nvme.queue_depth=0"]).unwrap_err().to_string();
        assert!(e.starts_with("--set hardware.nvme.queue_depth=0") && e.contains("1..=65536"), "{e}");
        assert!("noequals".parse::<Override>().is_err());
    }

    /// An optional field the serialized scenario leaves out while unset (`render.reuse`)
    /// can be set; a misspelt one still gets the list of fields.
    #[test]
    fn sets_optional_fields_left_out_while_unset() {
        let text =
            r#"Scenario(name: "t", workload: Stream((mode: TimingOnly, render: (feedback: (writes: Location)))))"#;
        let set = |value: &str| {
            let o: Override = value.parse().unwrap();
            Scenario::from_text(text, Path::new("t.ron"), &[o])
        };
        let s = set("workload.render.reuse=Some((frames: 4, max_motion: 8.0))").unwrap();
        let crate::scenario::Workload::Stream(w) = &s.workload else { panic!("a Stream workload") };
        assert_eq!(w.render.reuse, Some(crate::scene::TemporalReuse { frames: 4, max_motion: 8.0 }));
        let e = set("workload.render.reus=Some((frames: 4, max_motion: 8.0))").unwrap_err().to_string();
        assert!(e.contains("workload.render has no field \"reus\"; its fields are: resolution"), "{e}");
        let e = set("workload.render.reuse=Some((frames: 3, max_motion: 8.0))").unwrap_err().to_string();
        assert!(e.contains("render.reuse.frames") && e.contains("2 or 4"), "{e}");
    }
}
