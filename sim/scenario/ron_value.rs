//! RON text → serde's data model as JSON, keeping what RON's own untyped value drops:
//! variant names. `CubeGrid(count: 8)` becomes `{"CubeGrid": {"count": 8}}`, `Bc7` becomes
//! `"Bc7"`, `Fixed("1KiB")` becomes `{"Fixed": "1KiB"}` — at any depth, inside lists and
//! tuples — so a `--set` value can be any RON a scenario file can hold.

use serde_json::{Map, Number, Value};

/// Parses `text` as one RON value; `Err` says what was expected where (a byte offset).
pub fn parse(text: &str) -> Result<Value, String> {
    let mut p = Parser { bytes: text.as_bytes(), at: 0, depth: 0 };
    let value = p.value()?;
    p.skip_space();
    if p.at != p.bytes.len() {
        return Err(p.error("the end of the value"));
    }
    Ok(value)
}

/// Nesting deeper than this is refused (a scenario is 8 levels deep).
const MAX_DEPTH: u32 = 64;

struct Parser<'a> {
    bytes: &'a [u8],
    at: usize,
    depth: u32,
}

impl Parser<'_> {
    fn error(&self, expected: &str) -> String {
        let found = match self.bytes.get(self.at) {
            Some(&c) => format!("{:?}", c as char),
            None => "the end".to_string(),
        };
        format!("expected {expected} at column {}, found {found}", self.at + 1)
    }

    fn skip_space(&mut self) {
        while self.bytes.get(self.at).is_some_and(|c| c.is_ascii_whitespace()) {
            self.at += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_space();
        self.bytes.get(self.at).copied()
    }

    fn eat(&mut self, c: u8) -> bool {
        let found = self.peek() == Some(c);
        if found {
            self.at += 1;
        }
        found
    }

    fn value(&mut self) -> Result<Value, String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(format!("nesting deeper than {MAX_DEPTH} levels"));
        }
        let value = match self.peek() {
            Some(b'"') => self.string().map(Value::String),
            Some(b'[') => self.list(),
            Some(b'(') => self.parenthesized(),
            Some(c) if c == b'-' || c == b'+' || c.is_ascii_digit() => self.number(),
            Some(c) if c.is_ascii_alphabetic() || c == b'_' => self.named(),
            _ => Err(self.error("a value")),
        };
        self.depth -= 1;
        value
    }

    fn string(&mut self) -> Result<String, String> {
        self.at += 1; // the opening quote
        let mut out = String::new();
        let start = self.at;
        loop {
            match self.bytes.get(self.at) {
                None => return Err(format!("a string opened at column {start} is not closed")),
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    let escaped = self.bytes.get(self.at + 1).copied();
                    out.push(match escaped {
                        Some(b'n') => '\n',
                        Some(b't') => '\t',
                        Some(c @ (b'"' | b'\\')) => c as char,
                        _ => return Err(format!("unknown escape at column {}", self.at + 1)),
                    });
                    self.at += 2;
                }
                Some(_) => {
                    // Copy one whole UTF-8 character.
                    let rest = std::str::from_utf8(&self.bytes[self.at..]).map_err(|e| e.to_string())?;
                    let c = rest.chars().next().expect("not at the end");
                    out.push(c);
                    self.at += c.len_utf8();
                }
            }
        }
    }

    fn number(&mut self) -> Result<Value, String> {
        let start = self.at;
        while self.bytes.get(self.at).is_some_and(|c| c.is_ascii_alphanumeric() || b"+-._".contains(c)) {
            self.at += 1;
        }
        let text = std::str::from_utf8(&self.bytes[start..self.at]).expect("ASCII").replace('_', "");
        let text = text.strip_prefix('+').unwrap_or(&text);
        if let Ok(n) = text.parse::<u64>() {
            return Ok(Value::Number(n.into()));
        }
        if let Ok(n) = text.parse::<i64>() {
            return Ok(Value::Number(n.into()));
        }
        match text.parse::<f64>().ok().and_then(Number::from_f64) {
            Some(n) => Ok(Value::Number(n)),
            None => Err(format!("{text:?} at column {} is not a number", start + 1)),
        }
    }

    fn list(&mut self) -> Result<Value, String> {
        self.at += 1;
        let mut items = Vec::new();
        while !self.eat(b']') {
            items.push(self.value()?);
            if !self.eat(b',') && self.peek() != Some(b']') {
                return Err(self.error("',' or ']'"));
            }
        }
        Ok(Value::Array(items))
    }

    /// `(a: 1, b: 2)` is a struct, `(1, 2)` a tuple, `()` an empty struct (every field at
    /// its default).
    fn parenthesized(&mut self) -> Result<Value, String> {
        self.at += 1;
        if self.eat(b')') {
            return Ok(Value::Object(Map::new()));
        }
        if self.field_name_ahead() {
            let mut fields = Map::new();
            while !self.eat(b')') {
                let name = self.identifier().ok_or_else(|| self.error("a field name"))?;
                if !self.eat(b':') {
                    return Err(self.error("':' after a field name"));
                }
                fields.insert(name, self.value()?);
                if !self.eat(b',') && self.peek() != Some(b')') {
                    return Err(self.error("',' or ')'"));
                }
            }
            return Ok(Value::Object(fields));
        }
        let mut items = Vec::new();
        while !self.eat(b')') {
            items.push(self.value()?);
            if !self.eat(b',') && self.peek() != Some(b')') {
                return Err(self.error("',' or ')'"));
            }
        }
        Ok(Value::Array(items))
    }

    fn field_name_ahead(&mut self) -> bool {
        let saved = self.at;
        let is_field = self.identifier().is_some() && self.peek() == Some(b':');
        self.at = saved;
        is_field
    }

    fn identifier(&mut self) -> Option<String> {
        self.skip_space();
        let start = self.at;
        while self.bytes.get(self.at).is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_') {
            self.at += 1;
        }
        (self.at > start).then(|| String::from_utf8_lossy(&self.bytes[start..self.at]).into_owned())
    }

    /// `true`, `None`, `Some(x)`, a unit variant `Bc7`, or a variant with content
    /// `Name(…)`: one field is the content itself, several a list, named ones a struct.
    fn named(&mut self) -> Result<Value, String> {
        let name = self.identifier().ok_or_else(|| self.error("a name"))?;
        let opens = self.peek() == Some(b'(');
        match name.as_str() {
            "true" => return Ok(Value::Bool(true)),
            "false" => return Ok(Value::Bool(false)),
            "None" if !opens => return Ok(Value::Null),
            _ => {}
        }
        if !opens {
            return Ok(Value::String(name));
        }
        let content = match self.parenthesized()? {
            Value::Array(mut items) if items.len() == 1 => items.remove(0),
            other => other,
        };
        if name == "Some" {
            return Ok(content);
        }
        let mut variant = Map::new();
        variant.insert(name, content);
        Ok(Value::Object(variant))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn variants_keep_their_names_at_any_depth() {
        assert_eq!(
            parse("[CubeGrid(count: 8, spacing: 10.0, size: 6.0), Ground(half: 1.0, height: 0, uv_repeat: 2.5)]")
                .unwrap(),
            json!([{"CubeGrid": {"count": 8, "spacing": 10.0, "size": 6.0}}, {"Ground": {"half": 1.0, "height": 0, "uv_repeat": 2.5}}])
        );
        assert_eq!(parse(r#"Fixed("1KiB")"#).unwrap(), json!({"Fixed": "1KiB"}));
        assert_eq!(parse("Generator(Orbit(radius: 3.0))").unwrap(), json!({"Generator": {"Orbit": {"radius": 3.0}}}));
        assert_eq!(parse("(layout: SetInterleaved, seed: 3)").unwrap(), json!({"layout": "SetInterleaved", "seed": 3}));
        assert_eq!(parse("Io(())").unwrap(), json!({"Io": {}}));
    }

    #[test]
    fn tuples_options_and_scalars() {
        assert_eq!(parse("(640, 360)").unwrap(), json!([640, 360]));
        assert_eq!(parse("Some(\"2ms\")").unwrap(), json!("2ms"));
        assert_eq!(parse("None").unwrap(), Value::Null);
        assert_eq!(parse("-1.5e3").unwrap(), json!(-1500.0));
        assert_eq!(parse("[true, false,]").unwrap(), json!([true, false]));
        assert_eq!(parse(r#""a \"q\" é""#).unwrap(), json!("a \"q\" é"));
    }

    #[test]
    fn malformed_text_says_what_was_expected_where() {
        assert!(parse("(a: 1").unwrap_err().contains("the end"));
        assert!(parse("[1 2]").unwrap_err().contains("',' or ']' at column 4"));
        assert!(parse("\"open").unwrap_err().contains("not closed"));
        assert!(parse(&"[".repeat(100)).unwrap_err().contains("nesting"));
        assert!(parse("1.2.3").unwrap_err().contains("not a number"));
    }
}
