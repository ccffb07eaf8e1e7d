//! RON camera files: parsing with `file:line:col` errors, and finding where a field or a
//! list element is written, so that checks made after parsing (time order, zero
//! quaternions, ranges) can still point at the text.

use super::CameraError;
use serde::de::DeserializeOwned;
use std::path::Path;

/// Parses `text` as a `T`, turning RON errors (syntax, unknown field, bad unit...) into
/// [`CameraError::At`] with the line and column RON reports.
pub(crate) fn parse<T: DeserializeOwned>(text: &str, file: &Path, options: &ron::Options) -> Result<T, CameraError> {
    options
        .from_str(text)
        .map_err(|e| CameraError::at(file, e.position.line.max(1), Some(e.position.col.max(1)), e.code.to_string()))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Ident,
    Punct(u8),
    Literal,
}

#[derive(Debug, Clone, Copy)]
struct Token {
    kind: Kind,
    start: usize,
    end: usize,
}

/// A RON text split into tokens (comments and whitespace dropped), for locating things.
pub(crate) struct RonText<'a> {
    text: &'a str,
    tokens: Vec<Token>,
}

impl<'a> RonText<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        RonText { text, tokens: lex(text) }
    }

    /// 1-based (line, column in characters) of a byte offset.
    pub(crate) fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let before = self.text.get(..offset).unwrap_or(self.text);
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let col = before[line_start..].chars().count() + 1;
        (line, col)
    }

    /// Byte offset of the key of the last segment of a dotted `path`, with every segment
    /// found in order (`coaster.radius`), searching tokens in `[from, to)`.
    pub(crate) fn field(&self, path: &str, from: usize, to: usize) -> Option<usize> {
        let mut i = self.tokens.iter().position(|t| t.start >= from)?;
        let mut found = None;
        for segment in path.split('.') {
            loop {
                let t = self.tokens.get(i)?;
                if t.start >= to {
                    return None;
                }
                i += 1;
                if t.kind == Kind::Ident
                    && &self.text[t.start..t.end] == segment
                    && self.tokens.get(i).map(|n| n.kind) == Some(Kind::Punct(b':'))
                {
                    found = Some(t.start);
                    break;
                }
            }
        }
        found
    }

    /// Byte ranges of the elements of the list written as `key: [ ... ]` (the first such
    /// key in the text).
    pub(crate) fn list_elements(&self, key: &str) -> Vec<(usize, usize)> {
        let toks = &self.tokens;
        let open = (0..toks.len()).find(|&i| {
            toks[i].kind == Kind::Ident
                && &self.text[toks[i].start..toks[i].end] == key
                && toks.get(i + 1).map(|t| t.kind) == Some(Kind::Punct(b':'))
                && toks.get(i + 2).map(|t| t.kind) == Some(Kind::Punct(b'['))
        });
        let Some(open) = open else {
            return Vec::new();
        };
        let mut elements = Vec::new();
        let mut depth = 0usize;
        let mut current: Option<(usize, usize)> = None;
        for t in &toks[open + 3..] {
            match t.kind {
                Kind::Punct(b'(' | b'[' | b'{') => depth += 1,
                Kind::Punct(b')' | b']' | b'}') if depth == 0 => break,
                Kind::Punct(b')' | b']' | b'}') => depth -= 1,
                Kind::Punct(b',') if depth == 0 => {
                    elements.extend(current.take());
                    continue;
                }
                _ => {}
            }
            let range = current.get_or_insert((t.start, t.end));
            range.1 = t.end;
        }
        elements.extend(current);
        elements
    }
}

fn lex(text: &str) -> Vec<Token> {
    let b = text.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let start = i;
        let next = b.get(i + 1).copied();
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'/' && next == Some(b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if c == b'/' && next == Some(b'*') {
            let mut depth = 0usize;
            while i < b.len() {
                if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            continue;
        }
        let kind = if c == b'"' || (c == b'b' && next == Some(b'"')) {
            i += if c == b'b' { 2 } else { 1 };
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(b.len());
            Kind::Literal
        } else if c == b'r' && matches!(next, Some(b'#' | b'"')) && raw_string_end(b, i).is_some() {
            i = raw_string_end(b, i).unwrap_or(b.len());
            Kind::Literal
        } else if c == b'\'' {
            i += 1;
            if b.get(i) == Some(&b'\\') {
                i += 2;
            }
            while i < b.len() && b[i] != b'\'' {
                i += 1;
            }
            i = (i + 1).min(b.len());
            Kind::Literal
        } else if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            Kind::Ident
        } else if c.is_ascii_digit() || matches!(c, b'+' | b'-' | b'.') {
            i += 1;
            while i < b.len()
                && (b[i].is_ascii_alphanumeric()
                    || matches!(b[i], b'.' | b'_')
                    || (matches!(b[i], b'+' | b'-') && matches!(b[i - 1], b'e' | b'E')))
            {
                i += 1;
            }
            Kind::Literal
        } else if c.is_ascii() {
            i += 1;
            Kind::Punct(c)
        } else {
            // A non-ASCII character outside a string: skip the whole UTF-8 sequence.
            i += 1;
            while i < b.len() && (b[i] & 0xC0) == 0x80 {
                i += 1;
            }
            Kind::Literal
        };
        tokens.push(Token { kind, start, end: i.min(b.len()) });
    }
    tokens
}

/// End (exclusive) of a raw string `r#"..."#` starting at `i`, if it is one.
fn raw_string_end(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    let mut hashes = 0;
    while b.get(j) == Some(&b'#') {
        hashes += 1;
        j += 1;
    }
    if b.get(j) != Some(&b'"') {
        return None;
    }
    j += 1;
    while j < b.len() {
        if b[j] == b'"' && b[j + 1..].iter().take(hashes).filter(|&&h| h == b'#').count() == hashes {
            return Some(j + 1 + hashes);
        }
        j += 1;
    }
    Some(b.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const TEXT: &str = "// keys: [ (t: 1) ]\nK(\n  fov: 60.0, /* t: */\n  keys: [\n    (t: \"0s\", look_at: Some((0.0, 1e-3, -2))),\n    (t: \"1s\",\n     orientation: Some((0.0, 0.0, 0.0, 1.0))),\n  ],\n  orbit: (radius: 3.0),\n)";

    #[test]
    fn finds_list_elements_and_fields() {
        let r = RonText::new(TEXT);
        let keys = r.list_elements("keys");
        assert_eq!(keys.len(), 2);
        let at = r.field("t", keys[1].0, keys[1].1).unwrap();
        assert_eq!(r.line_col(at), (6, 6));
        let at = r.field("orientation", keys[1].0, keys[1].1).unwrap();
        assert_eq!(r.line_col(at), (7, 6));
        assert!(r.field("orientation", keys[0].0, keys[0].1).is_none());
        let at = r.field("orbit.radius", 0, TEXT.len()).unwrap();
        assert_eq!(r.line_col(at), (9, 11));
        assert!(r.list_elements("nothing").is_empty());
    }

    proptest! {
        #[test]
        fn never_panics_on_random_text(text in "\\PC{0,200}") {
            let r = RonText::new(&text);
            let _ = r.list_elements("keys");
            let _ = r.field("a.b", 0, text.len());
            let _ = r.line_col(text.len());
        }
    }
}
