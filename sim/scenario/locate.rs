//! Finds where a dotted field path (`hardware.nvme.queue_depth`) is written in a RON text,
//! so that range errors found after parsing can still point at a line and column.

/// 1-based (line, column) of the last path segment's key, if every segment is written in
/// the text in nesting order.
pub(crate) fn field_position(text: &str, path: &str) -> Option<(usize, usize)> {
    let mut from = 0;
    let mut found = None;
    for segment in path.split('.') {
        // `objects[2]`: the key, then the third element of the list written after it.
        let (key, index) = match segment.split_once('[') {
            Some((key, rest)) => (key, rest.strip_suffix(']').and_then(|i| i.parse::<usize>().ok())),
            None => (segment, None),
        };
        let at = find_key(text, key, from)?;
        found = Some(at);
        from = at + key.len();
        if let Some(index) = index {
            from = list_element(text, from, index)?;
            found = Some(from);
        }
    }
    found.map(|offset| line_col(text, offset))
}

fn find_key(text: &str, key: &str, from: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut search = from;
    while let Some(rel) = text.get(search..)?.find(key) {
        let at = search + rel;
        let before_ok = at == 0 || !is_ident(bytes[at - 1]);
        let rest = &text[at + key.len()..];
        let after_ok =
            rest.trim_start().starts_with(':') && !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_');
        if before_ok && after_ok && !in_comment_or_string(text, at) {
            return Some(at);
        }
        search = at + key.len();
    }
    None
}

/// Offset of element `index` of the first `[...]` list at or after `from`.
fn list_element(text: &str, from: usize, index: usize) -> Option<usize> {
    let open = from + text.get(from..)?.find('[')?;
    let (mut depth, mut commas, mut in_string) = (0usize, 0usize, false);
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate().skip(open) {
        if in_string {
            in_string = b != b'"' || bytes[i - 1] == b'\\';
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'(' | b'{' => depth += 1,
            b']' | b')' | b'}' => {
                depth -= 1;
                if depth == 0 {
                    return None;
                }
            }
            b',' if depth == 1 => commas += 1,
            _ if depth == 1 && commas == index && !b.is_ascii_whitespace() && i > open => return Some(i),
            _ => {}
        }
    }
    None
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Whether `offset` is inside a `//` comment or a string on its line (good enough for
/// scenario files, which keep strings on one line).
fn in_comment_or_string(text: &str, offset: usize) -> bool {
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let prefix = &text[line_start..offset];
    prefix.contains("//") || prefix.matches('"').count() % 2 == 1
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before.rfind('\n').map_or(offset, |i| offset - i - 1) + 1;
    (line, col)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_nested_keys_in_order() {
        let text = "S(\n  // queue_depth: 3\n  a: (queue_depth: 1),\n  hardware: (nvme: (queue_depth: 0)),\n)";
        assert_eq!(field_position(text, "hardware.nvme.queue_depth"), Some((4, 21)));
        assert_eq!(field_position(text, "hardware.mdu.units"), None);
    }

    #[test]
    fn finds_keys_inside_list_elements() {
        let text = "S(\n  objects: [\n    A(radius: 1.0),\n    B(x: \"a,b\", radius: -1.0),\n  ],\n)";
        assert_eq!(field_position(text, "objects[1].radius"), Some((4, 17)));
        assert_eq!(field_position(text, "objects[0].radius"), Some((3, 7)));
        assert_eq!(field_position(text, "objects[5].radius"), None);
    }
}
