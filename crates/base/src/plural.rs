//! A count and its noun, in the singular for one: "1 error", "3 errors",
//! never "1 error(s)" or "1 warnings".

/// `word` for one, `word` + `s` otherwise ("skill", "tool call", "run").
pub fn word(n: usize, word: &str) -> String {
    if n == 1 {
        word.to_string()
    } else {
        format!("{word}s")
    }
}

/// `n` and its noun: "1 error", "0 errors", "3 tool calls".
pub fn count(n: usize, noun: &str) -> String {
    format!("{n} {}", word(n, noun))
}

/// `1,754`: `n` with a comma every three digits.
pub fn thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_every_other_count_plural() {
        assert_eq!(count(1, "error"), "1 error");
        assert_eq!(count(0, "error"), "0 errors");
        assert_eq!(count(2, "tool call"), "2 tool calls");
        assert_eq!(thousands(754), "754");
        assert_eq!(thousands(1754), "1,754");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
