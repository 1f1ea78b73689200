//! Minimal CSV reading and writing (RFC 4180 quoting) for the benchmark tables.

/// Quotes `field` when it holds a comma, quote or line break.
pub fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// One line of fields, joined and quoted, with a trailing newline.
pub fn line<S: AsRef<str>>(fields: &[S]) -> String {
    let out: Vec<String> = fields.iter().map(|f| field(f.as_ref())).collect();
    let mut s = out.join(",");
    s.push('\n');
    s
}

/// Parses CSV text into rows of fields (quoted fields may hold commas,
/// doubled quotes and line breaks). A missing closing quote is an error.
pub fn parse(text: &str) -> Result<Vec<Vec<String>>, String> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut cur = String::new();
    let mut chars = text.chars().peekable();
    let mut quoted = false;
    let mut line = 1;
    while let Some(c) = chars.next() {
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    cur.push('"');
                }
                '"' => quoted = false,
                _ => {
                    if c == '\n' {
                        line += 1;
                    }
                    cur.push(c)
                }
            }
            continue;
        }
        match c {
            '"' if cur.is_empty() => quoted = true,
            ',' => row.push(std::mem::take(&mut cur)),
            '\r' => {}
            '\n' => {
                line += 1;
                row.push(std::mem::take(&mut cur));
                rows.push(std::mem::take(&mut row));
            }
            _ => cur.push(c),
        }
    }
    if quoted {
        return Err(format!("unterminated quoted field at line {line}"));
    }
    if !cur.is_empty() || !row.is_empty() {
        row.push(cur);
        rows.push(row);
    }
    Ok(rows)
}

/// A CSV table with a header, read by column name.
#[derive(Clone, Debug, Default)]
pub struct Table {
    /// Column names.
    pub header: Vec<String>,
    /// Data rows.
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// Reads `text` (the first row is the header).
    pub fn from_text(text: &str) -> Result<Table, String> {
        let mut rows = parse(text)?;
        if rows.is_empty() {
            return Err("empty CSV file (no header)".into());
        }
        let header = rows.remove(0);
        Ok(Table { header, rows })
    }

    /// The index of column `name`.
    pub fn col(&self, name: &str) -> Option<usize> {
        self.header.iter().position(|h| h == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let l = line(&["a", "b,c", "d\"e"]);
        assert_eq!(l, "a,\"b,c\",\"d\"\"e\"\n");
        let rows = parse(&l).unwrap();
        assert_eq!(rows, vec![vec!["a", "b,c", "d\"e"]]);
        assert!(parse("\"open").is_err());
    }
}
